import CFFmpeg
import COnDemand

/// The sources an FFmpeg input device (`pulse`, `alsa`, `v4l2`, …) can list, through
/// `avdevice_list_input_sources`. Devices that cannot list, or whose server is not running,
/// list nothing.
public enum InputDevices {
    /// One source: FFmpeg's name for it (what to open) and its human description.
    public struct Source: Hashable, Sendable, Codable {
        public var name: String
        public var description: String
        public var isDefault: Bool
    }

    /// The sources the input format `format` can open; empty when it cannot say.
    public static func sources(format: String) -> [Source] {
        FFmpegLog.install()
        guard let library = try? OnDemandLibraries.devices(),
              let input = av_find_input_format(format) else { return [] }
        var list: UnsafeMutablePointer<AVDeviceInfoList>?
        let status = library.list_input_sources(input, nil, nil, &list)
        defer { library.free_list_devices(&list) }
        guard status >= 0, let list else { return [] }
        var sources: [Source] = []
        for index in 0..<Int(list.pointee.nb_devices) {
            guard let device = list.pointee.devices[index] else { continue }
            sources.append(Source(name: device.pointee.device_name.map { String(cString: $0) } ?? "",
                                  description: device.pointee.device_description.map { String(cString: $0) } ?? "",
                                  isDefault: Int32(index) == list.pointee.default_device))
        }
        return sources
    }
}
