import SlomoCore

extension MediaFile {
    /// The length a retime of this file covers: the video stream's duration (the audio may
    /// run a little longer), else the container's; in a truncated file, up to where the
    /// video (or the first stream) can still be read.
    public var clipDuration: MediaTime? {
        let declared = videoStream?.duration.flatMap { $0 > .zero ? $0 : nil } ?? duration
        let stream = videoStream?.index ?? streams.first?.index
        guard let readable = damage?.first(where: { $0.stream == stream })?.readableUntil, readable > .zero else { return declared }
        return declared.map { MediaTime.min($0, readable) } ?? readable
    }

    /// Where a clip's source time 0 lies in the file: where its video starts (else where the
    /// file starts). Sections, time maps and audio renders all count from here.
    public var clipOrigin: MediaTime { videoStream?.startTime ?? startTime ?? .zero }

    /// The source frame rate section edges snap to: the video's nominal rate.
    public var clipFrameRate: Rational? { videoStream?.video?.nominalFrameRate }

    /// The duration and frame rate that plans and compositions read from a source.
    public func sourceInfo() throws(MediaError) -> EditScript.SourceInfo {
        guard let duration = clipDuration else {
            throw MediaError(.damaged, path: path, detail: "the file does not say how long it is")
        }
        return EditScript.SourceInfo(duration: duration, frameRate: clipFrameRate)
    }
}

extension Composition {
    /// A composition of the whole of `file` retimed by sections in section syntax
    /// (`["2-4x0.25", "8-endx2"]`) and held by freezes in freeze syntax (`["3:2"]`), resolved
    /// against the file's duration and frame rate.
    public init(retiming file: MediaFile, sections: [String], freezes: [String] = []) throws {
        let info = try file.sourceInfo()
        try self.init(source: file.path, duration: info.duration, frameRate: info.frameRate, sections: sections,
                      freezes: freezes)
    }
}

extension Composition {
    /// True when some clip's source file has an audio stream (unreadable files count as none).
    public var hasAudio: Bool {
        clips.contains { clip in (try? MediaFile(path: clip.source)).map { !$0.audioStreams.isEmpty } ?? false }
    }
}
