import CFFmpeg
import Glibc
import Synchronization

/// FFmpeg's log, kept off the terminal: messages at error level and above are remembered so
/// that a failure can say what FFmpeg complained about (e.g. "moov atom not found"), and
/// everything up to `echoLevel` is also written to standard error.
public enum FFmpegLog {
    /// How much of FFmpeg's log to echo to standard error.
    public enum Level: Int32, CaseIterable, Sendable {
        case quiet = -8, error = 16, warning = 24, info = 32, debug = 48

        /// `quiet`, `error`, `warning`, `info` or `debug`.
        public init?(name: String) {
            guard let level = Level.allCases.first(where: { "\($0)" == name }) else { return nil }
            self = level
        }
    }

    /// The environment variable that sets the echo level for a whole process (`slomo`
    /// reads it at start): `SLOMO_FFMPEG_LOG=warning slomo retime …`.
    public static let environmentVariable = "SLOMO_FFMPEG_LOG"

    private struct State {
        var echoLevel: Level = .quiet
        var sequence = 0
        var recent: [(sequence: Int, text: String)] = []
    }

    private static let state = Mutex(State())
    private static let installed: Void = {
        av_log_set_level(Level.debug.rawValue)
        av_log_set_callback { context, level, format, arguments in
            guard let format, let arguments else { return }
            DecoderErrorLog.note(context: context, level: level, format: format)
            let echo = FFmpegLog.state.withLock { $0.echoLevel }
            guard level <= max(Level.error.rawValue, echo.rawValue) else { return }
            var line = [CChar](repeating: 0, count: 1024)
            var printPrefix: Int32 = 0
            slomo_format_log_line(context, level, format, arguments, &line, Int32(line.count), &printPrefix)
            let text = String(decoding: line.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            FFmpegLog.record(text, level: level, echo: echo)
        }
    }()

    /// Installs the log callback; called by every type that talks to FFmpeg.
    static func install() { _ = installed }

    /// Sets how much of FFmpeg's log goes to standard error (default: nothing).
    public static func setEchoLevel(_ level: Level) {
        install()
        state.withLock { $0.echoLevel = level }
    }

    /// Sets the echo level from `SLOMO_FFMPEG_LOG` when it names a level.
    public static func configureFromEnvironment() {
        guard let value = getenv(environmentVariable), let level = Level(name: String(cString: value)) else { return }
        setEchoLevel(level)
    }

    /// A marker to pass to `errors(since:)` later.
    static var mark: Int { install(); return state.withLock { $0.sequence } }

    /// The error messages FFmpeg logged after `mark`, oldest first, without trailing newlines.
    static func errors(since mark: Int) -> [String] {
        state.withLock { state in state.recent.filter { $0.sequence > mark }.map(\.text) }
    }

    private static func record(_ text: String, level: Int32, echo: Level) {
        if level <= echo.rawValue { text.withCString { _ = write(STDERR_FILENO, $0, strlen($0)) } }
        guard level <= Level.error.rawValue else { return }
        var trimmed = Substring(text)
        while trimmed.last?.isNewline == true { trimmed = trimmed.dropLast() }
        state.withLock { state in
            state.sequence += 1
            state.recent.append((state.sequence, String(trimmed)))
            if state.recent.count > 32 { state.recent.removeFirst(state.recent.count - 32) }
        }
    }
}
