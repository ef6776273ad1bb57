// A flow estimated on DIS's shrunk plane, read at the pixels of a luma or chroma plane: the
// bilinear enlargement cv::resize (INTER_LINEAR) makes.
#include "internal.hpp"

#include <opencv2/imgproc.hpp>

namespace ci {

FlowScale flow_scale(cv::Size flow, cv::Size plane, float gain_x, float gain_y) {
    FlowScale s;
    s.gain_x = gain_x;
    s.gain_y = gain_y;
    // cv::resize: scale = 1 / (dst / src), in double.
    s.step_x = 1.0 / (double(plane.width) / flow.width);
    s.step_y = 1.0 / (double(plane.height) / flow.height);
    return s;
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
