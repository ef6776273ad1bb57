import COnDemand
import SlomoConcurrency

/// The shared libraries the media commands call (FFmpeg, FFTW, libsamplerate, Rubber Band), which
/// slomo otherwise opens on first use. A process that forks many jobs opens them once, before
/// forking, so that no job pays for loading them (about 35 ms of CPU time each); a command that
/// will surely call some opens them in the background while its command line is parsed.
public enum JobLibraries {
    /// A library slomo opens on first use, by its name in COnDemand's libraries.txt.
    public enum Library: String, Sendable, CaseIterable {
        case avformat, avcodec, avutil, swscale, swresample, rubberband, samplerate, fftw
    }

    /// Opens them now. One that cannot be opened is left for its first call to report.
    public static func preload() {
        slomo_preload_job_libraries()
    }

    /// Opens `library` now, as its first call would; false when it cannot be opened (its first
    /// call says why).
    @discardableResult
    public static func open(_ library: Library) -> Bool {
        slomo_open_library(library.rawValue) != 0
    }

    /// Opens `libraries` on a thread of its own, in order, and returns at once: code that calls
    /// one later finds it open, or waits for the rest of its loading instead of doing all of it
    /// (libavutil alone, with the 17 libraries it pulls in, takes about 2 ms). One that cannot
    /// be opened is left for its first call to report.
    public static func openInBackground(_ libraries: [Library]) {
        guard !libraries.isEmpty else { return }
        _ = PipelineWorker("slomo libraries") {
            for library in libraries { open(library) }
        }
    }
}
