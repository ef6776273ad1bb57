import SlomoCore

extension MediaFile {
    /// The length a retime of this file covers: the video stream's duration (the audio may
    /// run a little longer), else the container's.
    public var clipDuration: MediaTime? {
        let video = videoStream
        if let duration = video?.duration, duration > .zero { return duration }
        return duration
    }

    /// The source frame rate section edges snap to: the video's nominal rate.
    public var clipFrameRate: Rational? { videoStream?.video?.nominalFrameRate }
}

extension Composition {
    /// A composition of the whole of `file` retimed by `sections` (section syntax as written,
    /// resolved against the file's duration and frame rate).
    public init(retiming file: MediaFile, sections: [SectionSpec]) throws {
        guard let duration = file.clipDuration else {
            throw MediaError(.damaged, path: file.path, detail: "the file does not say how long it is")
        }
        let range = TimeRange(start: .zero, duration: duration)
        let resolved = try sections.map { try $0.resolved(in: range, frameRate: file.clipFrameRate) }
        self.init([try Clip(source: file.path, range: range, sections: resolved, frameRate: file.clipFrameRate)])
    }
}
