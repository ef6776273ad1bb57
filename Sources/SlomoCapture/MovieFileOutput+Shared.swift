import SlomoConcurrency
extension MovieFileOutput {
    /// What the capture threads, the writer thread and callers share; reachable only inside
    /// `MovieFileOutput.shared`'s lock.
    struct Shared {
        var counters = OutputCounters()
        var audioCounters = OutputCounters()
        var timeline = RecordingTimeline()
        /// True when a video input is recorded (set by `prepare`).
        var hasVideo = false
        /// Inputs whose compressed video is copied: after a pause they resume at a keyframe
        /// (with MJPEG, every frame is one). Set by `prepare`.
        var copiedVideoInputs: Set<Int> = []
        /// Nanoseconds of the recording at which the last video frame written starts and the
        /// last sound written ends.
        var lastVideoEnd: Int64 = 0
        var lastAudioEnd: Int64 = 0
        var bytesOnDisk: Int64 = 0
        var stopReason: CaptureStopReason?
        var finalResult: RecordingResult?
        /// Every container tag, the ones added while recording included.
        var tags: [String: String] = [:]
        /// Bumped by every `addMetadata`; the writer compares it with what is on disk.
        var tagsVersion = 0
        /// Estimated bytes of the tags in the header as written by `prepare`.
        var headerTagBytes = 0
        /// Between the capture threads and the writer: made by `prepare`, once the inputs are
        /// known; pushed to by the capture threads, emptied by the writer.
        var queue: PipelineQueue<CapturedSample>?
        /// Told (once) when a limit or an error ends the recording from the output's side.
        var onStop: (@Sendable (CaptureStopReason) -> Void)?

        var isFinished: Bool { finalResult != nil }

        /// True when a video frame or a sound block is in the file.
        var wroteSomething: Bool { counters.delivered + audioCounters.delivered > 0 }

        /// Changes the counters of the audio (`isAudio`) or the video samples.
        mutating func count(audio isAudio: Bool, _ change: (inout OutputCounters) -> Void) {
            if isAudio { change(&audioCounters) } else { change(&counters) }
        }

        /// The result of the finished recording of `path`: why it stopped, whether the file
        /// plays to its end, what it holds. `problem` is what went wrong while finishing.
        func settledResult(path: String, problem: String?, fileSize: Int64) -> RecordingResult {
            var reason = stopReason ?? .stopped
            if let problem, !reason.isProblem { reason = .failed(problem) }
            let failed = if case .failed = reason { true } else { false }
            let frameDuration: Int64 = counters.delivered > 1 && lastVideoEnd > 0 ? lastVideoEnd / Int64(counters.delivered - 1) : 0
            return RecordingResult(
                path: path, reason: reason, finishedSuccessfully: problem == nil && wroteSomething && !failed,
                duration: Double(max(lastVideoEnd + frameDuration, lastAudioEnd)) / 1e9,
                videoFrames: counters.delivered, counters: counters, fileSize: wroteSomething ? fileSize : 0,
                pausedSeconds: Double(timeline.pausedNanoseconds) / 1e9,
                finishingProblem: problem ?? (wroteSomething ? nil : "nothing was recorded"))
        }
    }
}
