/// Why a capture could not start or stopped: names the device, file or option concerned.
public struct CaptureError: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
