import Glibc
import Synchronization

/// Set by the SIGWINCH handler; the next read of a `TerminalWidth` clears it and asks the
/// terminal again.
private let windowResized = Atomic<Bool>(false)

/// The width in columns of the terminal standard error writes to: asked once (ioctl
/// TIOCGWINSZ), and asked again on the first read after the window changed size (SIGWINCH,
/// whose handler only sets a flag). `COLUMNS`, then 80, when standard error is not a terminal.
final class TerminalWidth {
    private var columns: Int?

    /// Installs the SIGWINCH handler, once a process.
    private static let handlerInstalled: Void = {
        windowResized.store(false, ordering: .relaxed)
        signal(SIGWINCH) { _ in windowResized.store(true, ordering: .relaxed) }
    }()

    init() { Self.handlerInstalled }

    /// The width now: the last answer unless the window changed size since.
    var current: Int {
        if windowResized.exchange(false, ordering: .relaxed) || columns == nil { columns = Self.ask() }
        return columns!
    }

    private static func ask() -> Int {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let text = getenv("COLUMNS"), let columns = Int(String(cString: text)), columns > 0 { return columns }
        return 80
    }
}
