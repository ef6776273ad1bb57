import Glibc

/// A C library call that failed: its name, the `errno` value it left and `strerror`'s text
/// for it (like swift-system's `Errno`). Capture's calls into glibc go through
/// `SystemError.check(_:_:)`, so that no caller reads `errno` itself.
struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The function that failed, e.g. `open`.
    let call: String
    /// The `errno` value it left (`ENOENT`, `EINTR`, …).
    let code: Int32
    /// `strerror`'s text for `code`.
    let message: String

    init(call: String, code: Int32) {
        self.call = call
        self.code = code
        message = String(cString: strerror(code))
    }

    /// `call: message`, e.g. `open: No such file or directory`.
    var description: String { "\(call): \(message)" }

    /// The result of `body`, a call to `call` that returns -1 and sets `errno` when it fails;
    /// throws the failure with its `errno`.
    @discardableResult
    static func check(_ call: String, _ body: () -> Int32) throws(SystemError) -> Int32 {
        let result = body()
        guard result == -1 else { return result }
        throw SystemError(call: call, code: errno)
    }
}
