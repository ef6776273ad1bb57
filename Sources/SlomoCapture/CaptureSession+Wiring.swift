import SlomoCore

extension CaptureSession {
    /// What a running session connects: its opened inputs, its outputs, its clock and limits.
    /// Made once when the session starts and then only read, by every reader thread.
    struct Wiring: Sendable {
        let sources: [CaptureSource]
        let movieOutputs: [MovieFileOutput]
        let frameOutputs: [FrameOutput]
        let meters: [AudioLevelMeter]
        let clock: SessionClock
        let openTimeout: Double
        let stallTimeout: Double

        init(configuration: Configuration, sources: [CaptureSource], clock: SessionClock) {
            self.sources = sources
            movieOutputs = configuration.movieOutputs
            frameOutputs = configuration.frameOutputs
            meters = configuration.meters
            self.clock = clock
            openTimeout = configuration.openTimeout
            stallTimeout = configuration.stallTimeout
        }
    }
}
