#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Which thread may use state that the compiler cannot follow from thread to thread, checked
/// at run time: as swift-nio's `NIOLoopBound` lets a value travel but be used only on its event
/// loop, state guarded by a `ThreadOwnership` may be used only by the thread that owns it now.
///
/// The owner hands it on explicitly: `release()` on the owning thread, then `claim()` on the
/// next one (a worker's first step). `check()` traps on any thread but the owner, and so does
/// `claim()` while another thread owns it. A type that keeps such state is `@unchecked Sendable`
/// and checks on every use of it (docs/architecture.md lists them).
///
/// ```swift
/// let owner = ThreadOwnership()        // owned by the thread that makes it
/// owner.release()                      // … which hands it on
/// worker.start { owner.claim(); … owner.check() … }
/// ```
public final class ThreadOwnership: Sendable {
    /// The owning thread's `pthread_t`, or 0 while none owns it.
    private let owner: Atomic<UInt>

    /// Ownership by the calling thread, or, with `owned: false`, by none until a thread claims it.
    public init(owned: Bool = true) { owner = Atomic(owned ? Self.currentThread : 0) }

    /// Traps unless the calling thread owns the state.
    public func check(_ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        let current = Self.currentThread
        let owning = owner.load(ordering: .acquiring)
        precondition(owning == current, "\(what()) used on a thread that does not own it "
                     + (owning == 0 ? "(none does)" : "(another thread does)"), file: file, line: line)
    }

    /// Gives up the state, so that another thread may claim it; the calling thread must own it.
    public func release(file: StaticString = #fileID, line: UInt = #line) {
        check("state handed on", file: file, line: line)
        owner.store(0, ordering: .releasing)
    }

    /// Makes the calling thread the owner; traps while another thread owns the state.
    public func claim(file: StaticString = #fileID, line: UInt = #line) {
        let current = Self.currentThread
        let (claimed, original) = owner.compareExchange(expected: 0, desired: current, ordering: .acquiringAndReleasing)
        precondition(claimed || original == current, "state claimed while another thread owns it", file: file, line: line)
    }

    private static var currentThread: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }
}
