import Glibc

/// A C library call that failed: its name, the `errno` value it left and `strerror`'s text for
/// it (like swift-system's `Errno`). slomo's calls into glibc go through `SystemError.check`,
/// the one seam to the system: `errno` is read right after the call and nowhere else, and a
/// call a signal interrupted (`EINTR`) is made again there, once for every caller.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The function that failed, e.g. `open`.
    public let call: String
    /// The `errno` value it left (`ENOENT`, `EACCES`, …).
    public let code: Int32
    /// `strerror`'s text for `code`.
    public let message: String

    public init(call: String, code: Int32) {
        self.call = call
        self.code = code
        message = String(cString: strerror(code))
    }

    /// `call: message`, e.g. `open: No such file or directory`.
    public var description: String { "\(call): \(message)" }

    /// The result of `body`, a call to `call` that returns -1 and sets `errno` when it fails;
    /// made again while a signal interrupts it; throws the failure with its `errno`.
    @discardableResult
    public static func check(_ call: String, _ body: () -> Int32) throws(SystemError) -> Int32 {
        Int32(try check(call) { Int(body()) })
    }

    /// `check` for calls that return a count or -1 (`read`, `write`, `pread`, `pwrite`).
    @discardableResult
    public static func check(_ call: String, _ body: () -> Int) throws(SystemError) -> Int {
        while true {
            let result = body()
            guard result == -1 else { return result }
            let code = errno
            if code != EINTR { throw SystemError(call: call, code: code) }
        }
    }

    /// `check` for calls that return a pointer, or nil when they fail (`fopen`).
    public static func check<Pointer>(_ call: String, _ body: () -> Pointer?) throws(SystemError) -> Pointer {
        while true {
            if let result = body() { return result }
            let code = errno
            if code != EINTR { throw SystemError(call: call, code: code) }
        }
    }
}
