// Half-pel luma planes: each frame's luma upsampled 2x once a pair, the frame's own samples at
// even positions and H.264's 6-tap half-sample filter in between. A bilinear warp into this grid
// is much sharper than a bilinear warp of the frame itself, which blurs fine texture wherever
// the motion has a fractional part (at half a pixel it averages two neighbours).
#include "internal.hpp"

#include <opencv2/imgproc.hpp>

namespace ci {

void upsample_halfpel(const cv::Mat &plane, HalfpelScratch &s, cv::Mat &up) {
    // (1, -5, 20, 20, -5, 1) / 32 anchored at its third tap: output x holds the value at x + ½.
    // Rounds and saturates to the plane's type (10-bit overshoot is clamped when blending).
    static const float taps[6] = {1 / 32.f, -5 / 32.f, 20 / 32.f, 20 / 32.f, -5 / 32.f, 1 / 32.f};
    const cv::Mat k(1, 6, CV_32F, const_cast<float *>(taps)), kt = k.t(), one(1, 1, CV_32F, cv::Scalar(1));
    cv::sepFilter2D(plane, s.h, -1, k, one, cv::Point(2, 0), 0, cv::BORDER_REPLICATE);
    cv::sepFilter2D(plane, s.v, -1, one, kt, cv::Point(0, 2), 0, cv::BORDER_REPLICATE);
    cv::sepFilter2D(plane, s.hv, -1, k, kt, cv::Point(2, 2), 0, cv::BORDER_REPLICATE);
    // Weave the frame (full), its horizontal (h), vertical (v) and diagonal (hv) half-sample
    // planes into the 2x grid: seen as two-channel images with every other row, the even rows
    // of `up` are (full, h) pairs and the odd rows (v, hv) pairs, so cv::merge (vectorised,
    // about 8x faster than a scalar loop) does it.
    up.create(plane.rows * 2, plane.cols * 2, plane.type());
    const int pairs = CV_MAKETYPE(plane.depth(), 2);
    cv::Mat even(plane.rows, plane.cols, pairs, up.data, up.step * 2);
    cv::Mat odd(plane.rows, plane.cols, pairs, up.data + up.step, up.step * 2);
    const cv::Mat top[2] = {plane, s.h}, bottom[2] = {s.v, s.hv};
    cv::merge(top, 2, even);
    cv::merge(bottom, 2, odd);
}

} // namespace ci
