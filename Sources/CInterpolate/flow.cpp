// DIS optical flow (OpenCV 4.6) on shrunk 8-bit luma.
#include "internal.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

namespace ci {
namespace {

// DIS's coarsest pyramid level for a width x height input (its own formula, dis_flow.cpp in 4.6).
int dis_coarsest(int width, int height, int patch_size) {
    return std::min(int(std::log(std::max(width, height) / (4.0 * patch_size)) / std::log(2.0) + 0.5),
                    int(std::log(std::min(width, height) / double(patch_size)) / std::log(2.0)));
}

} // namespace

FlowEngine make_flow_engine(ci_preset preset, int width, int height) {
    int cv_preset = cv::DISOpticalFlow::PRESET_FAST;
    if (preset == CI_PRESET_DRAFT) cv_preset = cv::DISOpticalFlow::PRESET_ULTRAFAST;
    if (preset == CI_PRESET_QUALITY) cv_preset = cv::DISOpticalFlow::PRESET_MEDIUM;
    FlowEngine fe;
    fe.dis = cv::DISOpticalFlow::create(cv_preset);
    // DIS indexes its buffers up to the finest level: a finest level above the coarsest one
    // reads past its pyramid. It happens below ~64 pixels; clamp.
    const int ps = fe.dis->getPatchSize();
    const int coarsest = dis_coarsest(width, height, ps);
    const int finest = std::max(std::min(fe.dis->getFinestScale(), coarsest), 0);
    // Shrink only when DIS builds the same pyramid on the shrunk plane: it counts levels from
    // the rounded-down size, which for a few sizes (725 to 727 pixels wide, ...) loses one.
    const bool same_pyramid = dis_coarsest(width >> finest, height >> finest, ps) == coarsest - finest;
    fe.shrink = same_pyramid ? finest : 0;
    fe.dis->setFinestScale(finest - fe.shrink);
    if (preset == CI_PRESET_FAST) {
        // Refining only the finest level costs a fifth less (11.9 against 14.1 ms a 720p flow)
        // and scores the same or higher PSNR on every harness clip (vtest N = 4 +0.10 dB), SSIM
        // within 0.00006 (docs/interpolation-notes.md, session 16). DIS's own settings for it.
        fe.refine = cv::VariationalRefinement::create();
        fe.refine->setAlpha(fe.dis->getVariationalRefinementAlpha());
        fe.refine->setDelta(fe.dis->getVariationalRefinementDelta());
        fe.refine->setGamma(fe.dis->getVariationalRefinementGamma());
        fe.refine->setSorIterations(5); // what DIS sets for its own
        fe.refine->setFixedPointIterations(fe.dis->getVariationalRefinementIterations());
        fe.dis->setVariationalRefinementIterations(0);
    }
    return fe;
}

void shrink_luma(const FlowEngine &fe, const cv::Mat &y8, cv::Mat &small) {
    if (fe.shrink == 0) {
        small = y8;
        return;
    }
    // DIS's own first step (sizes rounded down, INTER_AREA), so its pyramid is unchanged.
    const int f = 1 << fe.shrink;
    cv::resize(y8, small, cv::Size(y8.cols / f, y8.rows / f), 0, 0, cv::INTER_AREA);
}

void compute_flow(const FlowEngine &fe, const cv::Mat &a, const cv::Mat &b, bool seed, cv::Mat &flow) {
    // DIS treats any CV_32FC2 output of the input's size as an initial flow: keep the buffer
    // (the seed, refined in place) only when seeding. Unseeded, a fresh buffer is allocated;
    // at the shrunk size it is small (460 KB at 720p), unlike the full-size flow it replaces.
    if (!seed || flow.size() != a.size() || flow.type() != CV_32FC2) flow.release();
    fe.dis->calc(a, b, flow);
    if (fe.refine) fe.refine->calc(a, b, flow);
}

} // namespace ci
