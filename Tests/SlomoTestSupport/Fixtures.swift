import Foundation
import Synchronization

/// Media files made by the `ffmpeg` command (an independent producer) from FFmpeg's lavfi
/// sources, generated on first use and cached in the temporary folder under a name derived
/// from the exact command, so later runs and parallel test processes reuse them.
public enum Fixture: String, CaseIterable, Sendable {
    /// 10 s, 1280x720, 240 fps H.264 with B-frames, AAC stereo 48 kHz.
    case hfr240
    /// 2 s, 320x240, 30000/1001 fps H.264, AAC.
    case ntsc
    /// 2 s variable frame rate: 1 s at 30 fps, then 1 s at 60 fps (video only).
    case vfr
    /// 1 s, 320x180, 10-bit HEVC, BT.2020 primaries, HLG transfer, tagged hvc1.
    case hlg
    /// The `videoOnly` clip copied into .mov with FFmpeg 5.1's `rotate=90` tag, which becomes a
    /// display matrix that ffprobe reports as rotation 90.
    case rotated
    /// 2 s of 440 Hz stereo AAC in .m4a, no video.
    case audioOnly
    /// 2 s, 320x240, 60 fps H.264 in .mp4, no audio.
    case videoOnly
    /// 10 s, 160x120, 240 fps H.264 with B-frames, black with one white frame at every
    /// t = k + 0.5 s; AAC audio silent (−100 dBFS noise) but for a 10 ms 1 kHz beep starting
    /// at the same instants.
    case flashAndBeep
    /// The `flashAndBeep` clip with flashes 1/30 s long: 8 white source frames from every
    /// t = k + 0.5 s, for constant-frame-rate sync tests.
    case longFlashAndBeep
    /// The `flashAndBeep` clip with flashes 1/15 s long (16 white source frames from every
    /// t = k + 0.5 s): at 2x a flash still spans two 60 Hz refreshes, so playback always shows it.
    case wideFlashAndBeep
    /// 2 s, 160x120, 30 fps FFV1 (lossless) in .mov (exact 1/30 timestamps): an 8 px white bar on black moving 4 px a frame.
    case movingBar
    /// 10 s, 160x120, 60 fps H.264 of black with a white flash on frames 30–31 of every
    /// second (at 0.5 s + k) and a 10 ms 1 kHz beep at the same times: sync through
    /// interpolated sections.
    case flashAndBeep60
    /// 0.5 s, 1280x720, 30 fps H.264 of flat mid grey, for scaling tests (bars are black).
    case gray720
    /// 10 s, 1920x1080, 60 fps H.264 test pattern with a 440 Hz tone: playback at 2x.
    case full1080p60
    /// 60 s, 160x120, 30 fps H.264 of black with one white frame at every t = k + 0.5 s and a
    /// 10 ms 1 kHz beep at the same instants: sync over a minute of playback.
    case minuteFlashAndBeep
    /// 1 s, 320x180, 10-bit HEVC PQ (HDR10) whose mastering display (1000 nits) and content
    /// light (MaxCLL 1000, MaxFALL 400) metadata are only in the stream's SEI messages.
    case pq

    /// File name extension of the fixture.
    var fileExtension: String {
        switch self {
        case .hfr240, .rotated, .hlg, .flashAndBeep, .longFlashAndBeep, .wideFlashAndBeep, .flashAndBeep60, .minuteFlashAndBeep, .full1080p60, .gray720, .pq: "mov"
        case .movingBar: "mov"
        case .audioOnly: "m4a"
        case .ntsc, .vfr, .videoOnly: "mp4"
        }
    }

    /// The ffmpeg arguments that make the fixture (the output path is appended).
    var ffmpegArguments: [String] {
        get throws {
        let quiet = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"]
        let x264 = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]
        let aac = ["-c:a", "aac", "-b:a", "128k"]
        switch self {
        case .hfr240:
            return quiet + ["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=240:duration=10",
                            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=10",
                            "-ac", "2"] + x264 + ["-bf", "3", "-g", "240"] + aac + ["-shortest"]
        case .ntsc:
            return quiet + ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30000/1001:duration=2",
                            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2"]
                + x264 + aac + ["-shortest"]
        case .vfr:
            return quiet + ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=60:duration=2",
                            "-vf", "select='lt(n,60)*not(mod(n,2))+gte(n,60)',setpts='if(lt(N,30),N/30,1+(N-30)/60)/TB'",
                            "-fps_mode", "vfr", "-video_track_timescale", "600"] + x264
        case .hlg:
            return quiet + ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=1",
                            "-c:v", "libx265", "-preset", "ultrafast", "-pix_fmt", "yuv420p10le",
                            "-x265-params", "log-level=error:colorprim=bt2020:transfer=arib-std-b67:colormatrix=bt2020nc",
                            "-color_primaries", "bt2020", "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc",
                            "-tag:v", "hvc1"]
        case .pq:
            return quiet + ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=1",
                            "-c:v", "libx265", "-preset", "ultrafast", "-pix_fmt", "yuv420p10le",
                            "-x265-params", "log-level=error:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:hdr10=1"
                                + ":master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,1):max-cll=1000,400",
                            "-color_primaries", "bt2020", "-color_trc", "smpte2084", "-colorspace", "bt2020nc",
                            "-tag:v", "hvc1"]
        case .rotated:
            // FFmpeg 5.1 turns the tag into a display matrix only when copying a stream.
            return quiet + ["-i", try Fixture.videoOnly.path, "-c", "copy", "-metadata:s:v:0", "rotate=90"]
        case .audioOnly:
            return quiet + ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2", "-ac", "2"] + aac
        case .videoOnly:
            return quiet + ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=60:duration=2"] + x264
        case .flashAndBeep:
            return quiet + Self.flashAndBeep(rate: 240, flashWhen: "eq(mod(n,240),120)") + x264
                + ["-bf", "3", "-g", "240", "-c:a", "aac", "-b:a", "192k"]
        case .longFlashAndBeep:
            return quiet + Self.flashAndBeep(rate: 240, flashWhen: "between(mod(n,240),120,127)") + x264
                + ["-bf", "3", "-g", "240", "-c:a", "aac", "-b:a", "192k"]
        case .wideFlashAndBeep:
            return quiet + Self.flashAndBeep(rate: 240, flashWhen: "between(mod(n,240),120,135)") + x264
                + ["-bf", "3", "-g", "240", "-c:a", "aac", "-b:a", "192k"]
        case .flashAndBeep60:
            return quiet + Self.flashAndBeep(rate: 60, flashWhen: "between(mod(n,60),30,31)") + x264
                + ["-bf", "3", "-g", "60", "-c:a", "aac", "-b:a", "192k"]
        case .full1080p60:
            return quiet + ["-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=60:duration=10",
                            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=10",
                            "-ac", "2"] + x264 + ["-g", "60"] + aac + ["-shortest"]
        case .minuteFlashAndBeep:
            return quiet + Self.flashAndBeep(rate: 30, flashWhen: "eq(mod(n,30),15)", duration: 60) + x264
                + ["-g", "30", "-c:a", "aac", "-b:a", "128k"]
        case .movingBar:
            let bar = "color=c=black:size=160x120:rate=30:duration=2[bg];color=c=white:size=8x120:rate=30:duration=2[bar];"
                + "[bg][bar]overlay=x='mod(n*4,152)':y=0:shortest=1,format=yuv420p"
            return quiet + ["-f", "lavfi", "-i", bar, "-c:v", "ffv1"]
        case .gray720:
            return quiet + ["-f", "lavfi", "-i", "color=c=0x808080:size=1280x720:rate=30:duration=0.5"] + x264
        }
        }
    }

    /// The fixture's path, generating it first if no earlier run has.
    public var path: String {
        get throws { try FixtureCache.shared.path(for: rawValue, extension: fileExtension, arguments: try ffmpegArguments) }
    }
}

/// Generates files with ffmpeg once per distinct command, safely across threads and processes.
public final class FixtureCache: Sendable {
    public static let shared = FixtureCache()

    /// Where cached fixtures live (`$TMPDIR/slomo-fixtures`).
    public let directory: URL
    private let lock = Mutex<Void>(())

    init() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("slomo-fixtures", isDirectory: true)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// The path of a file made by `ffmpeg arguments… PATH`, made now if it does not exist.
    public func path(for name: String, extension fileExtension: String, arguments: [String]) throws -> String {
        let target = directory.appendingPathComponent("\(name)-\(Self.digest(arguments)).\(fileExtension)").path
        try lock.withLock { _ in
            guard !FileManager.default.fileExists(atPath: target) else { return }
            let partial = target + ".partial-\(ProcessInfo.processInfo.processIdentifier).\(fileExtension)"
            try runChecked("ffmpeg", arguments + [partial])
            guard rename(partial, target) == 0 else {
                throw CommandFailure(description: "cannot move \(partial) to \(target)")
            }
        }
        return target
    }

    /// A fresh, empty folder for one test's outputs.
    public func scratchFolder(_ label: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("slomo-test-\(label)-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// FNV-1a over the arguments: stable across runs and processes (unlike `Hasher`).
    static func digest(_ arguments: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in arguments.joined(separator: "\u{1}").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}

extension Fixture {
    /// Inputs of the flash-and-beep clips: `duration` s of black 160x120 at `rate` fps, white
    /// where `flashWhen` (an expression of the frame number n) holds, and a 10 ms 1 kHz beep at
    /// k + 0.5 s over a −100 dBFS floor, stereo.
    static func flashAndBeep(rate: Int, flashWhen: String, duration: Int = 10) -> [String] {
        let flash = "color=c=black:size=160x120:rate=\(rate):duration=\(duration),"
            + "drawbox=x=0:y=0:w=iw:h=ih:color=white:t=fill:enable='\(flashWhen)'"
        let beep = "aevalsrc='if(between(mod(t,1),0.5,0.51),0.5*sin(2*PI*1000*(t-0.5)),0)"
            + "+0.00001*(2*random(0)-1)':sample_rate=48000:duration=\(duration)"
        return ["-f", "lavfi", "-i", flash, "-f", "lavfi", "-i", beep, "-ac", "2"]
    }
}
