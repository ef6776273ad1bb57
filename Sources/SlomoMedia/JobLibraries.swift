import COnDemand

/// The shared libraries the media commands call (FFmpeg, FFTW, libsamplerate, Rubber Band), which
/// slomo otherwise opens on first use. A process that forks many jobs opens them once, before
/// forking, so that no job pays for loading them (about 35 ms of CPU time each).
public enum JobLibraries {
    /// Opens them now. One that cannot be opened is left for its first call to report.
    public static func preload() {
        slomo_preload_job_libraries()
    }
}
