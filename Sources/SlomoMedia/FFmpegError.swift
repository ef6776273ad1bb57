import CFFmpeg

/// An error returned by an FFmpeg call: its code, FFmpeg's own message, the operation that
/// failed and the file it concerned. Modelled on swift-system's `Errno`: compare with the
/// named constants (`catch FFmpegError.endOfFile`, `error.is(.endOfFile)`, or
/// `error.code == FFmpegError.endOfFile.code`).
public struct FFmpegError: Error, Hashable, Sendable, CustomStringConvertible {
    /// FFmpeg's negative error code (an `AVERROR(errno)` or an `FFERRTAG` value).
    public let code: Int32
    /// What slomo was doing, e.g. "open input", "decode", "write trailer".
    public var operation: String
    /// The file the operation concerned, when there is one.
    public var path: String?

    public init(code: Int32, operation: String = "", path: String? = nil) {
        self.code = code
        self.operation = operation
        self.path = path
    }

    /// FFmpeg's own text for the code (`av_strerror`).
    public var message: String {
        var buffer = [CChar](repeating: 0, count: Int(slomo_error_buffer_size()))
        av_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path: operation: message`, the parts that are known.
    public var description: String {
        let parts = [path, operation.isEmpty ? nil : operation, message].compactMap { $0 }
        return parts.joined(separator: ": ")
    }

    /// True when the codes are the same, whatever the operation and path.
    public func `is`(_ other: FFmpegError) -> Bool { code == other.code }

    /// Lets `catch FFmpegError.noSpace { … }` match any error with that code, whatever its
    /// operation and path.
    public static func ~= (pattern: FFmpegError, value: any Error) -> Bool {
        (value as? FFmpegError)?.code == pattern.code
    }

    public static func == (lhs: FFmpegError, rhs: FFmpegError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public static let endOfFile = FFmpegError(code: slomo_averror_eof())
    public static let tryAgain = FFmpegError(code: slomo_averror_eagain())
    public static let outOfMemory = FFmpegError(code: slomo_averror_enomem())
    public static let noSpace = FFmpegError(code: slomo_averror_enospc())
    public static let invalidArgument = FFmpegError(code: slomo_averror_einval())
    public static let invalidData = FFmpegError(code: slomo_averror_invaliddata())
    public static let decoderNotFound = FFmpegError(code: slomo_averror_decoder_not_found())
    public static let encoderNotFound = FFmpegError(code: slomo_averror_encoder_not_found())
    public static let streamNotFound = FFmpegError(code: slomo_averror_stream_not_found())
    public static let exit = FFmpegError(code: slomo_averror_exit())
}

/// The one seam that turns FFmpeg return codes into Swift errors: returns a non-negative
/// result unchanged and throws `FFmpegError` for a negative one.
@discardableResult
func check(_ result: Int32, _ operation: @autoclosure () -> String, path: String? = nil) throws(FFmpegError) -> Int32 {
    guard result >= 0 else { throw FFmpegError(code: result, operation: operation(), path: path) }
    return result
}

/// Calls `receive` until it returns nil (FFmpeg wants more input, or has finished) and returns
/// everything it produced: the second half of every send/receive step.
func drain<Output>(_ receive: () throws(FFmpegError) -> Output?) throws(FFmpegError) -> [Output] {
    var outputs: [Output] = []
    while let output = try receive() { outputs.append(output) }
    return outputs
}
