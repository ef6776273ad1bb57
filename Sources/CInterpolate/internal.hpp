// Internal declarations shared by the CInterpolate translation units (not part of the C API).
#ifndef CINTERPOLATE_INTERNAL_HPP
#define CINTERPOLATE_INTERNAL_HPP

#include "cinterpolate.h"

#include <opencv2/core.hpp>
#include <opencv2/video/tracking.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace ci {

// Whether OpenCV, which is opened on first use (opencv_on_demand.cpp), can be opened here;
// `message` says why not.
bool opencv_available(std::string &message);

// Sizes and sample type of one pixel format at one frame size.
struct Layout {
    int width = 0, height = 0;   // luma
    int cwidth = 0, cheight = 0; // chroma (rounded up, as FFmpeg does)
    bool high_bit_depth = false; // 10-bit samples in uint16_t containers
    int cv_type = CV_8UC1;       // CV_8UC1 or CV_16UC1
    bool chroma_half_height = true; // 4:2:0 (true) or 4:2:2 (false)

    int plane_width(int p) const { return p == 0 ? width : cwidth; }
    int plane_height(int p) const { return p == 0 ? height : cheight; }
    size_t row_bytes(int p) const { return size_t(plane_width(p)) * (high_bit_depth ? 2 : 1); }
};

// Returns false and sets `err` for unsupported sizes or formats.
bool make_layout(int width, int height, ci_pixel_format fmt, Layout &out, std::string &err);

// One frame held by the interpolator: three continuous single-channel planes.
struct Frame {
    cv::Mat plane[3];
};

// Calls `body` with a value of the plane's sample type, uint8_t or uint16_t (10-bit in 16):
// the one switch for the templates that serve both.
template <typename F> inline void with_sample_type(const cv::Mat &plane, F &&body) {
    if (plane.depth() == CV_8U)
        body(uint8_t{});
    else
        body(uint16_t{});
}

// Bilinear sample of a single-channel plane at (x, y), which must lie inside the plane.
template <typename T> inline float bilinear(const cv::Mat &m, float x, float y) {
    const int x0 = std::min(int(x), m.cols - 2), y0 = std::min(int(y), m.rows - 2);
    const float fx = x - float(x0), fy = y - float(y0);
    const T *r0 = m.ptr<T>(y0), *r1 = m.ptr<T>(y0 + 1);
    const float top = float(r0[x0]) + fx * (float(r0[x0 + 1]) - float(r0[x0]));
    const float bot = float(r1[x0]) + fx * (float(r1[x0 + 1]) - float(r1[x0]));
    return top + fy * (bot - top);
}

// True when (x, y) lies inside the plane, where `bilinear` may sample it.
inline bool inside(const cv::Mat &m, float x, float y) {
    return x >= 0.f && y >= 0.f && x <= float(m.cols - 1) && y <= float(m.rows - 1);
}

// --- planes.cpp: moving pixels across the C boundary -------------------------------------
// Checks a ci_planes (non-NULL pointers, |linesize| >= row bytes).
bool check_planes(const Layout &lay, const ci_planes *p, std::string &err);
// Copies caller planes into `dst` (allocating it), row by row (any linesize).
void copy_in(const Layout &lay, const ci_planes &src, Frame &dst);
// Copies `src` into caller planes, row by row.
void copy_out(const Frame &src, const ci_planes &dst);
// Copies a band into rows [y0, y0 + band.rows) of the caller's plane p.
void store_rows(const cv::Mat &band, const ci_planes &dst, int p, int y0);
// True when the caller's planes hold exactly the pixels of `f`.
bool same_pixels(const Layout &lay, const ci_planes &p, const Frame &f);
// 8-bit luma for the flow estimator (10-bit is rounded down to 8 bits).
void luma_to_8bit(const Layout &lay, const cv::Mat &y, cv::Mat &y8);

// --- flow.cpp: DIS optical flow ------------------------------------------------------------
// DIS never works above its finest pyramid level: it area-shrinks its input to that level,
// estimates there and on coarser levels, and bilinearly enlarges the result. The engine does
// the shrinking itself and runs DIS with finest level 0 on the shrunk plane, which gives the
// same flow bit for bit, while each frame is shrunk once for both of its pairs. The flow is
// kept at that size (resample.cpp reads it at full size where needed).
struct FlowEngine {
    cv::Ptr<cv::DISOpticalFlow> dis; // finest scale 0 once it sees shrunk planes
    // FAST: the variational refinement, taken out of DIS (which refines every pyramid level) and
    // run once on the finest level. Empty when DIS refines (QUALITY) or nothing does (DRAFT).
    cv::Ptr<cv::VariationalRefinement> refine;
    int shrink = 0;                  // luma is shrunk 2^shrink times (DIS's finest level for the preset)
};
// The engine for the preset, its finest level clamped so the pyramid is valid for small frames.
FlowEngine make_flow_engine(ci_preset preset, int width, int height);
// The 8-bit luma plane as DIS sees it (shares y8's pixels when nothing is shrunk).
void shrink_luma(const FlowEngine &fe, const cv::Mat &y8, cv::Mat &small);
// Flow from a to b (shrunk planes) into `flow` (CV_32FC2, shrunk-plane pixels). With `seed`,
// `flow` holds the previous pair's flow of the same direction and the search starts from it.
void compute_flow(const FlowEngine &fe, const cv::Mat &a, const cv::Mat &b, bool seed, cv::Mat &flow);

// --- resample.cpp: a shrunk flow read at the pixels of the plane that uses it -------------
// The flows DIS returns (CV_32FC2, shrunk-plane pixels) are kept at that size. A reader takes
// them as cv::resize (INTER_LINEAR) enlarges them (pixel centres aligned, positions clamped to
// the edge samples), displacements scaled to the plane's pixels: the analysis and the three
// guesses at the points they need, the warps as fixed-point maps band by band.
struct FlowScale {
    float gain_x = 1, gain_y = 1; // the plane's pixels per shrunk pixel (displacements; powers of two)
    double step_x = 1, step_y = 1; // shrunk pixels per plane pixel (positions), as cv::resize computes them
};
// The scale for a plane of `plane` size reading a flow of `flow` size.
FlowScale flow_scale(cv::Size flow, cv::Size plane, float gain_x, float gain_y);
// The flow position cv::resize reads for plane position `x` along an axis of `step` flow
// pixels per plane pixel: centres aligned, clamped to the edge samples.
inline float flow_position(float x, double step, int flow_size) {
    return std::min(std::max(float((x + 0.5) * step - 0.5), 0.f), float(flow_size - 1));
}
// The flow's displacement at plane position (x, y), which may lie between pixels (inline: the
// analysis and the three guesses call it for many points).
inline cv::Vec2f flow_at(const cv::Mat &flow, const FlowScale &s, float x, float y) {
    const float fx = flow_position(x, s.step_x, flow.cols), fy = flow_position(y, s.step_y, flow.rows);
    const int x0 = int(fx), y0 = int(fy);
    const int x1 = std::min(x0 + 1, flow.cols - 1), y1 = std::min(y0 + 1, flow.rows - 1);
    const float ax = fx - float(x0), ay = fy - float(y0);
    const float *r0 = flow.ptr<float>(y0), *r1 = flow.ptr<float>(y1);
    const float *a = r0 + 2 * x0, *b = r0 + 2 * x1, *c = r1 + 2 * x0, *d = r1 + 2 * x1;
    const float top_x = a[0] + ax * (b[0] - a[0]), bottom_x = c[0] + ax * (d[0] - c[0]);
    const float top_y = a[1] + ax * (b[1] - a[1]), bottom_y = c[1] + ax * (d[1] - c[1]);
    return {(top_x + ay * (bottom_x - top_x)) * s.gain_x, (top_y + ay * (bottom_y - top_y)) * s.gain_y};
}
// cv::remap's own fixed-point maps: whole-sample positions (CV_16SC2) and the fraction's
// index in 1/32 steps (CV_16UC1). remap converts float maps into these on every call.
struct FixedMaps {
    cv::Mat xy, frac;
};
// Backward-warp maps for a plane, band by band: each pixel's own position plus the flow read
// there, times `zoom` (2 samples a half-pel plane). Each shrunk flow row is enlarged across the
// plane once, then two enlarged rows give every plane row between them.
struct MapWriter {
    // Starts a plane of `size`. `flow` must outlive the writes.
    void start(const cv::Mat &flow, const FlowScale &s, cv::Size size, int zoom);
    // The maps of plane rows [y0, y1) into `out`.
    void write(int y0, int y1, FixedMaps &out);

  private:
    const float *enlarged(int row); // a flow row at the plane's columns (u, v interleaved)

    const cv::Mat *flow_ = nullptr;
    FlowScale scale_;
    int zoom_ = 1;
    std::vector<int> from_;      // per plane column: the flow column on its left
    std::vector<float> weight_;  // ... and the weight of the one on its right
    std::vector<float> rows_[2]; // enlarged flow rows, by row parity
    int tag_[2] = {-1, -1};      // which flow row each holds
};

// --- halfpel.cpp: sharp sampling -----------------------------------------------------------
// The plane upsampled 2x (`up` sample (2x, 2y) is plane sample (x, y)); the samples in between
// by H.264's 6-tap half-sample filter. Warping into it with coordinates times 2 samples the
// plane sharply. `s` keeps the filter's buffers between calls.
struct HalfpelScratch {
    cv::Mat padded; // a row with its replicated border
    cv::Mat sums;   // unrounded horizontal half-sample sums
};
void upsample_halfpel(const cv::Mat &plane, HalfpelScratch &s, cv::Mat &up);

// --- analysis.cpp: consistency, residuals and the cut / failure decision ------------------
// Measures frame difference, flow-compensated residual and forward-backward consistency on
// 8-bit luma, and classifies the pair. f01/f10 are DIS's flows, read at luma pixels through `luma`.
void analyse_pair(const cv::Mat &a8, const cv::Mat &b8, const cv::Mat &f01, const cv::Mat &f10, const FlowScale &luma,
                  ci_pair_stats &stats);

// --- render.cpp: intermediate flows, warping and blending --------------------------------
// A pair's flows as DIS returned them, and how luma and chroma read them.
struct PairFlows {
    cv::Mat f01, f10; // CV_32FC2 at DIS's size
    FlowScale luma, chroma;
};
// Super SloMo's intermediate flows at fraction t, at DIS's size (CV_32FC2, shrunk pixels).
struct IntermediateFlows {
    cv::Mat to0, to1; // F_t→0, F_t→1
};
void intermediate_flows(const PairFlows &f, double t, IntermediateFlows &g);
// Buffers kept between renders. The frame is rendered in bands of rows, maps included, so the
// intermediate planes of a band are used while they are in cache.
struct RenderScratch {
    MapWriter map_writer[2];        // for frames 0 and 1 (into the half-pel planes, in luma)
    FixedMaps maps[2];              // a band of maps
    cv::Mat w0, w1;                 // a band of the two chroma warps
    cv::Mat sharp0, sharp1;         // the half-pel warps for the plane
    cv::Mat disagree;               // their |difference| at every other pixel (a band's mean reads the next band's rows)
    cv::Mat mean_half;              // a band of mean disagreement at every other pixel
    cv::Mat mean, uncertain, out;   // a band: mean disagreement, three-hypothesis blend, result
};
// Renders luma at fraction t into plane 0 of `out`: both frames backward-warped sharply (from
// the half-pel planes up0/up1), their blend where the warps agree, the three-hypothesis blend
// where they disagree (misplaced or occluded content, where a sharp ghost costs more than a
// soft one), graded in between. `peak`: 255 or 1023.
void render_luma(const cv::Mat &i0, const cv::Mat &i1, const cv::Mat &up0, const cv::Mat &up1, const PairFlows &f,
                 const IntermediateFlows &g, double t, int peak, RenderScratch &s, const ci_planes &out);
// Renders both chroma planes of a and b at fraction t into `out`: bilinear warps blended (1-t, t).
void render_chroma(const Frame &a, const Frame &b, const PairFlows &f, const IntermediateFlows &g, double t,
                   RenderScratch &s, const ci_planes &out);

// --- hypotheses.cpp: uncertain motion --------------------------------------------------------
// For plane rows [y0, y0 + mean.rows): where `mean` (the warps' mean disagreement, in sample
// units) exceeds `above`, writes into `out` (a band like `mean`) the mean of three blends of a
// and b (frame-1 weight t): both moved by the forward flow held over the interval, by the
// backward flow, and not moved. Other pixels of `out` are left unwritten.
void blend_hypotheses(const cv::Mat &a, const cv::Mat &b, const PairFlows &f, double t, int y0, const cv::Mat &mean,
                      int above, cv::Mat &out);

} // namespace ci

#endif
