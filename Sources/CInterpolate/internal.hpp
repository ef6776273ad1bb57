// Internal declarations shared by the CInterpolate translation units (not part of the C API).
#ifndef CINTERPOLATE_INTERNAL_HPP
#define CINTERPOLATE_INTERNAL_HPP

#include "cinterpolate.h"

#include <opencv2/core.hpp>
#include <opencv2/video/tracking.hpp>

#include <algorithm>
#include <string>

namespace ci {

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

// A flow field as two float planes (x and y displacement in pixels of its own plane).
struct Flow {
    cv::Mat x, y; // CV_32FC1
};

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
void copy_out(const Layout &lay, const Frame &src, const ci_planes &dst);
// True when the caller's planes hold exactly the pixels of `f`.
bool same_pixels(const Layout &lay, const ci_planes &p, const Frame &f);
// 8-bit luma for the flow estimator (10-bit is rounded down to 8 bits).
void luma_to_8bit(const Layout &lay, const cv::Mat &y, cv::Mat &y8);

// --- flow.cpp: DIS optical flow ------------------------------------------------------------
// DIS never works above its finest pyramid level: it area-shrinks its input to that level,
// estimates there and on coarser levels, and bilinearly enlarges the result. The engine does
// the shrinking itself and runs DIS with finest level 0 on the shrunk plane, which gives the
// same flow bit for bit, while each frame is shrunk once for both of its pairs and the
// full-size flow is written once, straight into the planes that use it (no CV_32FC2
// full-size buffer from DIS to split).
struct FlowEngine {
    cv::Ptr<cv::DISOpticalFlow> dis; // finest scale 0 once it sees shrunk planes
    int shrink = 0;                  // luma is shrunk 2^shrink times (DIS's finest level for the preset)
};
// The engine for the preset, its finest level clamped so the pyramid is valid for small frames.
FlowEngine make_flow_engine(ci_preset preset, int width, int height);
// The 8-bit luma plane as DIS sees it (shares y8's pixels when nothing is shrunk).
void shrink_luma(const FlowEngine &fe, const cv::Mat &y8, cv::Mat &small);
// Flow from a to b (shrunk planes) into `flow` (CV_32FC2, shrunk-plane pixels). With `seed`,
// `flow` holds the previous pair's flow of the same direction and the search starts from it.
void compute_flow(const FlowEngine &fe, const cv::Mat &a, const cv::Mat &b, bool seed, cv::Mat &flow);
// A shrunk flow resampled (bilinear) to a plane of `size`, its x and y displacements
// multiplied by sx and sy (that plane's pixels per shrunk-plane pixel). `parts` is scratch.
void upsample_flow(const cv::Mat &flow, cv::Size size, double sx, double sy, Flow &parts, Flow &out);

// --- halfpel.cpp: sharp sampling -----------------------------------------------------------
// The plane upsampled 2x (`up` sample (2x, 2y) is plane sample (x, y)); the samples in between
// by H.264's 6-tap half-sample filter. Warping into it with coordinates times 2 samples the
// plane sharply. `s` keeps the half-sample planes' buffers between calls.
struct HalfpelScratch {
    cv::Mat h, v, hv;
};
void upsample_halfpel(const cv::Mat &plane, HalfpelScratch &s, cv::Mat &up);

// --- analysis.cpp: consistency, residuals and the cut / failure decision ------------------
// Measures frame difference, flow-compensated residual and forward-backward consistency on
// 8-bit luma, and classifies the pair.
void analyse_pair(const cv::Mat &a8, const cv::Mat &b8, const Flow &f01, const Flow &f10, ci_pair_stats &stats);
// Per-pixel visibility weight in (0, 1] of frame A's pixels from the forward-backward check
// of f_ab against f_ba (1 = consistent).
void visibility_map(const Flow &f_ab, const Flow &f_ba, cv::Mat &vis /* CV_32FC1 */);

// --- render.cpp: intermediate flows, warping and blending --------------------------------
struct RenderScratch {
    cv::Mat map0x, map0y, map1x, map1y; // backward-warp sample positions (CV_32FC1)
    cv::Mat w0, w1;                     // warped planes
    cv::Mat map2x, map2y;               // a map times 2, for the half-pel planes
    cv::Mat sharp0, sharp1;             // warped half-pel planes (luma)
    cv::Mat disagree;                   // local mean |w0 - w1| (luma)
    cv::Mat uncertain;                  // three-hypothesis blend where they disagree (luma)
    cv::Mat v0, v1;                     // warped visibility (occlusion blend only)
};
// Sample positions at fraction t for one plane (flows in that plane's pixels): Super SloMo's
// intermediate flows F_t→0 and F_t→1 added to the pixel grid.
void make_maps(const Flow &f01, const Flow &f10, double t, RenderScratch &s);
// Per-pixel weight of frame 1 from visibility maps (luma resolution, after make_maps):
// (1-t)·vis0 against t·vis1, both carried along the warps; samples from outside a frame
// count little.
void occlusion_weight(const cv::Mat &vis0, const cv::Mat &vis1, double t, RenderScratch &s, cv::Mat &weight1);
// Backward-warps i0 and i1 with the maps in `s` (bilinear, replicated border) and blends
// them: (1-t)·i0' + t·i1', or i0' + weight1·(i1' - i0') when weight1 is given.
void warp_blend(const cv::Mat &i0, const cv::Mat &i1, double t, const cv::Mat *weight1, RenderScratch &s,
                cv::Mat &out);
// The same for luma, also warping the half-pel planes up0/up1 of i0/i1 (f01/f10: the luma
// flows the maps came from): the sharp blend where the two warped frames agree, the
// three-hypothesis blend where they disagree (misplaced or occluded content, where a sharp
// ghost costs more than a soft one), graded in between. `peak` is the largest sample value
// (255 or 1023).
void warp_blend_sharp(const cv::Mat &i0, const cv::Mat &i1, const cv::Mat &up0, const cv::Mat &up1, const Flow &f01,
                      const Flow &f10, double t, const cv::Mat *weight1, int peak, RenderScratch &s, cv::Mat &out);

// --- hypotheses.cpp: uncertain motion --------------------------------------------------------
// Where `disagree` (the mean |w0 - w1|, in sample units) exceeds `above`, writes the mean of
// three blends of a and b (frame-1 weight t, or weight1): both moved by the forward flow f01
// held over the interval, by the backward flow f10, and not moved. Other pixels of `out`
// (allocated to a's size and type) are left unwritten.
void blend_hypotheses(const cv::Mat &a, const cv::Mat &b, const Flow &f01, const Flow &f10, double t,
                      const cv::Mat *weight1, const cv::Mat &disagree, int above, cv::Mat &out);

} // namespace ci

#endif
