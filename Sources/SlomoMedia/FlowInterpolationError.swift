/// Why optical-flow interpolation could not start or failed on a pair of pictures.
public struct FlowInterpolationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, for code that reacts to it (e.g. falls back to blending).
    public enum Kind: String, Sendable {
        /// The pixel format is not one of `FlowInterpolator.supportedFormats`.
        case unsupportedFormat
        /// The picture is smaller than `FlowInterpolator.minimumSize` on a side.
        case tooSmall
        /// The two pictures of a pair, or the output, differ from the interpolator's size or format.
        case mismatchedPicture
        /// The flow engine (OpenCV) failed; `detail` has its message.
        case engineFailure
        /// OpenCV, opened on first use, cannot be opened on this machine; `detail` says why.
        case libraryUnavailable
    }

    public let kind: Kind
    /// One line saying what is wrong.
    public let detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String { detail }
}
