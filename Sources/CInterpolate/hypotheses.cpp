// Where the motion is uncertain: the mean of three motion hypotheses.
//
// Super SloMo's intermediate flow mixes the forward and the backward flow into one vector per
// pixel. Where the two disagree (an object moving farther than its own width, a flow that
// failed in one direction) that vector is wrong for both frames, and the two warped frames
// disagree. There the pixel is the mean of three guesses, each a blend of both frames moved
// by one hypothesis: the forward flow held over the interval, the backward flow held over it,
// and no motion. In mean squared error an even bet on three places costs less than a wrong bet
// on one (vtest, keep 1 of 4: +0.5 dB; see docs/interpolation-notes.md).
#include "internal.hpp"

#include <algorithm>

namespace ci {
namespace {

// Frame a sampled at pa and b at pb, mixed with frame-1 weight k. A position outside its
// frame holds no content (its replicated border is not the scene), so the other frame's sample
// is used alone there.
template <typename T>
inline float mix(const cv::Mat &a, float ax, float ay, const cv::Mat &b, float bx, float by, float k) {
    const bool in_a = inside(a, ax, ay), in_b = inside(b, bx, by);
    if (in_a && !in_b) return bilinear<T>(a, ax, ay);
    if (in_b && !in_a) return bilinear<T>(b, bx, by);
    if (!in_a) { // both outside: the replicated borders
        ax = std::clamp(ax, 0.f, float(a.cols - 1)), ay = std::clamp(ay, 0.f, float(a.rows - 1));
        bx = std::clamp(bx, 0.f, float(b.cols - 1)), by = std::clamp(by, 0.f, float(b.rows - 1));
    }
    return bilinear<T>(a, ax, ay) * (1 - k) + bilinear<T>(b, bx, by) * k;
}

template <typename T>
void blend(const cv::Mat &a, const cv::Mat &b, const PairFlows &f, float t, int y0, const cv::Mat &mean, int above,
           cv::Mat &out) {
    for (int r = 0; r < mean.rows; r++) {
        const int y = y0 + r;
        const T *d = mean.ptr<T>(r), *ra = a.ptr<T>(y), *rb = b.ptr<T>(y);
        T *o = out.ptr<T>(r);
        const float fy = float(y);
        for (int x = 0; x < a.cols; x++) {
            if (d[x] <= above) continue;
            const float fx = float(x);
            const cv::Vec2f u = flow_at(f.f01, f.luma, fx, fy), w = flow_at(f.f10, f.luma, fx, fy);
            // Forward: the content at x moved by F01 over the whole interval, so at t it came
            // from x - t·F01 in a and goes to x + (1-t)·F01 in b. Backward likewise with F10.
            const float forward = mix<T>(a, fx - t * u[0], fy - t * u[1], b, fx + (1 - t) * u[0], fy + (1 - t) * u[1], t);
            const float backward = mix<T>(a, fx + t * w[0], fy + t * w[1], b, fx - (1 - t) * w[0], fy - (1 - t) * w[1], t);
            const float still = float(ra[x]) * (1 - t) + float(rb[x]) * t;
            o[x] = T((forward + backward + still) / 3.f + 0.5f);
        }
    }
}

} // namespace

void blend_hypotheses(const cv::Mat &a, const cv::Mat &b, const PairFlows &f, double t, int y0, const cv::Mat &mean,
                      int above, cv::Mat &out) {
    out.create(mean.rows, mean.cols, a.type());
    with_sample_type(a, [&](auto sample) { blend<decltype(sample)>(a, b, f, float(t), y0, mean, above, out); });
}

} // namespace ci
