import Synchronization

/// Messages collected from an export's threads for `ExportResult`: fallbacks it took without
/// failing (e.g. blending where optical-flow interpolation cannot take the pictures), or
/// damage its decoders found.
/// Each distinct message is kept once, in the order first reported.
final class ExportWarnings: Sendable {
    private let messages = Mutex<[String]>([])

    func add(_ message: String) {
        messages.withLock { if !$0.contains(message) { $0.append(message) } }
    }

    var all: [String] { messages.withLock { $0 } }
}
