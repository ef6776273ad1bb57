/// Why an export could not start or did not finish. Names the file or option concerned.
public struct ExportError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case noVideo, noAudio, outputIsInput, unsupportedContainer, unsupportedCodec, cancelled, invalidPlan, damagedInput
    }

    public let kind: Kind
    public let description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
