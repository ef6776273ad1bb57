import CFFTW
import Foundation

/// FFTW's measured plans ("wisdom") kept between runs in the user's cache folder
/// (`$XDG_CACHE_HOME/slomo/fftw-wisdom`, else `~/.cache/slomo/fftw-wisdom`): measuring the best
/// 4096-point plans takes about 0.4 s, more than all the transforms of a short job. A missing,
/// unreadable or incompatible file only means measuring again; a new one is written whole
/// (temporary file, then rename) so that concurrent runs never read half a file.
///
/// The value is the state of FFTW's planner, which is not thread-safe: `RealFFT` keeps it in
/// the one lock its plans are made under.
struct FFTWisdom {
    private var loaded = false

    private static var path: String {
        let env = ProcessInfo.processInfo.environment
        let cache = env["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        return cache.appendingPathComponent("slomo/fftw-wisdom").path
    }

    /// Reads the stored wisdom, once per process.
    mutating func loadOnce() {
        guard !loaded else { return }
        loaded = true
        _ = fftwf_import_wisdom_from_filename(Self.path)
    }

    /// Stores what the planner knows now (after it had to measure something new).
    static func save() {
        let target = path
        let folder = (target as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let partial = target + ".partial-\(getpid())"
        if fftwf_export_wisdom_to_filename(partial) == 0 || rename(partial, target) != 0 { unlink(partial) }
    }
}
