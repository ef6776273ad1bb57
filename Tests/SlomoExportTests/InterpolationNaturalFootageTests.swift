import Foundation
import SlomoCore
import SlomoExport
import SlomoTestSupport
import Testing

/// The interpolation harness in small (issue 13's bars on natural footage): a 320x320 crop of
/// Big Buck Bunny where the bunny's arm moves fastest, 33 frames from frame 24 at 25 fps. One
/// frame in N is kept (N = 2 and 4) and a CFR export at 25 fps rebuilds the others at their
/// exact times; ffmpeg's `minterpolate` (mci, obmc, bidir) and `--frames blend` rebuild the
/// same frames. Every rebuilt frame is scored against the real one with ffmpeg's `psnr` and
/// `ssim` filters (per-frame values averaged, as `scripts/interpolate-harness` does).
@Suite struct InterpolationNaturalFootageTests {
    static let frames = 33

    /// Mean PSNR (all planes) and SSIM (All) per frame of `path` against `truth`, over the
    /// frames `rebuilt` (0-based).
    static func scores(_ path: String, against truth: String, rebuilt: [Int]) throws -> (psnr: Double, ssim: Double) {
        let folder = try FixtureCache.shared.scratchFolder("natural-score")
        defer { try? FileManager.default.removeItem(at: folder) }
        let psnrFile = folder.appendingPathComponent("psnr.txt").path, ssimFile = folder.appendingPathComponent("ssim.txt").path
        let graph = "[0]format=yuv420p,split[a1][a2];[1]format=yuv420p,split[b1][b2];"
            + "[a1][b1]psnr=stats_file=\(psnrFile);[a2][b2]ssim=stats_file=\(ssimFile)"
        try runChecked("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-i", truth, "-lavfi", graph, "-f", "null", "-"])
        // Lines start "n:1 …" (1-based); values are "key:value" fields.
        func mean(_ file: String, key: String) throws -> Double {
            var values: [Int: Double] = [:]
            for line in try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n") {
                var fields: [Substring: Substring] = [:]
                for field in line.split(separator: " ") {
                    if let colon = field.firstIndex(of: ":") { fields[field[..<colon]] = field[field.index(after: colon)...] }
                }
                guard let n = fields["n"].flatMap({ Int($0) }), let value = fields[Substring(key)] else { continue }
                values[n - 1] = value == "inf" ? 100 : Double(value)
            }
            let picked = rebuilt.compactMap { values[$0] }
            #expect(picked.count == rebuilt.count, "\(file): \(picked.count) of \(rebuilt.count) frames scored")
            return picked.reduce(0, +) / Double(max(1, picked.count))
        }
        return (try mean(psnrFile, key: "psnr_avg"), try mean(ssimFile, key: "All"))
    }

    @Test(arguments: [2, 4]) func opticalFlowBeatsMinterpolateOnNaturalFootage(keepOneIn n: Int) throws {
        let quiet = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"]
        let truth = try FixtureCache.shared.path(for: "bbb-arm", extension: "mov", arguments: quiet + [
            "-i", try NaturalFootage.bigBuckBunny,
            "-vf", "trim=start_frame=24:end_frame=\(24 + Self.frames),setpts=N/25/TB,crop=320:320:420:180,format=yuv420p",
            "-c:v", "ffv1"])
        let kept = try FixtureCache.shared.path(for: "bbb-arm-kept\(n)", extension: "mov", arguments: quiet + [
            "-i", truth, "-vf", "select='not(mod(n\\,\(n)))',setpts=N*\(n)/25/TB", "-fps_mode", "passthrough", "-c:v", "ffv1"])
        // minterpolate stops at its last input frame's time: one cloned frame lets it fill the last interval.
        let minterpolated = try FixtureCache.shared.path(for: "bbb-arm-minterpolate\(n)", extension: "mov", arguments: quiet + [
            "-i", kept, "-vf", "tpad=stop=1:stop_mode=clone,minterpolate=fps=25:mi_mode=mci:mc_mode=obmc:me_mode=bidir",
            "-c:v", "ffv1"])
        let lastKept = (Self.frames - 1) / n * n
        let rebuilt = (1..<lastKept).filter { $0 % n != 0 }

        var ours: [FrameChoice: (psnr: Double, ssim: Double)] = [:]
        for choice in [FrameChoice.interpolate, .blend] {
            let (output, _, result) = try CFR.export(kept, sections: [], fps: Rational(25),
                                                     video: VideoExportSettings(codec: .ffv1, frames: choice), fileExtension: "mkv")
            #expect(result.warnings.isEmpty, "\(result.warnings)")
            ours[choice] = try Self.scores(output, against: truth, rebuilt: rebuilt)
        }
        let flow = try #require(ours[.interpolate]), blend = try #require(ours[.blend])
        let peer = try Self.scores(minterpolated, against: truth, rebuilt: rebuilt)
        let f = { (x: Double) in String(format: "%.2f", x) }, g = { (x: Double) in String(format: "%.4f", x) }
        print("Big Buck Bunny arm crop, 1 of \(n) kept, \(rebuilt.count) frames rebuilt: optical flow \(f(flow.psnr)) dB SSIM \(g(flow.ssim)), "
              + "minterpolate \(f(peer.psnr)) dB SSIM \(g(peer.ssim)), blend \(f(blend.psnr)) dB SSIM \(g(blend.ssim))")
        // The bars: at least 0.5 dB above minterpolate at N = 4, not below it at N = 2, SSIM not below it.
        #expect(flow.psnr >= peer.psnr + (n == 4 ? 0.5 : 0), "optical flow \(flow.psnr) dB, minterpolate \(peer.psnr) dB")
        #expect(flow.ssim >= peer.ssim, "optical flow SSIM \(flow.ssim), minterpolate \(peer.ssim)")
        #expect(flow.psnr > blend.psnr, "optical flow \(flow.psnr) dB, blend \(blend.psnr) dB")
    }
}
