import Synchronization
import SlomoMedia

/// What the player's decoders met damaged, said once per file and stream for the whole
/// session (feeds are made anew at every seek and rate change, and would meet it again):
/// the feeds report from their threads, the session takes the lines and sends them as
/// notices.
final class DamageNotices: Sendable {
    private struct State {
        var said: Set<String> = []
        var pending: [String] = []
    }

    private let state = Mutex(State())

    /// Takes note of `damage` in `source`, unless that stream of that file was said already.
    func report(_ damage: Damage, in source: String) {
        state.withLock { state in
            guard state.said.insert("\(damage.stream) \(source)").inserted else { return }
            state.pending.append("\(source): \(damage.message)")
        }
    }

    /// The lines not yet said, oldest first.
    func take() -> [String] {
        state.withLock { state in
            defer { state.pending.removeAll() }
            return state.pending
        }
    }
}
