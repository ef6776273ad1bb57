import CFFmpeg
import CFFmpegOnDemand
import Glibc

/// libavfilter and libavdevice, which slomo opens the first time it needs them instead of linking
/// them, so that commands that use neither start about 60 ms sooner. See `CFFmpegOnDemand`.
enum OnDemandLibraries {
    /// libavfilter's functions; throws when the library cannot be opened.
    static func filters() throws(FFmpegError) -> SlomoFilterFunctions {
        var error: UnsafePointer<CChar>?
        guard let functions = slomo_filter_functions(&error) else { throw loadFailure(error) }
        return functions.pointee
    }

    /// libavdevice's functions, its input formats registered; throws when it cannot be opened.
    static func devices() throws(FFmpegError) -> SlomoDeviceFunctions {
        var error: UnsafePointer<CChar>?
        guard let functions = slomo_device_functions(&error) else { throw loadFailure(error) }
        return functions.pointee
    }

    /// "cannot open libavfilter.so.8 (…): Can not access a needed shared library".
    private static func loadFailure(_ reason: UnsafePointer<CChar>?) -> FFmpegError {
        FFmpegError(code: slomo_averror(ELIBACC), operation: reason.map { String(cString: $0) } ?? "")
    }
}
