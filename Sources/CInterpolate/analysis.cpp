// Pair analysis: frame difference, flow-compensated residual, forward-backward consistency,
// and the decision "interpolate / scene cut / flow failure".
#include "internal.hpp"

#include <algorithm>
#include <cmath>

namespace ci {
namespace {

// Sundaram, Brox & Keutzer (2010): a vector w and the reverse vector ŵ found at its target
// are consistent when |w + ŵ|² <= 0.01 (|w|² + |ŵ|²) + 0.5.
inline float fb_tolerance(float u, float v, float ub, float vb) {
    return 0.01f * (u * u + v * v + ub * ub + vb * vb) + 0.5f;
}

// Thresholds on 8-bit luma (see docs/interpolation-notes.md for how they were chosen).
constexpr double kFadeGain = 4.0;          // the largest brightness step a fade makes between two frames
constexpr double kCutResidual = 14.0;      // mean compensated residual of a cut pair is far above
constexpr double kCutExplained = 0.75;     // ... and the flow explains little of the difference
constexpr double kFailureInconsistent = 0.9; // nearly every vector fails the forward-backward check
constexpr double kFailureResidual = 10.0;

} // namespace

void analyse_pair(const cv::Mat &a8, const cv::Mat &b8, const cv::Mat &f01, const cv::Mat &f10, const FlowScale &luma,
                  ci_pair_stats &st) {
    // Frame-level statistics need a few thousand points, not every pixel: every 4th pixel both
    // ways up to about 640 x 640, a sparser grid of about 16k points above (every 7th at 720p).
    const int step = std::max(4, int(std::sqrt(double(a8.total()) / 16384.0)));
    // The residual ignores a global brightness gain (fades, exposure steps): those are not
    // cuts, and the (1-t)/t blend of the warped frames reproduces them. Measured in b's units.
    const double mean_a = cv::mean(a8)[0], mean_b = cv::mean(b8)[0];
    const double ratio = (mean_b + 1.0) / (mean_a + 1.0);
    const float gain = float(std::min(kFadeGain, std::max(1.0 / kFadeGain, ratio)));
    double diff = 0, res = 0, motion = 0;
    long n = 0, n_res = 0, n_fb = 0, n_bad = 0;
    for (int y = 0; y < a8.rows; y += step) {
        const uint8_t *ra = a8.ptr<uint8_t>(y), *rb = b8.ptr<uint8_t>(y);
        for (int x = 0; x < a8.cols; x += step) {
            n++;
            diff += std::abs(int(ra[x]) - int(rb[x]));
            const cv::Vec2f forward = flow_at(f01, luma, float(x), float(y));
            const float u = forward[0], v = forward[1];
            motion += std::sqrt(u * u + v * v);
            const float bx = float(x) + u, by = float(y) + v;
            if (inside(b8, bx, by)) { // a → b: residual and consistency
                res += std::fabs(gain * float(ra[x]) - bilinear<uint8_t>(b8, bx, by));
                n_res++;
                const cv::Vec2f back = flow_at(f10, luma, bx, by);
                const float ub = back[0], vb = back[1];
                const float ex = u + ub, ey = v + vb;
                n_fb++;
                if (ex * ex + ey * ey > fb_tolerance(u, v, ub, vb)) n_bad++;
            }
            const cv::Vec2f backward = flow_at(f10, luma, float(x), float(y));
            const float ax = float(x) + backward[0], ay = float(y) + backward[1];
            if (inside(a8, ax, ay)) { // b → a: residual only
                res += std::fabs(float(rb[x]) - gain * bilinear<uint8_t>(a8, ax, ay));
                n_res++;
            }
        }
    }
    st.frame_diff = n ? diff / double(n) : 0;
    st.residual = n_res ? res / double(n_res) : st.frame_diff;
    st.inconsistent = n_fb ? double(n_bad) / double(n_fb) : 1.0;
    st.mean_motion = n ? motion / double(n) : 0;

    st.klass = CI_PAIR_OK;
    // A brightness step no fade makes in one frame (a flash, a cut to or from black) is a cut
    // both ways: the clamped gain explains part of white → black, which hid its end.
    const bool flash = (ratio > kFadeGain || ratio < 1.0 / kFadeGain) && st.frame_diff > kCutResidual;
    if (flash || (st.residual > kCutResidual && st.residual > kCutExplained * st.frame_diff))
        st.klass = CI_PAIR_SCENE_CUT;
    else if (st.inconsistent > kFailureInconsistent && st.residual > kFailureResidual)
        st.klass = CI_PAIR_FLOW_FAILURE;
}

} // namespace ci
