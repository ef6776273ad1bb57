import ArgumentParser
import Foundation
import SlomoCapture

/// `capture`'s camera settings: controls by name and the common ones in plain terms. The
/// library maps them to the camera's controls and checks them (`CameraSetup`).
struct CameraControlOptions: ParsableArguments {
    @Option(name: .customLong("control"),
            help: ArgumentHelp("Set a camera control before recording, NAME=VALUE (repeatable; `slomo devices --controls` lists them).",
                               valueName: "name=value"))
    var controls: [String] = []

    @Option(help: ArgumentHelp("Fixed exposure time, e.g. 1/500, 2ms (automatic exposure off).", valueName: "time"))
    var exposure: String?

    @Option(help: ArgumentHelp("Focus: locked (where it is), auto, or a position in the camera's units.", valueName: "locked|auto|N"))
    var focus: String?

    @Option(name: .customLong("white-balance"),
            help: ArgumentHelp("White balance: locked (where it is), auto, or a temperature such as 5600.", valueName: "locked|auto|K"))
    var whiteBalance: String?

    @Option(help: ArgumentHelp("Anti-flicker for the lights' mains frequency: 50, 60 or off.", valueName: "50|60|off"))
    var flicker: String?

    @Option(help: ArgumentHelp("The camera's torch (LED), where it has one: on or off.", valueName: "on|off"))
    var torch: String?

    /// A camera replayed from `v4l2-ctl --list-ctrls-menus` output (tests and bug reports).
    @Option(name: .customLong("recorded-camera"), help: .hidden)
    var recordedCamera: String?

    /// The settings asked for, in the order of the options.
    func requests() throws -> [CameraControlRequest] {
        var requests = try controls.map(CameraControlRequest.parsingControl)
        if let exposure { requests.append(try .parsingExposure(exposure)) }
        if let focus { requests.append(try .parsingFocus(focus)) }
        if let whiteBalance { requests.append(try .parsingWhiteBalance(whiteBalance)) }
        if let flicker { requests.append(try .parsingFlicker(flicker)) }
        if let torch { requests.append(try .parsingTorch(torch)) }
        return requests
    }

    /// The camera the settings are for: the first `v4l2:` input. Nil when there is none and
    /// nothing was asked, or when a camera that was asked nothing cannot be opened for its
    /// controls (the capture itself reports a missing camera).
    func camera(among inputs: [CaptureInput], asked requests: [CameraControlRequest]) throws -> CameraControls? {
        if let recordedCamera {
            let device = try RecordedV4L2Device(listFormatsExt: "", card: "Recorded Camera")
            try device.loadControls(listCtrlsMenus: try String(contentsOfFile: recordedCamera, encoding: .utf8))
            return CameraControls(device: device, path: recordedCamera, name: "Recorded Camera")
        }
        guard let input = inputs.first(where: { $0.kind == .camera }) else {
            guard requests.isEmpty else {
                throw CommandError("\(requests[0]): camera settings need a camera input, e.g. --input v4l2:/dev/video0")
            }
            return nil
        }
        do throws(CaptureError) {
            return try CameraControls(path: input.mediaInput.url)
        } catch {
            if requests.isEmpty { return nil }
            throw error
        }
    }
}
