import SlomoCore

/// The decoded frames of one audio stream, in order: FFmpeg's demuxer and decoder
/// (`FrameReader`), or a WAV file's samples read directly (`WAVFrameReader`), which gives the
/// same frames without loading FFmpeg's codec libraries.
public protocol AudioFrameReading: AnyObject {
    /// The next frame, or nil when the stream is exhausted.
    func next() throws -> Frame?
    /// Goes on from the frame that holds `time`, or an earlier one (the next frame's
    /// presentation time says which).
    func seek(to time: MediaTime) throws
    /// What did not decode cleanly so far; nil when everything did.
    var damage: Damage? { get }
}

/// Opens the reader of an audio stream.
public enum AudioFrames {
    /// Stream `index` of `path`: read directly when the file is a WAV that `WAVFile` takes,
    /// else decoded by FFmpeg.
    public static func open(path: String, stream index: Int) throws -> any AudioFrameReading {
        if index == 0, let wav = WAVFile(path: path) { return try WAVFrameReader(wav) }
        return try FrameReader(path: path, stream: index)
    }
}

extension FrameReader: AudioFrameReading {
    public func seek(to time: MediaTime) throws {
        try demuxer.seek(to: time, stream: streamIndex)
    }
}
