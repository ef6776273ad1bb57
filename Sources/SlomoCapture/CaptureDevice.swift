import Foundation
import SlomoMedia

/// A device slomo can capture from: a V4L2 camera with its formats, or an audio source.
public struct CaptureDevice: Hashable, Sendable, Codable {
    /// Whether the device gives pictures or sound.
    public enum Kind: String, Hashable, Sendable, Codable { case camera, audio }

    /// What to pass to `--input` after the kind: `/dev/video0`, a PulseAudio source name.
    public var path: String
    /// The device's own name (the V4L2 card, the audio source description).
    public var name: String
    public var driver: String
    public var busInfo: String
    public var kind: Kind
    /// Every format with its frame-rate ranges (empty for audio sources).
    public var formats: [CaptureFormat]

    public init(path: String, name: String, driver: String = "", busInfo: String = "", kind: Kind,
                formats: [CaptureFormat] = []) {
        self.path = path
        self.name = name
        self.driver = driver
        self.busInfo = busInfo
        self.kind = kind
        self.formats = formats
    }

    /// The `--input` spelling of the device.
    public var inputSpec: String { kind == .camera ? "v4l2:\(path)" : "pulse:\(path)" }

    /// The formats that satisfy `request`.
    public func formats(matching request: CaptureFormat.Request) -> [CaptureFormat] {
        formats.filter { $0.matches(request) }
    }

    /// The V4L2 video capture devices under `folder` (`/dev/video*`), in numeric order.
    /// Nodes that are not capture devices (metadata nodes) and nodes that cannot be opened
    /// are left out; their problems are returned separately.
    public static func cameras(in folder: String = "/dev") -> (devices: [CaptureDevice], problems: [String]) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasPrefix("video") && Int($0.dropFirst(5)) != nil }
            .sorted { Int($0.dropFirst(5))! < Int($1.dropFirst(5))! }
        var devices: [CaptureDevice] = []
        var problems: [String] = []
        for name in names {
            let path = folder + "/" + name
            do {
                let node = try V4L2FileDevice(path: path)
                devices.append(try V4L2Enumeration.describe(node, path: path))
            } catch {
                if !error.description.hasSuffix("not a video capture device") { problems.append(error.description) }
            }
        }
        return (devices, problems)
    }

    /// The PulseAudio sources (monitors of sinks included), when a server is running.
    public static func audioSources() -> [CaptureDevice] {
        InputDevices.sources(format: "pulse").map {
            CaptureDevice(path: $0.name, name: $0.description, driver: "pulse", kind: .audio)
        }
    }

    /// Describes one camera, e.g. to check a requested format before opening it.
    public static func camera(at path: String) throws(CaptureError) -> CaptureDevice {
        let node = try V4L2FileDevice(path: path)
        return try V4L2Enumeration.describe(node, path: path)
    }
}
