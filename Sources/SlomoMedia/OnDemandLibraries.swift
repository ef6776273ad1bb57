import COnDemand

/// libavfilter and libavdevice, which slomo opens the first time it needs them instead of linking
/// them, so that commands that use neither start about 60 ms sooner. See `COnDemand`.
enum OnDemandLibraries {
    /// libavfilter's functions; throws when the library cannot be opened.
    static func filters() throws(MediaError) -> SlomoFilterFunctions {
        var error: UnsafePointer<CChar>?
        guard let functions = slomo_filter_functions(&error) else { throw loadFailure(error) }
        return functions.pointee
    }

    /// libavdevice's functions, its input formats registered; throws when it cannot be opened.
    static func devices() throws(MediaError) -> SlomoDeviceFunctions {
        var error: UnsafePointer<CChar>?
        guard let functions = slomo_device_functions(&error) else { throw loadFailure(error) }
        return functions.pointee
    }

    /// The loader's reason, such as "cannot open libavfilter.so.10 (libavfilter.so.10: cannot open
    /// shared object file: No such file or directory)" or "libavfilter.so.10 has no function …".
    private static func loadFailure(_ reason: UnsafePointer<CChar>?) -> MediaError {
        MediaError(.libraryUnavailable, detail: reason.map { String(cString: $0) } ?? "cannot load a library")
    }
}
