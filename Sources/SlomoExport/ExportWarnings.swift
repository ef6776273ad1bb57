import Synchronization

/// Messages about fallbacks an export took without failing (e.g. blending where optical-flow
/// interpolation cannot take the pictures), collected from its threads for `ExportResult`.
/// Each distinct message is kept once, in the order first reported.
final class ExportWarnings: Sendable {
    private let messages = Mutex<[String]>([])

    func add(_ message: String) {
        messages.withLock { if !$0.contains(message) { $0.append(message) } }
    }

    var all: [String] { messages.withLock { $0 } }
}
