import Foundation

extension CaptureSession {
    /// Waits until the session has stopped and its files are finished; false on timeout.
    @discardableResult
    public func waitUntilFinished(timeout: Double? = nil) -> Bool {
        let finished: @Sendable (Shared) -> Bool = { $0.state == .finished }
        guard let timeout else { return shared.wait(until: finished) { _ in true } }
        return shared.wait(until: finished, deadline: Date(timeIntervalSinceNow: timeout))
    }

    /// Starts the session (when not running yet), waits until `output` has finished its
    /// recording (a limit, `stopRunning()`, a lost source), and returns its result. The caller's
    /// task is resumed by the session finishing: no thread waits meanwhile.
    public func record(until output: MovieFileOutput) async throws(CaptureError) -> RecordingResult {
        if currentState == .configuring {
            if !shared.read({ $0.configuration.movieOutputs.contains { $0 === output } }) { try add(output) }
            try startRunning()
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished: Bool = shared.withLock { shared in
                guard shared.state != .finished else { return true }
                shared.finishWaiters.append(continuation)
                return false
            }
            if finished { continuation.resume() }
        }
        guard let result = output.result else { throw CaptureError(.internalError, "the recording did not finish") }
        return result
    }
}
