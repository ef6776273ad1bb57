// A flow estimated on DIS's shrunk plane, read at the pixels of a luma or chroma plane: the
// bilinear enlargement cv::resize (INTER_LINEAR) makes.
#include "internal.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

namespace ci {
namespace {

// cv::resize's source position for destination pixel d: centres aligned, clamped to the edge
// samples (cv::resize clamps the same way for INTER_LINEAR).
inline float source_position(double d, double step, int size) {
    const float p = float((d + 0.5) * step - 0.5);
    return std::min(std::max(p, 0.f), float(size - 1));
}

} // namespace

FlowScale flow_scale(cv::Size flow, cv::Size plane, float gain_x, float gain_y) {
    FlowScale s;
    s.gain_x = gain_x;
    s.gain_y = gain_y;
    // cv::resize: scale = 1 / (dst / src), in double.
    s.step_x = 1.0 / (double(plane.width) / flow.width);
    s.step_y = 1.0 / (double(plane.height) / flow.height);
    return s;
}

cv::Vec2f flow_at(const cv::Mat &flow, const FlowScale &s, float x, float y) {
    const float fx = source_position(x, s.step_x, flow.cols), fy = source_position(y, s.step_y, flow.rows);
    const int x0 = std::min(int(fx), flow.cols - 1), y0 = std::min(int(fy), flow.rows - 1);
    const int x1 = std::min(x0 + 1, flow.cols - 1), y1 = std::min(y0 + 1, flow.rows - 1);
    const float ax = fx - float(x0), ay = fy - float(y0);
    const cv::Vec2f *r0 = flow.ptr<cv::Vec2f>(y0), *r1 = flow.ptr<cv::Vec2f>(y1);
    const cv::Vec2f top = r0[x0] + ax * (r0[x1] - r0[x0]), bottom = r1[x0] + ax * (r1[x1] - r1[x0]);
    const cv::Vec2f v = top + ay * (bottom - top);
    return {v[0] * s.gain_x, v[1] * s.gain_y};
}

void sample_positions(const cv::Mat &flow, const FlowScale &s, cv::Size size, cv::Mat &positions) {
    cv::resize(flow, positions, size, 0, 0, cv::INTER_LINEAR); // vectorised; the gain is applied below
    for (int y = 0; y < size.height; y++) {
        float *p = positions.ptr<float>(y);
        const float fy = float(y);
        for (int x = 0; x < size.width; x++) {
            p[2 * x] = float(x) + s.gain_x * p[2 * x];
            p[2 * x + 1] = fy + s.gain_y * p[2 * x + 1];
        }
    }
}

} // namespace ci
