import ArgumentParser
import Foundation
import SlomoCapture

/// `slomo devices [--json]`: cameras with their formats and frame-rate ranges, and audio sources.
struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List capture devices: V4L2 cameras with every format, size and frame-rate range, and audio sources.",
        discussion: """
            Frame rates come from the camera driver itself (VIDIOC_ENUM_FRAMEINTERVALS). Use a \
            device with `slomo capture --input v4l2:/dev/videoN --format 1280x720@240`.
            The JSON schema is documented in docs/capture.md.

            Examples:
              slomo devices
              slomo devices --json | jq '.cameras[].path'

            \(ExitStatus.help)
            """)

    @Flag(help: "Print JSON (a stable, documented schema) instead of a table.")
    var json = false

    @Option(help: .hidden)
    var dev: String = "/dev"

    @Option(name: .customLong("recorded"), help: .hidden)
    var recorded: String?

    private struct Listing: Encodable {
        let schemaVersion = 1
        let cameras: [CaptureDevice]
        let audioSources: [CaptureDevice]
        let problems: [String]
    }

    func run() throws {
        var cameras: [CaptureDevice]
        var problems: [String]
        if let recorded {
            // A camera replayed from `v4l2-ctl --list-formats-ext` output (for tests and bug reports).
            let text = try String(contentsOfFile: recorded, encoding: .utf8)
            let device = try RecordedV4L2Device(listFormatsExt: text)
            cameras = [try V4L2Enumeration.describe(device, path: recorded)]
            problems = []
        } else {
            (cameras, problems) = CaptureDevice.cameras(in: dev)
        }
        let audio = recorded == nil ? CaptureDevice.audioSources() : []
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            print(String(decoding: try encoder.encode(Listing(cameras: cameras, audioSources: audio, problems: problems)), as: UTF8.self))
            return
        }
        for problem in problems { FileHandle.standardError.write(Data("slomo: \(problem)\n".utf8)) }
        if cameras.isEmpty && audio.isEmpty {
            print("No capture devices found: no V4L2 camera (\(dev)/video*) and no PulseAudio source.")
            print("Synthetic sources always work: slomo capture --input testsrc:1280x720@240 -o take.mov")
            return
        }
        print(cameras.isEmpty ? "Cameras: none" : "Cameras:")
        for camera in cameras {
            print("  \(camera.inputSpec)  \(camera.name) (\(camera.driver)\(camera.busInfo.isEmpty ? "" : ", \(camera.busInfo)"))")
            for format in camera.formats {
                let kind = format.isCompressed ? "compressed, copied" : "raw, encoded"
                print("    \(format.ffmpegPixelFormat.padding(toLength: 8, withPad: " ", startingAt: 0)) "
                      + "\(format.description)  [\(kind)]")
            }
        }
        print(audio.isEmpty ? "Audio sources: none" : "Audio sources:")
        for source in audio { print("  pulse:\(source.path)  \(source.name)") }
    }
}
