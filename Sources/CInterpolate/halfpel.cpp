// Half-pel luma planes: each frame's luma upsampled 2x once a pair, the frame's own samples at
// even positions and H.264's 6-tap half-sample filter in between. A bilinear warp into this grid
// is much sharper than a bilinear warp of the frame itself, which blurs fine texture wherever
// the motion has a fractional part (at half a pixel it averages two neighbours).
//
// Integer arithmetic as H.264 does it: the diagonal samples filter the unrounded horizontal
// sums vertically. 8-bit planes take a vectorised path with 16-bit horizontal sums; the scalar
// loops finish rows and do 10-bit planes (32-bit sums) with the same results.
#include "internal.hpp"

#include <opencv2/core/hal/intrin.hpp>

#include <limits>
#include <type_traits>

namespace ci {
namespace {

// (1, -5, 20, 20, -5, 1) over six samples, unscaled (divide by 32 to finish): written with
// shifts so it serves plain integers and vectors alike.
template <typename S> inline S six_taps(const S &a, const S &b, const S &c, const S &d, const S &e, const S &f) {
    const S m = ((c + d) << 2) - (b + e); // 20 (c + d) - 5 (b + e) = 5 m
    return S((a + f) + (m << 2) + m);
}

// Unscaled horizontal sums of 8-bit samples lie in [-2550, 10710]; of 10-bit ones they need 32 bits.
template <typename T> using Sum = std::conditional_t<std::is_same_v<T, uint8_t>, int16_t, int32_t>;

// A filtered value rounded into the sample type (negative overshoot to 0, as saturation does).
template <typename T> inline T to_sample(int v) {
    return T(std::min(std::max(v, 0), int(std::numeric_limits<T>::max())));
}

// Each row's horizontal sums at x + ½ (replicated border), unscaled.
template <typename T> void horizontal_sums(const cv::Mat &plane, cv::Mat &padded, cv::Mat &sums) {
    const int w = plane.cols;
    padded.create(1, w + 5, plane.type()); // two samples left of the row, three right
    sums.create(plane.rows, w, cv::DataType<Sum<T>>::type);
    T *p = padded.ptr<T>();
    for (int y = 0; y < plane.rows; y++) {
        const T *row = plane.ptr<T>(y);
        std::copy(row, row + w, p + 2);
        p[0] = p[1] = row[0];
        p[w + 2] = p[w + 3] = p[w + 4] = row[w - 1];
        Sum<T> *s = sums.ptr<Sum<T>>(y);
        int x = 0;
#if CV_SIMD128
        if constexpr (std::is_same_v<T, uint8_t>) {
            const auto at = [p](int i) { return cv::v_reinterpret_as_s16(cv::v_load_expand(p + i)); };
            for (; x + 8 <= w; x += 8) cv::v_store(s + x, six_taps(at(x), at(x + 1), at(x + 2), at(x + 3), at(x + 4), at(x + 5)));
        }
#endif
        for (; x < w; x++) s[x] = Sum<T>(six_taps<int>(p[x], p[x + 1], p[x + 2], p[x + 3], p[x + 4], p[x + 5]));
    }
}

// Rows 2y and 2y + 1 of the 2x grid: (sample, horizontal half) pairs, then (vertical half,
// diagonal half) pairs.
template <typename T> void weave(const cv::Mat &plane, const cv::Mat &sums, cv::Mat &up) {
    const int w = plane.cols, last = plane.rows - 1;
    for (int y = 0; y < plane.rows; y++) {
        const T *r[6];
        const Sum<T> *s[6];
        for (int k = 0; k < 6; k++) {
            const int from = std::min(std::max(y + k - 2, 0), last);
            r[k] = plane.ptr<T>(from);
            s[k] = sums.ptr<Sum<T>>(from);
        }
        T *even = up.ptr<T>(2 * y), *odd = up.ptr<T>(2 * y + 1);
        int x = 0;
#if CV_SIMD128
        if constexpr (std::is_same_v<T, uint8_t>) {
            const cv::v_int16x8 half16 = cv::v_setall_s16(16);
            const cv::v_int32x4 half1024 = cv::v_setall_s32(512);
            for (; x + 16 <= w; x += 16) {
                const cv::v_uint8x16 h = cv::v_pack_u((cv::v_load(s[2] + x) + half16) >> 5,
                                                      (cv::v_load(s[2] + x + 8) + half16) >> 5);
                cv::v_int16x8 v[2];
                for (int i = 0; i < 2; i++) {
                    const auto at = [&](int k) { return cv::v_reinterpret_as_s16(cv::v_load_expand(r[k] + x + 8 * i)); };
                    v[i] = (six_taps(at(0), at(1), at(2), at(3), at(4), at(5)) + half16) >> 5;
                }
                cv::v_int32x4 hv[4];
                for (int i = 0; i < 4; i++) {
                    const auto at = [&](int k) { return cv::v_load_expand(s[k] + x + 4 * i); };
                    hv[i] = (six_taps(at(0), at(1), at(2), at(3), at(4), at(5)) + half1024) >> 10;
                }
                cv::v_store_interleave(even + 2 * x, cv::v_load(r[2] + x), h);
                cv::v_store_interleave(odd + 2 * x, cv::v_pack_u(v[0], v[1]),
                                       cv::v_pack_u(cv::v_pack(hv[0], hv[1]), cv::v_pack(hv[2], hv[3])));
            }
        }
#endif
        for (; x < w; x++) {
            even[2 * x] = r[2][x];
            even[2 * x + 1] = to_sample<T>((s[2][x] + 16) >> 5);
            odd[2 * x] = to_sample<T>((six_taps<int>(r[0][x], r[1][x], r[2][x], r[3][x], r[4][x], r[5][x]) + 16) >> 5);
            odd[2 * x + 1] =
                to_sample<T>((six_taps<int>(s[0][x], s[1][x], s[2][x], s[3][x], s[4][x], s[5][x]) + 512) >> 10);
        }
    }
}

template <typename T> void upsample(const cv::Mat &plane, HalfpelScratch &s, cv::Mat &up) {
    horizontal_sums<T>(plane, s.padded, s.sums);
    up.create(plane.rows * 2, plane.cols * 2, plane.type());
    weave<T>(plane, s.sums, up);
}

} // namespace

void upsample_halfpel(const cv::Mat &plane, HalfpelScratch &s, cv::Mat &up) {
    with_sample_type(plane, [&](auto sample) { upsample<decltype(sample)>(plane, s, up); });
}

} // namespace ci
