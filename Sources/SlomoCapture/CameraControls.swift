import Foundation
import Glibc
import SlomoCore
import SlomoMedia
import Synchronization

/// A camera opened for its controls, as AVCaptureDevice is between `lockForConfiguration()`
/// and `unlockForConfiguration()`: it lists the controls, applies a `CameraSetup`, and holds
/// the device for a recording (`V4L2_PRIORITY_RECORD`: no other program changes a control or
/// the format meanwhile) until `release()`.
///
/// ```swift
/// let camera = try CameraControls(path: "/dev/video0")
/// let setup = try camera.setup([.exposure(Rational(1, 500)), .focus(.locked)], frameRate: Rational(240))
/// try session.add(camera, setup: setup)
/// ```
public final class CameraControls: Sendable {
    /// The device node, or what stands for it (a recorded camera's file).
    public let path: String
    /// The camera's name for messages and metadata (`HD Pro Webcam C920`).
    public let name: String
    private let device: Mutex<any V4L2Device>

    /// Opens a camera's node for its controls.
    public convenience init(path: String) throws(CaptureError) {
        let file = try V4L2FileDevice(path: path)
        let name = (try? V4L2Enumeration.describe(file, path: path).name) ?? path
        self.init(device: file, path: path, name: name)
    }

    /// Controls through any ioctl seam: a real device or a `RecordedV4L2Device`.
    public init(device: sending any V4L2Device, path: String, name: String) {
        self.device = Mutex(device)
        self.path = path
        self.name = name
    }

    /// The camera as messages name it: `/dev/video0 (HD Pro Webcam C920)`.
    public var label: String { name == path ? path : "\(path) (\(name))" }

    /// Every control with its value now.
    public func controls() -> [CameraControl] {
        device.withLock { V4L2Controls.list($0) }
    }

    /// Resolves `requests` against this camera's controls for a recording at `frameRate`.
    public func setup(_ requests: [CameraControlRequest], frameRate: Rational?) throws(CaptureError) -> CameraSetup {
        try CameraSetup(requests, controls: controls(), frameRate: frameRate, camera: label)
    }

    /// Writes the setup's values in order, then reads every control back: the controls in
    /// force. A write the camera refuses is an error naming the control and the reason.
    @discardableResult
    public func apply(_ setup: CameraSetup) throws(CaptureError) -> [CameraControl] {
        let failure: CaptureError? = device.withLock { device in
            for assignment in setup.assignments {
                let status = V4L2Controls.set(assignment.control.id, to: assignment.value, on: device)
                if status != 0 {
                    return CaptureError(.deviceBusy, "\(assignment.reason): \(label) refused \(assignment.control.name)="
                                        + "\(assignment.value) (\(SystemError(call: "VIDIOC_S_CTRL", code: status).message))")
                }
            }
            return nil
        }
        if let failure { throw failure }
        return controls()
    }

    /// Takes the device for a recording (`VIDIOC_S_PRIORITY` RECORD on this handle) or gives it
    /// back. Taken only after the capture has opened and started the stream, since FFmpeg's own
    /// handle sets the format then.
    public func hold(_ holding: Bool) throws(CaptureError) {
        let status = device.withLock { V4L2Controls.holdForRecording(holding, on: $0) }
        guard status == 0 else {
            throw CaptureError(.deviceBusy, "\(label): cannot \(holding ? "hold" : "release") the device "
                               + "(\(SystemError(call: "VIDIOC_S_PRIORITY", code: status).message)); another program holds it")
        }
    }

    /// Runs `body` with the ioctl seam, for requests this type does not offer.
    public func withDevice<Result: Sendable>(_ body: (any V4L2Device) -> Result) -> Result {
        device.withLock { body($0) }
    }

    /// The tags a recording made with these controls carries: the camera, and every readable
    /// control's value in force as `name=value` words (`camera_controls`).
    public static func metadata(camera: String, controls: [CameraControl]) -> [String: String] {
        let values = controls.compactMap { control in control.value.map { "\(control.name)=\($0)" } }
        return ["camera": camera, "camera_controls": values.joined(separator: " ")]
    }

    /// The values of a `camera_controls` tag read back: name → value.
    public static func values(inMetadata text: String) -> [String: Int64] {
        var values: [String: Int64] = [:]
        for word in text.split(separator: " ") {
            let parts = word.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Int64(parts[1]) { values[String(parts[0])] = value }
        }
        return values
    }
}
