import ArgumentParser
import Foundation
import SlomoCapture

/// `slomo devices [--json]`: cameras with their formats and frame-rate ranges, and audio sources.
struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List capture devices: V4L2 cameras with every format, size and frame-rate range, and audio sources.",
        discussion: """
            Frame rates come from the camera driver itself (VIDIOC_ENUM_FRAMEINTERVALS). Use a \
            device with `slomo capture --input v4l2:/dev/videoN --format 1280x720@240`.
            The JSON schema is documented in docs/capture.md.

            --controls adds each camera's controls (VIDIOC_QUERYCTRL and VIDIOC_QUERYMENU) as \
            v4l2-ctl lists them: name, id, type, range, step, default, value now, menu entries and \
            flags (inactive: an automatic mode governs it now). Set them with `slomo capture \
            --control NAME=VALUE` or the friendly --exposure, --focus, --white-balance, --flicker, --torch.

            Examples:
              slomo devices
              slomo devices --controls
              slomo devices --json | jq '.cameras[].path'
              slomo devices --controls --json | jq '.cameras[0].controls[].name'

            \(ExitStatus.help)
            """)

    @Flag(help: "Print JSON (a stable, documented schema) instead of a table.")
    var json = false

    @Flag(help: "List each camera's controls too (exposure, focus, white balance, …).")
    var controls = false

    @Option(help: .hidden)
    var dev: String = "/dev"

    /// Controls replayed from `v4l2-ctl --list-ctrls-menus` output, with `--recorded`.
    @Option(name: .customLong("recorded-controls"), help: .hidden)
    var recordedControls: String?

    @Option(name: .customLong("recorded"), help: .hidden)
    var recorded: String?

    private struct Listing: Encodable {
        let schemaVersion = 1
        let cameras: [Camera]
        let audioSources: [CaptureDevice]
        let problems: [String]
    }

    /// A camera in the JSON listing: its description, and its controls with `--controls`.
    private struct Camera: Encodable {
        let device: CaptureDevice
        let controls: [CameraControl]?

        enum Key: String, CodingKey { case controls }

        func encode(to encoder: any Encoder) throws {
            try device.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encodeIfPresent(controls, forKey: .controls)
        }
    }

    func run() throws {
        var devices: [CaptureDevice]
        var problems: [String]
        var cameras: [Camera] = []
        if let recorded {
            // A camera replayed from `v4l2-ctl --list-formats-ext` (and `--list-ctrls-menus`)
            // output, for tests and bug reports.
            let text = try String(contentsOfFile: recorded, encoding: .utf8)
            let device = try RecordedV4L2Device(listFormatsExt: text)
            if let recordedControls { try device.loadControls(listCtrlsMenus: try String(contentsOfFile: recordedControls, encoding: .utf8)) }
            let description = try V4L2Enumeration.describe(device, path: recorded)
            cameras = [Camera(device: description, controls: controls ? V4L2Controls.list(device) : nil)]
            devices = [description]
            problems = []
        } else {
            (devices, problems) = CaptureDevice.cameras(in: dev)
            for device in devices {
                guard controls else { cameras.append(Camera(device: device, controls: nil)); continue }
                do throws(CaptureError) {
                    cameras.append(Camera(device: device, controls: try CameraControls(path: device.path).controls()))
                } catch {
                    problems.append("\(device.path): cannot read its controls (\(error))")
                    cameras.append(Camera(device: device, controls: []))
                }
            }
        }
        let audio = recorded == nil ? CaptureDevice.audioSources() : []
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            print(String(decoding: try encoder.encode(Listing(cameras: cameras, audioSources: audio, problems: problems)), as: UTF8.self))
            return
        }
        for problem in problems { FileHandle.standardError.write(Data("slomo: \(problem)\n".utf8)) }
        if devices.isEmpty && audio.isEmpty {
            print("No capture devices found: no V4L2 camera (\(dev)/video*) and no PulseAudio source.")
            print("Synthetic sources always work: slomo capture --input testsrc:1280x720@240 -o take.mov")
            return
        }
        print(cameras.isEmpty ? "Cameras: none" : "Cameras:")
        for entry in cameras {
            let camera = entry.device
            print("  \(camera.inputSpec)  \(camera.name) (\(camera.driver)\(camera.busInfo.isEmpty ? "" : ", \(camera.busInfo)"))")
            for format in camera.formats {
                let kind = format.isCompressed ? "compressed, copied" : "raw, encoded"
                print("    \(format.ffmpegPixelFormat.padding(toLength: 8, withPad: " ", startingAt: 0)) "
                      + "\(format.description)  [\(kind)]")
            }
            if let controls = entry.controls {
                print(controls.isEmpty ? "    Controls: none" : "    Controls:", terminator: "")
                print(CameraControl.listing(controls).split(separator: "\n", omittingEmptySubsequences: false)
                    .map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n"), terminator: "")
            }
        }
        print(audio.isEmpty ? "Audio sources: none" : "Audio sources:")
        for source in audio { print("  pulse:\(source.path)  \(source.name)") }
    }
}
