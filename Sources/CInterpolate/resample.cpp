// A flow estimated on DIS's shrunk plane, read at the pixels of a plane that uses it: the
// bilinear enlargement cv::resize (INTER_LINEAR) makes, written as cv::remap's fixed-point maps.
#include "internal.hpp"

#include <opencv2/core/hal/intrin.hpp>

#include <cmath>

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

namespace {

// remap's fixed point: INTER_BITS fraction bits, a fraction index of (y frac) * 32 + (x frac).
constexpr int kFractionBits = cv::INTER_BITS, kFractionMask = (1 << kFractionBits) - 1;

} // namespace

void MapWriter::start(const cv::Mat &flow, const FlowScale &s, cv::Size size, int zoom) {
    flow_ = &flow;
    scale_ = s;
    zoom_ = zoom;
    const int columns = size.width;
    from_.resize(columns);
    weight_.resize(columns);
    for (int k = 0; k < columns; k++) {
        const float fx = flow_position(float(k), s.step_x, flow.cols);
        from_[k] = int(fx);
        weight_[k] = fx - float(from_[k]);
    }
    for (int i = 0; i < 2; i++) {
        rows_[i].resize(2 * size_t(columns));
        tag_[i] = -1;
    }
}

const float *MapWriter::enlarged(int row) {
    std::vector<float> &out = rows_[row & 1];
    if (tag_[row & 1] == row) return out.data();
    tag_[row & 1] = row;
    const float *in = flow_->ptr<float>(row);
    const int last = flow_->cols - 1;
    for (size_t k = 0; k < from_.size(); k++) {
        const float *a = in + 2 * from_[k], *b = in + 2 * std::min(from_[k] + 1, last);
        out[2 * k] = a[0] + weight_[k] * (b[0] - a[0]);
        out[2 * k + 1] = a[1] + weight_[k] * (b[1] - a[1]);
    }
    return out.data();
}

void MapWriter::write(int y0, int y1, FixedMaps &out) {
    const int columns = int(from_.size()), rows = y1 - y0;
    out.xy.create(rows, columns, CV_16SC2);
    out.frac.create(rows, columns, CV_16UC1);
    const float to_fixed = float(zoom_ << kFractionBits), gx = scale_.gain_x, gy = scale_.gain_y;
    for (int r = 0; r < rows; r++) {
        const int y = y0 + r;
        const float fy = flow_position(float(y), scale_.step_y, flow_->rows);
        const int top = int(fy);
        const float ay = fy - float(top);
        const float *e0 = enlarged(top), *e1 = enlarged(std::min(top + 1, flow_->rows - 1));
        short *xy = out.xy.ptr<short>(r);
        ushort *frac = out.frac.ptr<ushort>(r);
        int k = 0;
#if CV_SIMD128
        // Eight pixels a step: positions in fixed point, whole samples packed with saturation
        // as remap's own conversion does.
        const cv::v_float32x4 v_ay = cv::v_setall_f32(ay), v_gx = cv::v_setall_f32(gx), v_gy = cv::v_setall_f32(gy);
        const cv::v_float32x4 v_y = cv::v_setall_f32(float(y)), v_fixed = cv::v_setall_f32(to_fixed);
        const cv::v_float32x4 lanes(0.f, 1.f, 2.f, 3.f);
        const cv::v_int32x4 mask = cv::v_setall_s32(kFractionMask);
        for (; k + 8 <= columns; k += 8) {
            cv::v_int32x4 fixed_x[2], fixed_y[2];
            for (int h = 0; h < 2; h++) {
                const int c = k + 4 * h;
                cv::v_float32x4 u0, v0, u1, v1;
                cv::v_load_deinterleave(e0 + 2 * c, u0, v0);
                cv::v_load_deinterleave(e1 + 2 * c, u1, v1);
                const cv::v_float32x4 u = u0 + (u1 - u0) * v_ay, v = v0 + (v1 - v0) * v_ay;
                const cv::v_float32x4 x = cv::v_setall_f32(float(c)) + lanes;
                fixed_x[h] = cv::v_round((x + v_gx * u) * v_fixed);
                fixed_y[h] = cv::v_round((v_y + v_gy * v) * v_fixed);
            }
            cv::v_store_interleave(xy + 2 * k, cv::v_pack(fixed_x[0] >> kFractionBits, fixed_x[1] >> kFractionBits),
                                   cv::v_pack(fixed_y[0] >> kFractionBits, fixed_y[1] >> kFractionBits));
            cv::v_store(frac + k, cv::v_pack_u(((fixed_y[0] & mask) << kFractionBits) | (fixed_x[0] & mask),
                                               ((fixed_y[1] & mask) << kFractionBits) | (fixed_x[1] & mask)));
        }
#endif
        for (; k < columns; k++) {
            const float u = e0[2 * k] + (e1[2 * k] - e0[2 * k]) * ay;
            const float v = e0[2 * k + 1] + (e1[2 * k + 1] - e0[2 * k + 1]) * ay;
            const int fixed_x = int(std::lrint((float(k) + gx * u) * to_fixed));
            const int fixed_y = int(std::lrint((float(y) + gy * v) * to_fixed));
            xy[2 * k] = cv::saturate_cast<short>(fixed_x >> kFractionBits);
            xy[2 * k + 1] = cv::saturate_cast<short>(fixed_y >> kFractionBits);
            frac[k] = ushort(((fixed_y & kFractionMask) << kFractionBits) | (fixed_x & kFractionMask));
        }
    }
}

} // namespace ci
