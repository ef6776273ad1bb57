import ArgumentParser
import Dispatch
import Foundation
import Synchronization

/// Turns Ctrl-C (SIGINT) and SIGTERM (or other `signals`) into a call of `handler` instead of
/// the signal's default action, so that a long command can stop cleanly and remove its
/// temporary file. `exitCode` is then the status the command ends with (130 for SIGINT, 143
/// for SIGTERM).
final class Interrupt {
    private let signals: [Int32]
    private let sources: [any DispatchSourceSignal]
    private let received = ReceivedSignal()

    init(signals: [Int32] = [SIGINT, SIGTERM], _ handler: @escaping @Sendable () -> Void) {
        self.signals = signals
        var sources: [any DispatchSourceSignal] = []
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            sources.append(source)
        }
        self.sources = sources
        for (number, source) in zip(signals, sources) {
            source.setEventHandler { [received] in
                received.number.store(number, ordering: .relaxed)
                handler()
            }
            source.resume()
        }
    }

    /// The status for a command stopped by the signal received (128 + its number), nil when
    /// none came.
    var exitCode: ExitCode? {
        let number = received.number.load(ordering: .relaxed)
        return number == 0 ? nil : ExitCode(128 + number)
    }

    deinit {
        for source in sources { source.cancel() }
        for number in signals { signal(number, SIG_DFL) }
    }
}

/// The number of the last signal received, shared with the signal handlers.
private final class ReceivedSignal: Sendable {
    let number = Atomic<Int32>(0)
}
