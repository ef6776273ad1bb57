// DIS optical flow (OpenCV 4.6) on 8-bit luma, and its resampling to chroma planes.
#include "internal.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

namespace ci {

cv::Ptr<cv::DISOpticalFlow> make_dis(ci_preset preset, int width, int height) {
    int cv_preset = cv::DISOpticalFlow::PRESET_FAST;
    if (preset == CI_PRESET_DRAFT) cv_preset = cv::DISOpticalFlow::PRESET_ULTRAFAST;
    if (preset == CI_PRESET_QUALITY) cv_preset = cv::DISOpticalFlow::PRESET_MEDIUM;
    cv::Ptr<cv::DISOpticalFlow> dis = cv::DISOpticalFlow::create(cv_preset);
    // DIS picks its coarsest pyramid level from the frame size (this is its own formula,
    // dis_flow.cpp in 4.6) and indexes its buffers up to the finest level: a finest level
    // above the coarsest one reads past its pyramid. It happens below ~64 pixels; clamp.
    const int ps = dis->getPatchSize();
    const int coarsest =
        std::min(int(std::log(std::max(width, height) / (4.0 * ps)) / std::log(2.0) + 0.5),
                 int(std::log(std::min(width, height) / double(ps)) / std::log(2.0)));
    if (dis->getFinestScale() > coarsest) dis->setFinestScale(std::max(coarsest, 0));
    return dis;
}

void compute_flow(cv::DISOpticalFlow &dis, const cv::Mat &a8, const cv::Mat &b8, const cv::Mat *seed,
                  cv::Mat &flow_xy, Flow &out) {
    // DIS treats any CV_32FC2 output of the right size as an initial flow, so a reused
    // buffer would silently seed the search: start from an empty matrix unless seeding.
    if (seed && !seed->empty()) {
        if (seed->data != flow_xy.data) seed->copyTo(flow_xy);
    } else {
        flow_xy.release();
    }
    dis.calc(a8, b8, flow_xy);
    cv::Mat xy[2] = {out.x, out.y};
    cv::split(flow_xy, xy);
    out.x = xy[0];
    out.y = xy[1];
}

void flow_to_chroma(const Layout &lay, const Flow &luma, Flow &chroma) {
    const cv::Size size(lay.cwidth, lay.cheight);
    // INTER_AREA averages the 2x1 / 2x2 luma vectors that cover a chroma sample.
    cv::resize(luma.x, chroma.x, size, 0, 0, cv::INTER_AREA);
    cv::resize(luma.y, chroma.y, size, 0, 0, cv::INTER_AREA);
    // Displacements in chroma samples: one chroma sample spans two luma columns (and two
    // rows in 4:2:0).
    chroma.x *= 0.5;
    if (lay.chroma_half_height) chroma.y *= 0.5;
}

} // namespace ci
