import Synchronization

/// Counts the packets and frames that slomo's wrappers have allocated and not yet freed, so
/// that tests can prove every `AVPacket` and `AVFrame` is freed exactly once.
///
/// Counts are kept for the whole process and, inside `tracking(_:)`, for the work done in
/// that scope only (so that parallel tests do not see each other's objects). A thread started
/// inside a scope joins it explicitly: it takes `currentScope` when created and runs its body
/// in `within(_:_:)`, so a pipeline's frames count where its session was started.
public enum LiveObjects {
    /// A pair of live counters.
    public final class Counters: Sendable {
        fileprivate let packetCount = Atomic<Int>(0)
        fileprivate let frameCount = Atomic<Int>(0)
        fileprivate let packetTotal = Atomic<Int>(0)
        fileprivate let frameTotal = Atomic<Int>(0)

        fileprivate func change(packet: Bool, by delta: Int) {
            if packet { packetCount.add(delta, ordering: .relaxed) } else { frameCount.add(delta, ordering: .relaxed) }
            guard delta > 0 else { return }
            if packet { packetTotal.add(delta, ordering: .relaxed) } else { frameTotal.add(delta, ordering: .relaxed) }
        }

        /// Packets allocated and not yet freed.
        public var packets: Int { packetCount.load(ordering: .relaxed) }
        /// Frames allocated and not yet freed.
        public var frames: Int { frameCount.load(ordering: .relaxed) }
        /// Packets and frames allocated in all (freed or not): proof that the work was counted.
        public var allocatedPackets: Int { packetTotal.load(ordering: .relaxed) }
        public var allocatedFrames: Int { frameTotal.load(ordering: .relaxed) }
    }

    /// The counters of the whole process.
    public static let process = Counters()

    @TaskLocal private static var scope: Counters?

    /// Runs `body` and returns the counters of what it allocated: once `body` has returned,
    /// anything still counted there is alive (or leaked).
    public static func tracking(_ body: () throws -> Void) rethrows -> Counters {
        let counters = Counters()
        try $scope.withValue(counters) { try body() }
        return counters
    }

    /// The scope the calling code runs in, for a thread it starts to join (`within`).
    public static var currentScope: Counters? { scope }

    /// Runs `body` counting into `counters` (a scope taken with `currentScope` on the thread
    /// that started this one); nil counts in the process only.
    public static func within<T>(_ counters: Counters?, _ body: () throws -> T) rethrows -> T {
        try $scope.withValue(counters) { try body() }
    }

    /// Counts one allocation; returns the scope counters to hand back to `freed`.
    package static func allocated(packet: Bool) -> Counters? {
        let scoped = scope
        process.change(packet: packet, by: 1)
        scoped?.change(packet: packet, by: 1)
        return scoped
    }

    /// Counts one release in the process and in the scope that allocated the object.
    package static func freed(packet: Bool, scope scoped: Counters?) {
        process.change(packet: packet, by: -1)
        scoped?.change(packet: packet, by: -1)
    }
}
