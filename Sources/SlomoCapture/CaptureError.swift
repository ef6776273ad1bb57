/// Why a capture could not start or stopped: names the device, file or option concerned, and
/// where it can, the fix.
public struct CaptureError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is, for code that reacts to it.
    public enum Kind: String, Sendable, Codable {
        case invalidInput, invalidLimit, deviceNotFound, deviceBusy, unsupportedFormat
        case unreachable, outputProblem, noDiskSpace, internalError
    }

    public let kind: Kind
    public let description: String

    public init(_ description: String) {
        self.kind = .internalError
        self.description = description
    }

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
