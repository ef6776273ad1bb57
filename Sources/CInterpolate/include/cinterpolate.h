/*
 * cinterpolate.h — optical-flow frame interpolation for slomo (issue #13).
 *
 * A plain C API over a C++ implementation built on OpenCV 4.6's DIS optical flow
 * (cv::DISOpticalFlow). Given two planar YUV frames a and b, ci_set_pair() computes the
 * luma flow both ways once and decides whether the pair can be interpolated at all (scene
 * cut or flow failure); ci_render() then builds any number of in-between frames at
 * fractions t in (0, 1).
 *
 * Threading: one interpolator must be used by one thread at a time; different
 * interpolators may run on different threads at once. Each interpolator runs OpenCV
 * single-threaded: the first ci_create() in a process calls cv::setNumThreads(1) once
 * (OpenCV's thread count is process-wide; changing it while another thread is inside an
 * OpenCV call is unsafe, so it is never changed again). Callers get parallelism by running
 * several interpolators on worker threads.
 *
 * Errors: no function lets a C++ exception escape. Functions that can fail return
 * CI_OK (0) or a negative ci_status; the message is available from ci_last_error().
 *
 * Link with: -lopencv_video -lopencv_imgproc -lopencv_core (and the C++ runtime).
 */
#ifndef CINTERPOLATE_H
#define CINTERPOLATE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque interpolator: flow engine, the current pair, its flows and scratch buffers. */
typedef struct ci_interpolator ci_interpolator;

/** Planar YUV pixel layouts (the FFmpeg names). 10-bit formats store each sample in the low
 *  10 bits of a little-endian uint16_t. Chroma planes are ceil(width/2) wide; for 4:2:0 they
 *  are ceil(height/2) tall, for 4:2:2 full height (FFmpeg's rounding, so odd sizes work). */
typedef enum ci_pixel_format {
    CI_YUV420P = 0,      /**< 8-bit 4:2:0 (AV_PIX_FMT_YUV420P) */
    CI_YUV422P = 1,      /**< 8-bit 4:2:2 (AV_PIX_FMT_YUV422P) */
    CI_YUV420P10LE = 2,  /**< 10-bit 4:2:0 in 16-bit LE containers (AV_PIX_FMT_YUV420P10LE) */
    CI_YUV422P10LE = 3   /**< 10-bit 4:2:2 in 16-bit LE containers (AV_PIX_FMT_YUV422P10LE) */
} ci_pixel_format;

/** Speed/quality presets of the flow estimator. */
typedef enum ci_preset {
    CI_PRESET_DRAFT = 0,   /**< DIS ULTRAFAST: no variational refinement; previews. */
    CI_PRESET_FAST = 1,    /**< DIS FAST (default): coarse-to-fine patches + variational refinement. */
    CI_PRESET_QUALITY = 2  /**< DIS MEDIUM (finer scale, denser patches) + variational refinement. */
} ci_preset;

/** Return codes. */
typedef enum ci_status {
    CI_OK = 0,
    CI_ERR_INVALID = -1,   /**< a NULL pointer, t outside (0,1), a bad linesize, ... */
    CI_ERR_STATE = -2,     /**< ci_render() before a successful ci_set_pair() */
    CI_ERR_NOMEM = -3,     /**< allocation failed */
    CI_ERR_INTERNAL = -4   /**< OpenCV (or the C++ runtime) raised an error; see ci_last_error() */
} ci_status;

/** Behaviour switches for ci_set_option(). */
typedef enum ci_option {
    /** 1 (default): detect scene cuts and flow failures in ci_set_pair(); ci_render() then
     *  copies the nearest source frame. 0: always interpolate. */
    CI_OPT_CUT_DETECTION = 0,
    /* 1 was an occlusion-aware blend, measured worse and removed (docs/interpolation-notes.md). */
    /** 1: when a new pair's a is identical to the previous pair's b, start the flow search
     *  from the previous pair's flows. 0 (default): every pair is estimated from scratch,
     *  so the result depends only on the pair. */
    CI_OPT_SEED_FLOW = 2
} ci_option;

/** One frame: three plane pointers (Y, U, V) and their line sizes in bytes, as in an
 *  AVFrame. Line sizes may be padded or negative (bottom-up); their magnitude must be at
 *  least one row. Rows are copied with memcpy, so no alignment is required. ci_set_pair()
 *  only reads through these pointers; ci_render() writes. */
typedef struct ci_planes {
    uint8_t *data[3];
    int linesize[3];
} ci_planes;

/** Why ci_set_pair() classified a pair as it did. */
typedef enum ci_pair_class {
    CI_PAIR_OK = 0,           /**< interpolated by motion compensation */
    CI_PAIR_SCENE_CUT = 1,    /**< frames unrelated: large difference the flow cannot explain */
    CI_PAIR_FLOW_FAILURE = 2  /**< related frames, but the flows are inconsistent or leave a
                                   large residual (very fast motion, flashes) */
} ci_pair_class;

/** Measurements taken by ci_set_pair() on 8-bit luma (10-bit input is scaled to 8 bits). */
typedef struct ci_pair_stats {
    double frame_diff;     /**< mean |a - b| over the frame, 0..255 */
    double residual;       /**< mean flow-compensated |g·a(x) - b(x + F_ab(x))|, g = b̄/ā
                                (global brightness gain removed, clamped to 1/4..4),
                                averaged with the b→a direction, 0..255 */
    double inconsistent;   /**< fraction (0..1) of pixels failing the forward–backward check
                                |F_ab(x) + F_ba(x + F_ab(x))|² ≤ 0.01(|F_ab|² + |F_ba|²) + 0.5 */
    double mean_motion;    /**< mean |F_ab| in luma pixels */
    int seeded;            /**< 1 if the flows were seeded from the previous pair */
    ci_pair_class klass;   /**< the decision */
} ci_pair_stats;

/**
 * Creates an interpolator for frames of one size and format.
 *
 * @param width, height  luma size in pixels; both must be at least 16. Odd sizes are
 *                       accepted for every format (chroma sizes round up, as in FFmpeg).
 * @param fmt            pixel layout of every frame given to and returned by it.
 * @param preset         flow quality (CI_PRESET_FAST is the default choice).
 * @param err, errlen    optional buffer for a NUL-terminated message when NULL is returned
 *                       (may be NULL/0).
 * @return a new interpolator, or NULL on invalid arguments or failure.
 */
ci_interpolator *ci_create(int width, int height, ci_pixel_format fmt, ci_preset preset,
                           char *err, size_t errlen);

/**
 * Changes a behaviour switch (see ci_option). Takes effect from the next ci_set_pair().
 * @return CI_OK, or CI_ERR_INVALID for an unknown option or a value other than 0/1.
 */
int ci_set_option(ci_interpolator *ci, ci_option option, int value);

/**
 * Loads the pair (a, b): copies both frames, computes DIS flow on luma a→b and b→a, and
 * classifies the pair (see ci_pair_stats). The caller's buffers may be reused as soon as
 * it returns. When a has the same pixels as the previous pair's b (the usual sliding
 * window), its copy is reused and, with CI_OPT_SEED_FLOW, the flows are seeded.
 * @return CI_OK or a negative ci_status (the previous pair is then forgotten).
 */
int ci_set_pair(ci_interpolator *ci, const ci_planes *a, const ci_planes *b);

/**
 * Renders the frame at fraction t of the current pair (t = 0 is a, t = 1 is b) into out,
 * which must have the interpolator's size and format. Intermediate flows follow Super
 * SloMo's linear approximation; both frames are backward-warped (bilinear, replicated
 * border; luma also from a half-pel grid), luma and chroma at their own sizes, and blended
 * (1-t)·a' + t·b'. Where the two warped lumas disagree, the pixel is the mean of three
 * blends: both frames moved by the forward flow, by the backward flow, and not moved. For a
 * scene cut or flow failure the nearest source frame is copied (t < 0.5 → a, else b).
 * @param t  strictly between 0 and 1.
 * @return CI_OK or a negative ci_status.
 */
int ci_render(ci_interpolator *ci, double t, ci_planes *out);

/**
 * @return 1 if the current pair was classified as a scene cut or flow failure (renders
 *         copy the nearest frame), 0 if it is interpolated, -1 if there is no current pair
 *         or ci is NULL.
 */
int ci_pair_is_cut(const ci_interpolator *ci);

/**
 * Copies the current pair's measurements into *stats.
 * @return CI_OK, CI_ERR_STATE without a current pair, CI_ERR_INVALID for NULL arguments.
 */
int ci_pair_stats_get(const ci_interpolator *ci, ci_pair_stats *stats);

/**
 * @return the message of the last failed call on ci ("" if none). Valid until the next
 *         call on ci. Never NULL.
 */
const char *ci_last_error(const ci_interpolator *ci);

/** Frees the interpolator and everything it holds. NULL is ignored. */
void ci_destroy(ci_interpolator *ci);

/**
 * Whether OpenCV, which is opened on first use rather than linked, can be opened on this
 * machine. ci_create checks it too.
 * @param err, errlen    optional buffer for a NUL-terminated reason when it cannot (may be NULL/0).
 * @return 1 when it can, 0 when it cannot.
 */
int ci_available(char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* CINTERPOLATE_H */
