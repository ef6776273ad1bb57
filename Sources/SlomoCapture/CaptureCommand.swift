import Foundation

/// A line sent to a running recording through its command FIFO (`CaptureCommandFIFO`):
/// `meta KEY=VALUE`, `still PATH`, `pause`, `resume`.
public enum CaptureCommand: Hashable, Sendable, CustomStringConvertible {
    /// Adds or replaces a tag of the movie (`MovieFileOutput.addMetadata`).
    case meta(key: String, value: String)
    /// Writes the frame being recorded as a picture (`.png`, `.tiff`, `.jpg`).
    case still(path: String)
    case pause
    case resume

    /// Parses one line; a malformed or unknown line is an error that says what the lines are.
    public init(parsing line: String) throws(CaptureError) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let verb = trimmed.prefix { !$0.isWhitespace }
        let rest = trimmed.dropFirst(verb.count).trimmingCharacters(in: .whitespaces)
        switch verb {
        case "meta":
            let parts = rest.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw CaptureError(.invalidInput, "'\(trimmed)': expected meta KEY=VALUE, e.g. meta location=Court 3")
            }
            self = .meta(key: String(parts[0]).trimmingCharacters(in: .whitespaces), value: String(parts[1]))
        case "still":
            guard !rest.isEmpty else { throw CaptureError(.invalidInput, "'\(trimmed)': expected still PATH, e.g. still impact.png") }
            self = .still(path: rest)
        case "pause" where rest.isEmpty: self = .pause
        case "resume" where rest.isEmpty: self = .resume
        default:
            throw CaptureError(.invalidInput, "'\(trimmed)': unknown command; the commands are meta KEY=VALUE, still PATH, pause, resume")
        }
    }

    public var description: String {
        switch self {
        case .meta(let key, let value): "meta \(key)=\(value)"
        case .still(let path): "still \(path)"
        case .pause: "pause"
        case .resume: "resume"
        }
    }
}
