import Synchronization

/// Messages collected from an export's threads for `ExportResult`: fallbacks it took without
/// failing (e.g. blending where optical-flow interpolation cannot take the pictures), or
/// damage its decoders found.
/// Each distinct message is kept once, in the order first reported; one that may happen at
/// many places (`tally`) says how often and where first, on one line.
final class ExportWarnings: Sendable {
    private struct Entry {
        let message: String
        /// For a tallied message: where it happened first, and how often.
        var firstPlace: String?
        var places = 0
    }

    private let entries = Mutex<[Entry]>([])

    func add(_ message: String) {
        entries.withLock { if !$0.contains(where: { $0.message == message }) { $0.append(Entry(message: message)) } }
    }

    /// Counts `message` at `place` (`source 2.5 s`): reported once, as `message at place` or
    /// `message at N places, first at place`.
    func tally(_ message: String, at place: String) {
        entries.withLock { entries in
            if let index = entries.firstIndex(where: { $0.message == message }) {
                entries[index].places += 1
            } else {
                entries.append(Entry(message: message, firstPlace: place, places: 1))
            }
        }
    }

    var all: [String] {
        entries.withLock { entries in
            entries.map { entry in
                guard let first = entry.firstPlace else { return entry.message }
                return entry.places == 1 ? "\(entry.message) at \(first)" : "\(entry.message) at \(entry.places) places, first at \(first)"
            }
        }
    }
}
