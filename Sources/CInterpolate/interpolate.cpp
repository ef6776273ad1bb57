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
    bool seed_flow = false;

    // The pair: frames, 8-bit luma and its shrunk copy for DIS, half-pel luma for sharp
    // warps, and the flows at DIS's size (the previous pair's seed the next with seeding).
    ci::Frame frame[2];
    cv::Mat luma8[2], small[2];
    cv::Mat halfpel[2];
    bool halfpel_ready[2] = {false, false}; // a stale plane keeps its buffer for the next frame
    ci::HalfpelScratch halfpel_scratch;
    ci::PairFlows flows;
    bool have_pair = false;
    ci_pair_stats stats{};

    // Luma and chroma keep their own scratch: one shared set would be reallocated twice a
    // render as the band width alternates.
    ci::IntermediateFlows intermediate;
    ci::RenderScratch scratch, scratch_c;

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
    } catch (const std::bad_alloc &) {
        ci->error = "out of memory";
        return CI_ERR_NOMEM;
    } catch (const std::exception &e) {
        // cv::Exception's text begins "OpenCV(4.6.0) file:line: error: …" (caught as its base:
        // its own type information is in OpenCV, which opencv_on_demand.cpp opens on demand).
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

int ci_available(char *err, size_t errlen) {
    std::string msg;
    if (ci::opencv_available(msg)) return 1;
    write_err(err, errlen, msg);
    return 0;
}

ci_interpolator *ci_create(int width, int height, ci_pixel_format fmt, ci_preset preset, char *err,
                           size_t errlen) {
    try {
        std::string msg;
        if (!ci::opencv_available(msg)) {
            write_err(err, errlen, msg);
            return nullptr;
        }
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

        // Seeds are the previous pair's flows, still in `flows` (constant-motion assumption);
        // without seeding compute_flow starts from an empty buffer.
        const bool seed = continues && ci->seed_flow;
        ci::PairFlows &f = ci->flows;
        ci::compute_flow(ci->flow, ci->small[0], ci->small[1], seed, f.f01);
        ci::compute_flow(ci->flow, ci->small[1], ci->small[0], seed, f.f10);
        const float up = float(1 << ci->flow.shrink); // luma pixels per shrunk pixel
        f.luma = ci::flow_scale(f.f01.size(), cv::Size(lay.width, lay.height), up, up);
        // One chroma sample spans two luma columns (and two rows in 4:2:0).
        f.chroma = ci::flow_scale(f.f01.size(), cv::Size(lay.cwidth, lay.cheight), up / 2,
                                  lay.chroma_half_height ? up / 2 : up);

        ci::analyse_pair(ci->luma8[0], ci->luma8[1], f.f01, f.f10, f.luma, ci->stats);
        ci->stats.seeded = seed ? 1 : 0;
        if (!ci->cut_detection) ci->stats.klass = CI_PAIR_OK;
        if (ci->stats.klass == CI_PAIR_OK)
            for (int i = 0; i < 2; i++) // kept across pairs: the sliding window needs one new plane
                if (!ci->halfpel_ready[i]) {
                    ci::upsample_halfpel(ci->frame[i].plane[0], ci->halfpel_scratch, ci->halfpel[i]);
                    ci->halfpel_ready[i] = true;
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
            ci::copy_out(ci->frame[t < 0.5 ? 0 : 1], *out);
            return CI_OK;
        }
        ci::intermediate_flows(ci->flows, t, ci->intermediate);
        ci::render_luma(ci->frame[0].plane[0], ci->frame[1].plane[0], ci->halfpel[0], ci->halfpel[1], ci->flows,
                        ci->intermediate, t, lay.high_bit_depth ? 1023 : 255, ci->scratch, *out);
        ci::render_chroma(ci->frame[0], ci->frame[1], ci->flows, ci->intermediate, t, ci->scratch_c, *out);
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
