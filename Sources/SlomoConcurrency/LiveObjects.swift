import Synchronization

/// Counts objects that have been allocated and not yet freed, by kind, so that tests can prove
/// every one is freed exactly once (SlomoMedia counts its packets and frames, each kind next to
/// the type it counts: `LiveObjects.Kind.packet`, `.frame`).
///
/// Counts are kept for the whole process and, inside `tracking(_:)`, for the work done in
/// that scope only (so that parallel tests do not see each other's objects). A thread started
/// inside a scope joins it: a `PipelineWorker` takes `currentScope` when it is made and runs
/// its body in `within(_:_:)`, so a pipeline's objects count where its session was started.
public enum LiveObjects {
    /// A kind of object counted: one of `Counters.kinds` slots, named where the objects are
    /// defined (as swift-system's `Errno` constants are named by the code that knows them).
    public struct Kind: Hashable, Sendable {
        let slot: Int

        package init(slot: Int) {
            precondition((0..<Counters.kinds).contains(slot), "LiveObjects has \(Counters.kinds) kinds of object")
            self.slot = slot
        }
    }

    /// Live and allocated counts of every kind.
    public final class Counters: Sendable {
        /// How many kinds of object can be counted.
        public static let kinds = 4
        private let live: InlineArray<4, Atomic<Int>> = InlineArray { _ in Atomic(0) }
        private let total: InlineArray<4, Atomic<Int>> = InlineArray { _ in Atomic(0) }

        fileprivate func change(_ kind: Kind, by delta: Int) {
            live[kind.slot].add(delta, ordering: .relaxed)
            if delta > 0 { total[kind.slot].add(delta, ordering: .relaxed) }
        }

        /// Objects of `kind` allocated and not yet freed.
        public func live(_ kind: Kind) -> Int { live[kind.slot].load(ordering: .relaxed) }
        /// Objects of `kind` allocated in all (freed or not): proof that the work was counted.
        public func allocated(_ kind: Kind) -> Int { total[kind.slot].load(ordering: .relaxed) }
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

    /// The scope the calling code runs in, which a thread it starts joins (`within`).
    public static var currentScope: Counters? { scope }

    /// Runs `body` counting into `counters` (a scope taken with `currentScope` on the thread
    /// that started this one); nil counts in the process only.
    public static func within<T>(_ counters: Counters?, _ body: () throws -> T) rethrows -> T {
        try $scope.withValue(counters) { try body() }
    }

    /// Counts one allocation of `kind`; returns the scope counters to hand back to `freed`.
    package static func allocated(_ kind: Kind) -> Counters? {
        let scoped = scope
        process.change(kind, by: 1)
        scoped?.change(kind, by: 1)
        return scoped
    }

    /// Counts one release of `kind` in the process and in the scope that allocated the object.
    package static func freed(_ kind: Kind, scope scoped: Counters?) {
        process.change(kind, by: -1)
        scoped?.change(kind, by: -1)
    }
}
