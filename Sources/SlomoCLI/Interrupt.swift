import Dispatch
import Foundation

/// Turns Ctrl-C (SIGINT) and SIGTERM (or other `signals`) into a call of `handler` instead of
/// the signal's default action, so that a long command can stop cleanly and remove its
/// temporary file.
final class Interrupt {
    private let signals: [Int32]
    private let sources: [any DispatchSourceSignal]

    init(signals: [Int32] = [SIGINT, SIGTERM], _ handler: @escaping @Sendable () -> Void) {
        self.signals = signals
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }

    deinit {
        for source in sources { source.cancel() }
        for number in signals { signal(number, SIG_DFL) }
    }
}
