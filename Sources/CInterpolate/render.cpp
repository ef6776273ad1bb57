// Rendering an in-between frame: intermediate flows, backward warps, blending, in bands of rows.
//
// The intermediate flows are combined at DIS's size; warp maps, warps, disagreement, guesses
// and blend then go band by band, so each band's planes are reused while in cache: memory
// traffic costs more than arithmetic on a busy machine.
#include "internal.hpp"

#include <opencv2/core/hal/intrin.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <type_traits>

namespace ci {

void intermediate_flows(const PairFlows &f, double t, IntermediateFlows &g) {
    // Super SloMo (Jiang et al. 2018), eq. 4, without the refinement network, at DIS's size
    // (enlarging is linear, so combining before enlarging is the same):
    //   F_t→0 = −(1−t)t·F_0→1 + t²·F_1→0
    //   F_t→1 = (1−t)²·F_0→1 − t(1−t)·F_1→0
    cv::addWeighted(f.f01, -(1 - t) * t, f.f10, t * t, 0.0, g.to0);
    cv::addWeighted(f.f01, (1 - t) * (1 - t), f.f10, -t * (1 - t), 0.0, g.to1);
}

namespace {

// Rows a band: small enough that a band's planes stay in L2 (measured best at 720p).
constexpr int kBand = 16;

// Backward-warps (bilinear, replicated border) one plane along a band's maps.
void warp(const cv::Mat &plane, const FixedMaps &maps, cv::Mat &out) {
    cv::remap(plane, out, maps.xy, maps.frac, cv::INTER_LINEAR, cv::BORDER_REPLICATE);
}

// Mean disagreement (8-bit units) of the two warped frames below which the sharp blend is used
// alone, and above which the three-hypothesis blend is (measured on vtest, box and Big Buck
// Bunny: the wide grading from 4 to 40 scores above 8 to 24 on all but vtest N = 4's PSNR).
constexpr int kSharpBelow = 4, kSoftAbove = 40;

// Per pixel of 10-bit samples: the sharp (half-pel) blend with frame-1 weight t where the warped
// frames agree, the three-hypothesis blend where they disagree, graded by the mean disagreement
// between `lo` and `hi`; `above` is the largest (whole-sample) disagreement that is all sharp,
// where `uncertain` is not written.
void blend_sharp_16bit(const cv::Mat &sharp0, const cv::Mat &sharp1, const cv::Mat &mean, const cv::Mat &uncertain,
                       float t, int above, float lo, float hi, float peak, cv::Mat &out) {
    const float inv = 1.f / (hi - lo);
    for (int y = 0; y < out.rows; y++) {
        const uint16_t *sa = sharp0.ptr<uint16_t>(y), *sb = sharp1.ptr<uint16_t>(y);
        const uint16_t *d = mean.ptr<uint16_t>(y), *u = uncertain.ptr<uint16_t>(y);
        uint16_t *o = out.ptr<uint16_t>(y);
        for (int x = 0; x < out.cols; x++) {
            float v = float(sa[x]) + t * (float(sb[x]) - float(sa[x]));
            if (d[x] > above) v = float(u[x]) + std::max(0.f, (hi - float(d[x])) * inv) * (v - float(u[x]));
            o[x] = uint16_t(std::min(peak, std::max(0.f, v)) + 0.5f);
        }
    }
}

// The same for 8-bit samples, in fixed point, which saves about 2 ms a 720p frame.
void blend_sharp_8bit(const cv::Mat &sharp0, const cv::Mat &sharp1, const cv::Mat &mean, const cv::Mat &uncertain,
                      float t, cv::Mat &out) {
    const int k = int(256.f * t + 0.5f);
    for (int y = 0; y < out.rows; y++) {
        const uint8_t *sa = sharp0.ptr<uint8_t>(y), *sb = sharp1.ptr<uint8_t>(y);
        const uint8_t *d = mean.ptr<uint8_t>(y), *u = uncertain.ptr<uint8_t>(y);
        uint8_t *o = out.ptr<uint8_t>(y);
        for (int x = 0; x < out.cols; x++) {
            const int sharp = (sa[x] << 8) + k * (sb[x] - sa[x]); // times 256
            int v = sharp << 8;                                   // times 65536
            if (d[x] > kSharpBelow) { // as `above` in blend_sharp_16bit
                const int share = // of the sharp blend, /256
                    std::max(0, (kSoftAbove - d[x]) * 256 / (kSoftAbove - kSharpBelow));
                v = (u[x] << 16) + share * (sharp - (u[x] << 8));
            }
            o[x] = uint8_t(std::min(255, std::max(0, (v + (1 << 15)) >> 16)));
        }
    }
}

// |a - b| at every other pixel of every other row of two bands, into `out`.
template <typename T> void every_other_absdiff(const cv::Mat &a, const cv::Mat &b, cv::Mat &out) {
    for (int r = 0; r < out.rows; r++) {
        const T *ra = a.ptr<T>(2 * r), *rb = b.ptr<T>(2 * r);
        T *o = out.ptr<T>(r);
        int x = 0;
#if CV_SIMD128
        if constexpr (std::is_same_v<T, uint8_t>) {
            for (; x + 16 <= out.cols && 2 * x + 32 <= a.cols; x += 16) {
                cv::v_uint8x16 a_even, a_odd, b_even, b_odd;
                cv::v_load_deinterleave(ra + 2 * x, a_even, a_odd);
                cv::v_load_deinterleave(rb + 2 * x, b_even, b_odd);
                cv::v_store(o + x, cv::v_absdiff(a_even, b_even));
            }
        }
#endif
        for (; x < out.cols; x++) o[x] = T(std::abs(int(ra[2 * x]) - int(rb[2 * x])));
    }
}

// Each sample of `half` for the 2x2 pixels it starts.
template <typename T> void spread(const cv::Mat &half, cv::Mat &out) {
    for (int r = 0; r < out.rows; r++) {
        const T *h = half.ptr<T>(r / 2);
        T *o = out.ptr<T>(r);
        for (int x = 0; x < out.cols; x++) o[x] = h[x / 2];
    }
}

// Luma rows [y0, y1) (y0 even), once the disagreement is measured one measured row below their
// last: the mean disagreement around each pixel, the three guesses where it is large, the
// blend, stored into `out`.
void finish_luma_rows(const cv::Mat &i0, const cv::Mat &i1, const PairFlows &f, double t, int peak, int y0, int y1,
                      RenderScratch &s, const ci_planes &out) {
    // The disagreement is measured at every other pixel both ways; the 3x3 mean there spans
    // the 5x5 pixels around an even pixel. A band of the whole-plane buffer: the mean reads the
    // rows around it from the plane, and replicates only at the plane's own edges.
    const int h0 = y0 / 2, h1 = (y1 - 1) / 2 + 1;
    cv::blur(s.disagree.rowRange(h0, h1), s.mean_half, cv::Size(3, 3), cv::Point(-1, -1), cv::BORDER_REPLICATE);
    s.mean.create(y1 - y0, i0.cols, i0.type());
    with_sample_type(i0, [&](auto sample) { spread<decltype(sample)>(s.mean_half, s.mean); });
    const float unit = float(peak) / 255.f, lo = kSharpBelow * unit, hi = kSoftAbove * unit;
    const int above = int(lo); // disagreements are whole samples: d > lo exactly when d > above
    blend_hypotheses(i0, i1, f, t, y0, s.mean, above, s.uncertain);
    const cv::Mat sharp0 = s.sharp0.rowRange(y0, y1), sharp1 = s.sharp1.rowRange(y0, y1);
    s.out.create(y1 - y0, i0.cols, i0.type());
    if (i0.depth() == CV_8U)
        blend_sharp_8bit(sharp0, sharp1, s.mean, s.uncertain, float(t), s.out);
    else
        blend_sharp_16bit(sharp0, sharp1, s.mean, s.uncertain, float(t), above, lo, hi, float(peak), s.out);
    store_rows(s.out, out, 0, y0);
}

} // namespace

void render_luma(const cv::Mat &i0, const cv::Mat &i1, const cv::Mat &up0, const cv::Mat &up1, const PairFlows &f,
                 const IntermediateFlows &g, double t, int peak, RenderScratch &s, const ci_planes &out) {
    const int w = i0.cols, h = i0.rows;
    s.disagree.create((h + 1) / 2, (w + 1) / 2, i0.type());
    s.sharp0.create(h, w, i0.type());
    s.sharp1.create(h, w, i0.type());
    // Sample (x, y) of a plane is sample (2x, 2y) of its half-pel plane.
    s.map_writer[0].start(g.to0, f.luma, i0.size(), 2);
    s.map_writer[1].start(g.to1, f.luma, i0.size(), 2);
    int finished = 0;
    for (int y0 = 0; y0 < h; y0 += kBand) {
        const int y1 = std::min(h, y0 + kBand);
        cv::Mat sharp0 = s.sharp0.rowRange(y0, y1), sharp1 = s.sharp1.rowRange(y0, y1);
        s.map_writer[0].write(y0, y1, s.maps[0]);
        s.map_writer[1].write(y0, y1, s.maps[1]);
        warp(up0, s.maps[0], sharp0);
        warp(up1, s.maps[1], sharp1);
        // Disagreement of the warps (at every other pixel): large on ghosts and occlusions.
        cv::Mat disagree = s.disagree.rowRange(y0 / 2, y0 / 2 + (y1 - y0 + 1) / 2);
        with_sample_type(i0, [&](auto sample) { every_other_absdiff<decltype(sample)>(sharp0, sharp1, disagree); });
        // A row's mean needs the disagreement measured up to two pixel rows below it.
        const int ready = y1 == h ? h : y1 - 2;
        if (ready > finished) {
            finish_luma_rows(i0, i1, f, t, peak, finished, ready, s, out);
            finished = ready;
        }
    }
}

void render_chroma(const Frame &a, const Frame &b, const PairFlows &f, const IntermediateFlows &g, double t,
                   RenderScratch &s, const ci_planes &out) {
    s.map_writer[0].start(g.to0, f.chroma, a.plane[1].size(), 1);
    s.map_writer[1].start(g.to1, f.chroma, a.plane[1].size(), 1);
    const int h = a.plane[1].rows;
    for (int y0 = 0; y0 < h; y0 += kBand) {
        const int y1 = std::min(h, y0 + kBand);
        s.map_writer[0].write(y0, y1, s.maps[0]);
        s.map_writer[1].write(y0, y1, s.maps[1]);
        for (int p = 1; p < 3; p++) {
            warp(a.plane[p], s.maps[0], s.w0);
            warp(b.plane[p], s.maps[1], s.w1);
            cv::addWeighted(s.w0, 1 - t, s.w1, t, 0.0, s.out); // rounds and saturates
            store_rows(s.out, out, p, y0);
        }
    }
}

} // namespace ci
