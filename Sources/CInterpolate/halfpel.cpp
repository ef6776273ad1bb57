// Half-pel luma planes: each frame's luma upsampled 2x once a pair, the frame's own samples at
// even positions and H.264's 6-tap half-sample filter in between. A bilinear warp into this grid
// is much sharper than a bilinear warp of the frame itself, which blurs fine texture wherever
// the motion has a fractional part (at half a pixel it averages two neighbours).
#include "internal.hpp"

#include <opencv2/imgproc.hpp>

namespace ci {
namespace {

// Weaves the frame (full), its horizontal (h), vertical (v) and diagonal (hv) half-sample
// planes into the 2x grid.
template <typename T>
void interleave(const cv::Mat &full, const cv::Mat &h, const cv::Mat &v, const cv::Mat &hv, cv::Mat &up) {
    for (int y = 0; y < full.rows; y++) {
        const T *f = full.ptr<T>(y), *rh = h.ptr<T>(y), *rv = v.ptr<T>(y), *rhv = hv.ptr<T>(y);
        T *even = up.ptr<T>(2 * y), *odd = up.ptr<T>(2 * y + 1);
        for (int x = 0; x < full.cols; x++) {
            even[2 * x] = f[x];
            even[2 * x + 1] = rh[x];
            odd[2 * x] = rv[x];
            odd[2 * x + 1] = rhv[x];
        }
    }
}

} // namespace

void upsample_halfpel(const cv::Mat &plane, cv::Mat &up) {
    // (1, -5, 20, 20, -5, 1) / 32 anchored at its third tap: output x holds the value at x + ½.
    // Rounds and saturates to the plane's type (10-bit overshoot is clamped when blending).
    static const float taps[6] = {1 / 32.f, -5 / 32.f, 20 / 32.f, 20 / 32.f, -5 / 32.f, 1 / 32.f};
    const cv::Mat k(1, 6, CV_32F, const_cast<float *>(taps)), kt = k.t(), one(1, 1, CV_32F, cv::Scalar(1));
    cv::Mat h, v, hv;
    cv::sepFilter2D(plane, h, -1, k, one, cv::Point(2, 0), 0, cv::BORDER_REPLICATE);
    cv::sepFilter2D(plane, v, -1, one, kt, cv::Point(0, 2), 0, cv::BORDER_REPLICATE);
    cv::sepFilter2D(plane, hv, -1, k, kt, cv::Point(2, 2), 0, cv::BORDER_REPLICATE);
    up.create(plane.rows * 2, plane.cols * 2, plane.type());
    if (plane.depth() == CV_8U)
        interleave<uint8_t>(plane, h, v, hv, up);
    else
        interleave<uint16_t>(plane, h, v, hv, up);
}

} // namespace ci
