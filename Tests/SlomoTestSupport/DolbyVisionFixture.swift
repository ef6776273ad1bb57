import Foundation
import SlomoMedia

/// A Dolby Vision profile 8.4 clip: no tool on this machine writes one, so an HLG HEVC clip
/// made by ffmpeg is remuxed into .mp4 by slomo's Muxer with a configuration record added.
public enum DolbyVisionFixture {
    /// The clip's path, made on first use.
    public static var path: String {
        get throws {
            let base = try FixtureCache.shared.path(for: "hlg-hevc-mp4", extension: "mp4", arguments: [
                "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i",
                "testsrc2=size=160x90:rate=24:duration=0.5", "-c:v", "libx265", "-preset", "ultrafast",
                "-pix_fmt", "yuv420p10le", "-x265-params", "log-level=error", "-color_primaries", "bt2020",
                "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc", "-tag:v", "hvc1"])
            let output = try FixtureCache.shared.scratchFolder("dolby-vision").appendingPathComponent("dv.mp4").path
            let demuxer = try Demuxer(path: base)
            let muxer = try Muxer(path: output)
            let stream = try muxer.addStream(copying: 0, of: demuxer)
            try muxer.setDolbyVisionConfiguration(profile: 8, level: 4, compatibility: 4, stream: stream)
            try muxer.writeHeader(options: ["strict": "unofficial"])
            while let packet = try demuxer.read() { try muxer.write(packet, stream: stream) }
            try muxer.finish()
            return output
        }
    }
}
