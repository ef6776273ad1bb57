// The C API: interpolator state, argument checks, and the exception firewall.
#include "internal.hpp"

#include <opencv2/core/ocl.hpp>
#include <opencv2/imgproc.hpp>

#include <cstring>
#include <exception>
#include <mutex>
#include <new>
#include <utility>

struct ci_interpolator {
    ci::Layout layout;
    ci_preset preset = CI_PRESET_FAST;
    ci::FlowEngine flow;

    bool cut_detection = true;
    bool occlusion_blend = false;
    bool seed_flow = false;

    // The pair: frames, 8-bit luma and its shrunk copy for DIS, half-pel luma for sharp
    // warps, flows (luma and chroma), visibility maps.
    ci::Frame frame[2];
    cv::Mat luma8[2], small[2];
    cv::Mat halfpel[2];
    bool halfpel_ready[2] = {false, false}; // a stale plane keeps its buffer for the next frame
    ci::HalfpelScratch halfpel_scratch;
    cv::Mat flow01_xy, flow10_xy; // CV_32FC2 at DIS's size, as DIS returns them (kept for seeding)
    ci::Flow f01, f10, f01c, f10c, parts;
    cv::Mat vis0, vis1;
    bool have_pair = false;
    bool vis_ready = false;
    ci_pair_stats stats{};

    // Luma and chroma keep their own scratch: one shared set would be reallocated twice a
    // render as the plane size alternates (fresh pages from the kernel each time, unless the
    // allocator happens to recycle them).
    ci::RenderScratch scratch, scratch_c;
    ci::Frame rendered;
    cv::Mat weight1, weight1c;

    std::string error;
};

namespace {

// OpenCV's thread count is process-wide (TBB arena in Debian's build) and not safe to change
// while another thread is inside an OpenCV call: set it once, before the first interpolator
// exists. Every OpenCV parallel_for_ then runs on the calling thread.
std::once_flag g_opencv_once;

void prepare_thread() {
    std::call_once(g_opencv_once, [] { cv::setNumThreads(1); });
    // Per-thread flag: keeps OpenCV from probing for an OpenCL device on this thread.
    cv::ocl::setUseOpenCL(false);
}

void write_err(char *err, size_t errlen, const std::string &msg) {
    if (!err || errlen == 0) return;
    const size_t n = std::min(errlen - 1, msg.size());
    std::memcpy(err, msg.data(), n);
    err[n] = '\0';
}

// Runs `body` with every C++ exception turned into a status code and message.
template <typename F> int guarded(ci_interpolator *ci, F &&body) {
    try {
        ci->error.clear();
        return body();
    } catch (const cv::Exception &e) {
        ci->error = std::string("OpenCV: ") + e.what();
        return CI_ERR_INTERNAL;
    } catch (const std::bad_alloc &) {
        ci->error = "out of memory";
        return CI_ERR_NOMEM;
    } catch (const std::exception &e) {
        ci->error = e.what();
        return CI_ERR_INTERNAL;
    } catch (...) {
        ci->error = "unknown C++ exception";
        return CI_ERR_INTERNAL;
    }
}

int fail(ci_interpolator *ci, int code, const std::string &msg) {
    ci->error = msg;
    return code;
}

} // namespace

extern "C" {

ci_interpolator *ci_create(int width, int height, ci_pixel_format fmt, ci_preset preset, char *err,
                           size_t errlen) {
    try {
        std::string msg;
        ci::Layout lay;
        if (!ci::make_layout(width, height, fmt, lay, msg)) {
            write_err(err, errlen, msg);
            return nullptr;
        }
        if (preset != CI_PRESET_DRAFT && preset != CI_PRESET_FAST && preset != CI_PRESET_QUALITY) {
            write_err(err, errlen, "unknown preset " + std::to_string(int(preset)));
            return nullptr;
        }
        prepare_thread();
        ci_interpolator *ci = new ci_interpolator();
        ci->layout = lay;
        ci->preset = preset;
        ci->flow = ci::make_flow_engine(preset, width, height);
        write_err(err, errlen, "");
        return ci;
    } catch (const std::exception &e) {
        write_err(err, errlen, std::string("ci_create: ") + e.what());
    } catch (...) {
        write_err(err, errlen, "ci_create: unknown C++ exception");
    }
    return nullptr;
}

int ci_set_option(ci_interpolator *ci, ci_option option, int value) {
    if (!ci) return CI_ERR_INVALID;
    if (value != 0 && value != 1) return fail(ci, CI_ERR_INVALID, "option value must be 0 or 1");
    switch (option) {
    case CI_OPT_CUT_DETECTION: ci->cut_detection = value; break;
    case CI_OPT_OCCLUSION_BLEND: ci->occlusion_blend = value; break;
    case CI_OPT_SEED_FLOW: ci->seed_flow = value; break;
    default: return fail(ci, CI_ERR_INVALID, "unknown option " + std::to_string(int(option)));
    }
    ci->error.clear();
    return CI_OK;
}

int ci_set_pair(ci_interpolator *ci, const ci_planes *a, const ci_planes *b) {
    if (!ci) return CI_ERR_INVALID;
    return guarded(ci, [&]() -> int {
        std::string msg;
        if (!ci::check_planes(ci->layout, a, msg) || !ci::check_planes(ci->layout, b, msg))
            return fail(ci, CI_ERR_INVALID, msg);
        prepare_thread();
        const ci::Layout &lay = ci->layout;

        // Sliding window: the new a is usually the previous b, already copied and measured.
        const bool continues = ci->have_pair && ci::same_pixels(lay, *a, ci->frame[1]);
        ci->have_pair = false;
        ci->vis_ready = false;
        if (continues) {
            std::swap(ci->frame[0], ci->frame[1]);
            std::swap(ci->luma8[0], ci->luma8[1]);
            std::swap(ci->small[0], ci->small[1]);
            std::swap(ci->halfpel[0], ci->halfpel[1]);
            std::swap(ci->halfpel_ready[0], ci->halfpel_ready[1]);
        } else {
            ci::copy_in(lay, *a, ci->frame[0]);
            ci::luma_to_8bit(lay, ci->frame[0].plane[0], ci->luma8[0]);
            ci::shrink_luma(ci->flow, ci->luma8[0], ci->small[0]);
            ci->halfpel_ready[0] = false;
        }
        ci::copy_in(lay, *b, ci->frame[1]);
        ci::luma_to_8bit(lay, ci->frame[1].plane[0], ci->luma8[1]);
        ci::shrink_luma(ci->flow, ci->luma8[1], ci->small[1]);
        ci->halfpel_ready[1] = false;

        // Seeds are the previous pair's flows, still in flow01_xy / flow10_xy (constant-motion
        // assumption); without seeding compute_flow starts from an empty buffer.
        const bool seed = continues && ci->seed_flow;
        ci::compute_flow(ci->flow, ci->small[0], ci->small[1], seed, ci->flow01_xy);
        ci::compute_flow(ci->flow, ci->small[1], ci->small[0], seed, ci->flow10_xy);
        const double up = double(1 << ci->flow.shrink); // luma pixels per shrunk pixel
        const cv::Size luma_size(lay.width, lay.height);
        ci::upsample_flow(ci->flow01_xy, luma_size, up, up, ci->parts, ci->f01);
        ci::upsample_flow(ci->flow10_xy, luma_size, up, up, ci->parts, ci->f10);

        ci::analyse_pair(ci->luma8[0], ci->luma8[1], ci->f01, ci->f10, ci->stats);
        ci->stats.seeded = seed ? 1 : 0;
        if (!ci->cut_detection) ci->stats.klass = CI_PAIR_OK;
        if (ci->stats.klass == CI_PAIR_OK) {
            // Chroma flows straight from DIS's: one chroma sample spans two luma columns (and two
            // rows in 4:2:0). With DIS's flow shrunk and even sizes this is the area average of
            // the full-size flow as before (up to float rounding): the luma samples under one
            // chroma sample lie on one linear piece of the bilinear enlargement.
            const cv::Size chroma_size(lay.cwidth, lay.cheight);
            const double sy = lay.chroma_half_height ? up / 2 : up;
            ci::upsample_flow(ci->flow01_xy, chroma_size, up / 2, sy, ci->parts, ci->f01c);
            ci::upsample_flow(ci->flow10_xy, chroma_size, up / 2, sy, ci->parts, ci->f10c);
            for (int i = 0; i < 2; i++) // kept across pairs: the sliding window needs one new plane
                if (!ci->halfpel_ready[i]) {
                    ci::upsample_halfpel(ci->frame[i].plane[0], ci->halfpel_scratch, ci->halfpel[i]);
                    ci->halfpel_ready[i] = true;
                }
        }
        ci->have_pair = true;
        return CI_OK;
    });
}

int ci_render(ci_interpolator *ci, double t, ci_planes *out) {
    if (!ci) return CI_ERR_INVALID;
    return guarded(ci, [&]() -> int {
        std::string msg;
        if (!(t > 0.0 && t < 1.0)) return fail(ci, CI_ERR_INVALID, "t must be strictly between 0 and 1");
        if (!ci::check_planes(ci->layout, out, msg)) return fail(ci, CI_ERR_INVALID, msg);
        if (!ci->have_pair) return fail(ci, CI_ERR_STATE, "ci_render before a successful ci_set_pair");
        prepare_thread();
        const ci::Layout &lay = ci->layout;

        if (ci->stats.klass != CI_PAIR_OK) { // cut or failure: the nearest real frame
            ci::copy_out(lay, ci->frame[t < 0.5 ? 0 : 1], *out);
            return CI_OK;
        }

        cv::Mat *weight = nullptr;
        ci::make_maps(ci->f01, ci->f10, t, ci->scratch);
        if (ci->occlusion_blend) {
            if (!ci->vis_ready) { // computed on the first render of a pair that needs it
                ci::visibility_map(ci->f01, ci->f10, ci->vis0);
                ci::visibility_map(ci->f10, ci->f01, ci->vis1);
                ci->vis_ready = true;
            }
            ci::occlusion_weight(ci->vis0, ci->vis1, t, ci->scratch, ci->weight1);
            weight = &ci->weight1;
        }
        ci::warp_blend_sharp(ci->frame[0].plane[0], ci->frame[1].plane[0], ci->halfpel[0], ci->halfpel[1], ci->f01,
                             ci->f10, t, weight, lay.high_bit_depth ? 1023 : 255, ci->scratch, ci->rendered.plane[0]);

        cv::Mat *weight_c = nullptr;
        if (weight) {
            cv::resize(ci->weight1, ci->weight1c, cv::Size(lay.cwidth, lay.cheight), 0, 0, cv::INTER_AREA);
            weight_c = &ci->weight1c;
        }
        ci::make_maps(ci->f01c, ci->f10c, t, ci->scratch_c);
        for (int p = 1; p < 3; p++)
            ci::warp_blend(ci->frame[0].plane[p], ci->frame[1].plane[p], t, weight_c, ci->scratch_c,
                           ci->rendered.plane[p]);
        ci::copy_out(lay, ci->rendered, *out);
        return CI_OK;
    });
}

int ci_pair_is_cut(const ci_interpolator *ci) {
    if (!ci || !ci->have_pair) return -1;
    return ci->stats.klass != CI_PAIR_OK ? 1 : 0;
}

int ci_pair_stats_get(const ci_interpolator *ci, ci_pair_stats *stats) {
    if (!ci || !stats) return CI_ERR_INVALID;
    if (!ci->have_pair) return CI_ERR_STATE;
    *stats = ci->stats;
    return CI_OK;
}

const char *ci_last_error(const ci_interpolator *ci) {
    return ci ? ci->error.c_str() : "NULL interpolator";
}

void ci_destroy(ci_interpolator *ci) {
    try {
        delete ci;
    } catch (...) {
    }
}

} // extern "C"
