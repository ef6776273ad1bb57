import Foundation
import Synchronization

/// How one thread sleeps until there is something to do, and how others, a real-time one
/// among them, wake it: the audio feed sleeps on it until a control changes (`ring()`) or the
/// sound device has taken enough frames that the ring wants more (`ringIfWaiting()`, which
/// takes no lock and allocates nothing: an atomic exchange and, when the feed sleeps, a
/// semaphore's post).
///
/// A ring is never lost: it is counted, and a ring that comes while the sleeper checks its
/// condition only makes its next sleep end at once (it checks again and sleeps again).
final class Doorbell: Sendable {
    private let bell = DispatchSemaphore(value: 0)
    private let waiting = Atomic<Bool>(false)

    /// Wakes the sleeper, now or at its next `sleep`.
    func ring() { bell.signal() }

    /// Wakes the sleeper if it is asleep or about to sleep; otherwise does nothing (it will
    /// check its condition before it sleeps).
    func ringIfWaiting() {
        if waiting.exchange(false, ordering: .sequentiallyConsistent) { bell.signal() }
    }

    /// Sleeps until rung, unless `isReady` holds: it is checked after the sleeper says it is
    /// waiting, so what happens in between rings.
    func sleep(unless isReady: () -> Bool) {
        waiting.store(true, ordering: .sequentiallyConsistent)
        if isReady() {
            waiting.store(false, ordering: .relaxed)
            return
        }
        bell.wait()
    }
}
