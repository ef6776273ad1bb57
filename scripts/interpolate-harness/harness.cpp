// Quality and timing driver for Sources/CInterpolate (issue #13). Built and run by run.sh;
// never part of the Swift package. Frames move as raw planar YUV files.
//
//   harness rebuild FMT W H N IN.yuv OUTDIR [--preset draft|fast|quality]
//                   [--seed 0|1] [--cut 0|1] [--frames K]
//       keeps frames 0, N, 2N, ... of IN, rebuilds the others at t = j/N and writes into
//       OUTDIR: ours.yuv, blend.yuv (plain (1-t)a + t b), ref.yuv (the real dropped frames,
//       same order), kept.yuv (the kept frames), pairs.tsv (one line a pair), frames.tsv
//       (one line a rebuilt frame: index, pair, t, driver's own PSNR-Y of ours/blend, and
//       PSNR-Y against the nearest kept frame). Prints a one-line summary and timings.
//   harness pick FMT W H N ALL.yuv OUTDIR
//       ALL.yuv is another method's output at the original rate from OUTDIR/kept.yuv (e.g.
//       ffmpeg minterpolate). Checks it lines up in time (frame kN must be kept frame k, and
//       says how well offsets -1/+1 would match instead), then writes the frames listed in
//       OUTDIR/frames.tsv, in that order, to OUTDIR/mi.yuv.
//   harness threads FMT W H IN.yuv
//       runs two interpolators on two threads at once and checks they match a serial run.
//   harness api
//       argument checks, small and odd sizes, every pixel format.
#include "cinterpolate.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Format {
    ci_pixel_format fmt;
    int bytes;       // per sample
    bool half_height; // 4:2:0
    int peak;
};

bool parse_format(const std::string &s, Format &f) {
    if (s == "yuv420p") f = {CI_YUV420P, 1, true, 255};
    else if (s == "yuv422p") f = {CI_YUV422P, 1, false, 255};
    else if (s == "yuv420p10le") f = {CI_YUV420P10LE, 2, true, 1023};
    else if (s == "yuv422p10le") f = {CI_YUV422P10LE, 2, false, 1023};
    else return false;
    return true;
}

struct Geometry {
    int w, h, cw, ch, bytes;
    size_t plane_size(int p) const { return size_t(p ? cw : w) * (p ? ch : h) * bytes; }
    size_t frame_size() const { return plane_size(0) + 2 * plane_size(1); }
    int linesize(int p) const { return (p ? cw : w) * bytes; }
};

Geometry geometry(const Format &f, int w, int h) {
    return {w, h, (w + 1) / 2, f.half_height ? (h + 1) / 2 : h, f.bytes};
}

ci_planes planes_of(const Geometry &g, uint8_t *frame) {
    ci_planes p;
    p.data[0] = frame;
    p.data[1] = frame + g.plane_size(0);
    p.data[2] = frame + g.plane_size(0) + g.plane_size(1);
    for (int i = 0; i < 3; i++) p.linesize[i] = g.linesize(i);
    return p;
}

std::vector<std::vector<uint8_t>> read_frames(const char *path, size_t frame_size, int limit) {
    std::vector<std::vector<uint8_t>> frames;
    FILE *f = std::fopen(path, "rb");
    if (!f) {
        std::perror(path);
        std::exit(2);
    }
    std::vector<uint8_t> buf(frame_size);
    while ((limit <= 0 || int(frames.size()) < limit) && std::fread(buf.data(), 1, frame_size, f) == frame_size)
        frames.push_back(buf);
    std::fclose(f);
    return frames;
}

double sample(const uint8_t *p, int bytes, size_t i) {
    if (bytes == 1) return p[i];
    uint16_t v;
    std::memcpy(&v, p + 2 * i, 2);
    return v;
}

// PSNR of the luma plane (the scoring that matters is ffmpeg's, in run.sh; this one is for
// quick comparisons and the cut test). Identical planes give 100.
double psnr_y(const Geometry &g, const uint8_t *a, const uint8_t *b, int peak) {
    const size_t n = size_t(g.w) * g.h;
    double se = 0;
    for (size_t i = 0; i < n; i++) {
        const double d = sample(a, g.bytes, i) - sample(b, g.bytes, i);
        se += d * d;
    }
    if (se == 0) return 100.0;
    return std::min(100.0, 10.0 * std::log10(double(peak) * peak / (se / double(n))));
}

void blend(const Geometry &g, const uint8_t *a, const uint8_t *b, double t, uint8_t *out) {
    const size_t n = g.frame_size() / g.bytes;
    for (size_t i = 0; i < n; i++) {
        const double v = (1 - t) * sample(a, g.bytes, i) + t * sample(b, g.bytes, i) + 0.5;
        if (g.bytes == 1) out[i] = uint8_t(v);
        else {
            const uint16_t s = uint16_t(v);
            std::memcpy(out + 2 * i, &s, 2);
        }
    }
}

double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void check(int rc, ci_interpolator *ci, const char *what) {
    if (rc != CI_OK) {
        std::fprintf(stderr, "%s failed: %d %s\n", what, rc, ci_last_error(ci));
        std::exit(1);
    }
}

const char *class_name(ci_pair_class k) {
    return k == CI_PAIR_OK ? "ok" : k == CI_PAIR_SCENE_CUT ? "cut" : "failure";
}

int cmd_rebuild(int argc, char **argv) {
    if (argc < 8) return 2;
    Format f;
    if (!parse_format(argv[2], f)) return 2;
    const int w = std::atoi(argv[3]), h = std::atoi(argv[4]), n = std::atoi(argv[5]);
    const std::string in = argv[6], dir = argv[7];
    ci_preset preset = CI_PRESET_FAST;
    int seed = -1, cut = -1, limit = 0;
    for (int i = 8; i + 1 < argc; i += 2) {
        const std::string k = argv[i], v = argv[i + 1];
        if (k == "--preset") preset = v == "draft" ? CI_PRESET_DRAFT : v == "quality" ? CI_PRESET_QUALITY : CI_PRESET_FAST;
        else if (k == "--seed") seed = std::atoi(v.c_str());
        else if (k == "--cut") cut = std::atoi(v.c_str());
        else if (k == "--frames") limit = std::atoi(v.c_str());
        else return 2;
    }
    const Geometry g = geometry(f, w, h);
    auto frames = read_frames(in.c_str(), g.frame_size(), limit);
    char err[256];
    ci_interpolator *ci = ci_create(w, h, f.fmt, preset, err, sizeof err);
    if (!ci) {
        std::fprintf(stderr, "ci_create: %s\n", err);
        return 1;
    }
    if (seed >= 0) check(ci_set_option(ci, CI_OPT_SEED_FLOW, seed), ci, "option");
    if (cut >= 0) check(ci_set_option(ci, CI_OPT_CUT_DETECTION, cut), ci, "option");

    FILE *fo = std::fopen((dir + "/ours.yuv").c_str(), "wb");
    FILE *fb = std::fopen((dir + "/blend.yuv").c_str(), "wb");
    FILE *fr = std::fopen((dir + "/ref.yuv").c_str(), "wb");
    FILE *fk = std::fopen((dir + "/kept.yuv").c_str(), "wb");
    FILE *fp = std::fopen((dir + "/pairs.tsv").c_str(), "w");
    FILE *ff = std::fopen((dir + "/frames.tsv").c_str(), "w");
    if (!fo || !fb || !fr || !fk || !fp || !ff) {
        std::perror(dir.c_str());
        return 1;
    }
    std::fprintf(fp, "pair\ta\tb\tclass\tframe_diff\tresidual\tinconsistent\tmean_motion\tseeded\tms_pair\n");
    std::fprintf(ff, "frame\tpair\tt\tpsnr_y_ours\tpsnr_y_blend\tpsnr_y_nearest\tcut\n");
    std::vector<uint8_t> out(g.frame_size()), mix(g.frame_size());
    const int pairs = (int(frames.size()) - 1) / n;
    double ms_pairs = 0, ms_renders = 0, sum_ours = 0, sum_blend = 0;
    int renders = 0;
    for (int k = 0; k <= pairs; k++) std::fwrite(frames[size_t(k) * n].data(), 1, g.frame_size(), fk);
    for (int k = 0; k < pairs; k++) {
        uint8_t *a = frames[size_t(k) * n].data(), *b = frames[size_t(k + 1) * n].data();
        const ci_planes pa = planes_of(g, a), pb = planes_of(g, b);
        double t0 = now_ms();
        check(ci_set_pair(ci, &pa, &pb), ci, "ci_set_pair");
        const double ms_pair = now_ms() - t0;
        ms_pairs += ms_pair;
        ci_pair_stats st;
        check(ci_pair_stats_get(ci, &st), ci, "stats");
        std::fprintf(fp, "%d\t%d\t%d\t%s\t%.2f\t%.2f\t%.3f\t%.2f\t%d\t%.1f\n", k, k * n, (k + 1) * n,
                     class_name(st.klass), st.frame_diff, st.residual, st.inconsistent, st.mean_motion, st.seeded,
                     ms_pair);
        for (int j = 1; j < n; j++) {
            const double t = double(j) / n;
            ci_planes po = planes_of(g, out.data());
            t0 = now_ms();
            check(ci_render(ci, t, &po), ci, "ci_render");
            ms_renders += now_ms() - t0;
            renders++;
            blend(g, a, b, t, mix.data());
            const uint8_t *ref = frames[size_t(k) * n + j].data();
            const double po_y = psnr_y(g, out.data(), ref, f.peak), pb_y = psnr_y(g, mix.data(), ref, f.peak);
            const double pn_y = psnr_y(g, out.data(), t < 0.5 ? a : b, f.peak);
            sum_ours += po_y;
            sum_blend += pb_y;
            std::fprintf(ff, "%d\t%d\t%.4f\t%.3f\t%.3f\t%.3f\t%d\n", k * n + j, k, t, po_y, pb_y, pn_y,
                         ci_pair_is_cut(ci));
            std::fwrite(out.data(), 1, g.frame_size(), fo);
            std::fwrite(mix.data(), 1, g.frame_size(), fb);
            std::fwrite(ref, 1, g.frame_size(), fr);
        }
    }
    for (FILE *x : {fo, fb, fr, fk, fp, ff}) std::fclose(x);
    ci_destroy(ci);
    std::printf("frames=%d rebuilt=%d psnr_y ours=%.3f blend=%.3f ms_pair=%.1f ms_render=%.2f\n", int(frames.size()),
                renders, renders ? sum_ours / renders : 0, renders ? sum_blend / renders : 0,
                pairs ? ms_pairs / pairs : 0, renders ? ms_renders / renders : 0);
    return 0;
}

int cmd_pick(int argc, char **argv) {
    if (argc < 8) return 2;
    Format f;
    if (!parse_format(argv[2], f)) return 2;
    const Geometry g = geometry(f, std::atoi(argv[3]), std::atoi(argv[4]));
    const int n = std::atoi(argv[5]);
    const std::string dir = argv[7];
    auto all = read_frames(argv[6], g.frame_size(), 0);
    auto kept = read_frames((dir + "/kept.yuv").c_str(), g.frame_size(), 0);
    // Alignment: mean PSNR-Y of ALL[kN + d] against kept frame k, for d = -1, 0, +1.
    for (int d = -1; d <= 1; d++) {
        double sum = 0, worst = 100;
        int count = 0;
        for (size_t k = 0; k < kept.size(); k++) {
            const long i = long(k) * n + d;
            if (i < 0 || i >= long(all.size())) continue;
            const double p = psnr_y(g, all[size_t(i)].data(), kept[k].data(), f.peak);
            sum += p;
            worst = std::min(worst, p);
            count++;
        }
        std::printf("pick: output frame kN%+d vs kept frame k: mean PSNR-Y %.2f dB, worst %.2f dB (%d frames)\n", d,
                    count ? sum / count : 0, worst, count);
    }
    FILE *ft = std::fopen((dir + "/frames.tsv").c_str(), "r");
    FILE *fo = std::fopen((dir + "/mi.yuv").c_str(), "wb");
    if (!ft || !fo) return 1;
    char line[512];
    int written = 0;
    std::fgets(line, sizeof line, ft); // header
    while (std::fgets(line, sizeof line, ft)) {
        const int idx = std::atoi(line);
        if (idx >= int(all.size())) {
            std::fprintf(stderr, "pick: frame %d missing (output has %zu frames)\n", idx, all.size());
            return 1;
        }
        std::fwrite(all[size_t(idx)].data(), 1, g.frame_size(), fo);
        written++;
    }
    std::fclose(ft);
    std::fclose(fo);
    std::printf("pick: %d frames of %zu written\n", written, all.size());
    return 0;
}

// Renders every pair of `frames` at t = 0.25, 0.5, 0.75 into one buffer, seeding on.
std::vector<uint8_t> run_sequence(const Format &f, const Geometry &g, std::vector<std::vector<uint8_t>> &frames) {
    std::vector<uint8_t> all;
    ci_interpolator *ci = ci_create(g.w, g.h, f.fmt, CI_PRESET_FAST, nullptr, 0);
    ci_set_option(ci, CI_OPT_SEED_FLOW, 1);
    std::vector<uint8_t> out(g.frame_size());
    for (size_t k = 0; k + 1 < frames.size(); k++) {
        const ci_planes pa = planes_of(g, frames[k].data()), pb = planes_of(g, frames[k + 1].data());
        check(ci_set_pair(ci, &pa, &pb), ci, "ci_set_pair");
        for (double t : {0.25, 0.5, 0.75}) {
            ci_planes po = planes_of(g, out.data());
            check(ci_render(ci, t, &po), ci, "ci_render");
            all.insert(all.end(), out.begin(), out.end());
        }
    }
    ci_destroy(ci);
    return all;
}

int cmd_threads(int argc, char **argv) {
    if (argc < 6) return 2;
    Format f;
    if (!parse_format(argv[2], f)) return 2;
    const Geometry g = geometry(f, std::atoi(argv[3]), std::atoi(argv[4]));
    auto frames = read_frames(argv[5], g.frame_size(), 8);
    auto frames_b = std::vector<std::vector<uint8_t>>(frames.rbegin(), frames.rend()); // other content order
    const auto serial_a = run_sequence(f, g, frames), serial_b = run_sequence(f, g, frames_b);
    std::vector<uint8_t> par_a, par_b;
    std::thread ta([&] { par_a = run_sequence(f, g, frames); });
    std::thread tb([&] { par_b = run_sequence(f, g, frames_b); });
    ta.join();
    tb.join();
    const bool ok = par_a == serial_a && par_b == serial_b;
    std::printf("threads: two interpolators on two threads %s the serial run (%zu frames each)\n",
                ok ? "match" : "DIFFER FROM", serial_a.size() / g.frame_size());
    return ok ? 0 : 1;
}

int failures = 0;
void expect(bool cond, const char *what) {
    std::printf("  %-70s %s\n", what, cond ? "ok" : "FAILED");
    if (!cond) failures++;
}

int cmd_api() {
    char err[256];
    expect(!ci_create(15, 16, CI_YUV420P, CI_PRESET_FAST, err, sizeof err) && std::strlen(err) > 0,
           "15x16 refused with a message");
    expect(!ci_create(64, 64, ci_pixel_format(9), CI_PRESET_FAST, err, sizeof err), "unknown format refused");
    expect(!ci_create(64, 64, CI_YUV420P, ci_preset(7), err, sizeof err), "unknown preset refused");
    expect(ci_pair_is_cut(nullptr) == -1 && ci_render(nullptr, 0.5, nullptr) == CI_ERR_INVALID, "NULL handled");
    const Format fmts[] = {{CI_YUV420P, 1, true, 255},
                           {CI_YUV422P, 1, false, 255},
                           {CI_YUV420P10LE, 2, true, 1023},
                           {CI_YUV422P10LE, 2, false, 1023}};
    const int sizes[][2] = {{16, 16}, {17, 19}, {33, 16}, {63, 47}, {200, 121}};
    for (const Format &f : fmts)
        for (const auto &s : sizes) {
            const Geometry g = geometry(f, s[0], s[1]);
            ci_interpolator *ci = ci_create(g.w, g.h, f.fmt, CI_PRESET_QUALITY, err, sizeof err);
            char label[128];
            std::snprintf(label, sizeof label, "format %d %dx%d: create", int(f.fmt), g.w, g.h);
            expect(ci != nullptr, label);
            if (!ci) std::printf("    (%s)\n", err);
            if (!ci) continue;
            // A smooth pattern moved by one luma pixel, bottom-up line sizes for b.
            std::vector<uint8_t> a(g.frame_size()), b(g.frame_size()), out(g.frame_size());
            for (int p = 0; p < 3; p++) {
                const int pw = p ? g.cw : g.w, ph = p ? g.ch : g.h;
                for (int y = 0; y < ph; y++)
                    for (int x = 0; x < pw; x++) {
                        const double v0 = 0.5 + 0.4 * std::sin(0.3 * x + 0.2 * y + p);
                        const double v1 = 0.5 + 0.4 * std::sin(0.3 * (x - (p ? 0.5 : 1)) + 0.2 * y + p);
                        const size_t i = (p ? g.plane_size(0) + (p - 1) * g.plane_size(1) : 0) / f.bytes + size_t(y) * pw + x; // in samples
                        if (f.bytes == 1) {
                            a[i] = uint8_t(v0 * f.peak);
                            b[i] = uint8_t(v1 * f.peak);
                        } else {
                            const uint16_t s0 = uint16_t(v0 * f.peak), s1 = uint16_t(v1 * f.peak);
                            std::memcpy(&a[2 * i], &s0, 2);
                            std::memcpy(&b[2 * i], &s1, 2);
                        }
                    }
            }
            ci_planes pa = planes_of(g, a.data()), pb = planes_of(g, b.data()), po = planes_of(g, out.data());
            expect(ci_render(ci, 0.5, &po) == CI_ERR_STATE, "  render before set_pair -> CI_ERR_STATE");
            for (int p = 0; p < 3; p++) { // bottom-up view of b
                pb.data[p] += size_t((p ? g.ch : g.h) - 1) * g.linesize(p);
                pb.linesize[p] = -pb.linesize[p];
            }
            // Flip b's buffer so the bottom-up view shows the intended picture.
            std::vector<uint8_t> flipped(b.size());
            for (int p = 0; p < 3; p++) {
                const int ph = p ? g.ch : g.h, ls = g.linesize(p);
                const size_t off = p ? g.plane_size(0) + (p - 1) * g.plane_size(1) : 0;
                for (int y = 0; y < ph; y++) std::memcpy(&flipped[off + size_t(y) * ls], &b[off + size_t(ph - 1 - y) * ls], ls);
            }
            const ptrdiff_t shift = flipped.data() - b.data();
            for (int p = 0; p < 3; p++) pb.data[p] += shift;
            { const int rc = ci_set_pair(ci, &pa, &pb); expect(rc == CI_OK, "  set_pair (b bottom-up)"); if (rc) std::printf("    (%s)\n", ci_last_error(ci)); }
            expect(ci_render(ci, 0.0, &po) == CI_ERR_INVALID && ci_render(ci, 1.0, &po) == CI_ERR_INVALID,
                   "  t = 0 and t = 1 refused");
            expect(ci_render(ci, 0.5, &po) == CI_OK, "  render t = 0.5");
            ci_planes bad = po;
            bad.linesize[1] = 1;
            expect(ci_render(ci, 0.5, &bad) == CI_ERR_INVALID && std::strlen(ci_last_error(ci)) > 0,
                   "  short linesize refused with a message");
            ci_destroy(ci);
        }
    std::printf("api: %d failure(s)\n", failures);
    return failures ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
    const std::string cmd = argc > 1 ? argv[1] : "";
    int rc = 2;
    if (cmd == "rebuild") rc = cmd_rebuild(argc, argv);
    else if (cmd == "pick") rc = cmd_pick(argc, argv);
    else if (cmd == "threads") rc = cmd_threads(argc, argv);
    else if (cmd == "api") rc = cmd_api();
    if (rc == 2)
        std::fprintf(stderr, "usage: harness rebuild FMT W H N IN.yuv OUTDIR [options] | pick FMT W H N ALL.yuv OUTDIR | threads FMT W H IN.yuv | api\n");
    return rc;
}
