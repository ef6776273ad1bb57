// Pixel formats and moving planes across the C boundary.
#include "internal.hpp"

#include <cstring>

namespace ci {

bool make_layout(int width, int height, ci_pixel_format fmt, Layout &out, std::string &err) {
    if (width < 16 || height < 16) {
        err = "frame size " + std::to_string(width) + "x" + std::to_string(height) +
              " is below the 16x16 minimum";
        return false;
    }
    if (width > 16384 || height > 16384) {
        err = "frame size " + std::to_string(width) + "x" + std::to_string(height) + " is above 16384x16384";
        return false;
    }
    Layout l;
    l.width = width;
    l.height = height;
    switch (fmt) {
    case CI_YUV420P: l.high_bit_depth = false; l.chroma_half_height = true; break;
    case CI_YUV422P: l.high_bit_depth = false; l.chroma_half_height = false; break;
    case CI_YUV420P10LE: l.high_bit_depth = true; l.chroma_half_height = true; break;
    case CI_YUV422P10LE: l.high_bit_depth = true; l.chroma_half_height = false; break;
    default:
        err = "unknown pixel format " + std::to_string(int(fmt));
        return false;
    }
    // FFmpeg's AV_CEIL_RSHIFT: an odd luma size keeps a last, half-covered chroma sample.
    l.cwidth = (width + 1) >> 1;
    l.cheight = l.chroma_half_height ? (height + 1) >> 1 : height;
    l.cv_type = l.high_bit_depth ? CV_16UC1 : CV_8UC1;
    out = l;
    return true;
}

bool check_planes(const Layout &lay, const ci_planes *p, std::string &err) {
    if (!p) {
        err = "planes pointer is NULL";
        return false;
    }
    for (int i = 0; i < 3; i++) {
        if (!p->data[i]) {
            err = "plane " + std::to_string(i) + " data pointer is NULL";
            return false;
        }
        long long ls = p->linesize[i];
        if (ls < 0) ls = -ls;
        if (size_t(ls) < lay.row_bytes(i)) {
            err = "plane " + std::to_string(i) + " linesize " + std::to_string(p->linesize[i]) +
                  " is smaller than a row (" + std::to_string(lay.row_bytes(i)) + " bytes)";
            return false;
        }
    }
    return true;
}

void copy_in(const Layout &lay, const ci_planes &src, Frame &dst) {
    for (int i = 0; i < 3; i++) {
        dst.plane[i].create(lay.plane_height(i), lay.plane_width(i), lay.cv_type);
        const size_t n = lay.row_bytes(i);
        for (int r = 0; r < lay.plane_height(i); r++)
            std::memcpy(dst.plane[i].ptr(r), src.data[i] + ptrdiff_t(r) * src.linesize[i], n);
    }
}

void store_rows(const cv::Mat &band, const ci_planes &dst, int p, int y0) {
    const size_t n = size_t(band.cols) * band.elemSize();
    for (int r = 0; r < band.rows; r++) std::memcpy(dst.data[p] + ptrdiff_t(y0 + r) * dst.linesize[p], band.ptr(r), n);
}

void copy_out(const Frame &src, const ci_planes &dst) {
    for (int i = 0; i < 3; i++) store_rows(src.plane[i], dst, i, 0);
}

bool same_pixels(const Layout &lay, const ci_planes &p, const Frame &f) {
    for (int i = 0; i < 3; i++) {
        if (f.plane[i].empty()) return false;
        const size_t n = lay.row_bytes(i);
        for (int r = 0; r < lay.plane_height(i); r++)
            if (std::memcmp(f.plane[i].ptr(r), p.data[i] + ptrdiff_t(r) * p.linesize[i], n) != 0) return false;
    }
    return true;
}

void luma_to_8bit(const Layout &lay, const cv::Mat &y, cv::Mat &y8) {
    if (!lay.high_bit_depth) {
        y8 = y; // shares the pixels; the 8-bit plane is already what DIS wants
        return;
    }
    // 10-bit → 8-bit with rounding; convertTo saturates values above 1023.
    y.convertTo(y8, CV_8U, 1.0 / 4.0);
}

} // namespace ci
