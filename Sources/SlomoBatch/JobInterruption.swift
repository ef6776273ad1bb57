import Glibc
import SlomoConcurrency

/// How a batch's jobs are stopped: once `interrupt(_:)` is called (from a Ctrl-C or SIGTERM
/// handler, or by `scancel` reaching `batch exec`), no new job starts and the signal is passed
/// to every running command, which removes its unfinished output and exits. A job stopped so
/// gets no result, so it is simply pending when the batch is run again.
public final class JobInterruption: Sendable {
    private struct State {
        var signal: Int32?
        var running: [pid_t: any RunningCommand] = [:]
    }

    private let state = Guarded(State())

    public init() {}

    /// The signal that stopped the batch, nil while none came.
    public var signal: Int32? { state.read(\.signal) }

    /// Stops the batch: no new job starts, and running commands get `signal`.
    public func interrupt(_ signal: Int32) {
        let running = state.withLock { state -> [any RunningCommand] in
            if state.signal == nil { state.signal = signal }
            return Array(state.running.values)
        }
        for child in running { child.signal(signal) }
    }

    /// Follows `child` until `forget(_:)`; a child started as the batch was being stopped is
    /// sent the signal at once.
    func follow(_ child: any RunningCommand) {
        let stopped = state.withLock { state -> Int32? in
            state.running[child.pid] = child
            return state.signal
        }
        if let stopped { child.signal(stopped) }
    }

    func forget(_ child: any RunningCommand) {
        state.withLock { _ = $0.running.removeValue(forKey: child.pid) }
    }
}
