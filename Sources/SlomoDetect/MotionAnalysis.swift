import SlomoCore
import SlomoMedia

/// Every frame of a file's video, decoded and reduced to its `FrameMotion`: what moved, once
/// the camera's movement is taken out. The pictures are scaled down to a few hundred pixels of
/// brightness as they come from the decoder; none is kept beyond the next.
enum MotionAnalysis {
    /// The motion of each frame of `file`'s video, in presentation order (the first frame's is
    /// zero). Throws when the video cannot be decoded; a file without video gives none.
    static func frames(of file: MediaFile, interrupt: () throws -> Void = {}) throws -> [FrameMotion] {
        guard let video = file.videoStream, let info = video.video else { return [] }
        let reader = try FrameReader(path: file.path, stream: video.index)
        reader.decoder.skipsLoopFilter = true
        let size = GrayPicture.size(sourceWidth: info.width, sourceHeight: info.height)
        let scale = Double(info.width) / Double(size.width)
        let origin = video.startTime ?? .zero
        var scaler: Scaler?
        var previous: GrayPicture?
        var motion: [FrameMotion] = []
        while let frame = try reader.next() {
            try interrupt()
            guard let time = frame.presentationTime else { continue }
            if scaler == nil || frame.width != info.width || frame.height != info.height {
                scaler = try Scaler(width: frame.width, height: frame.height, format: frame.pixelFormat,
                                    toWidth: size.width, height: size.height, format: .gray, filter: .fastBilinear)
            }
            let picture = GrayPicture(try scaler!.scale(frame))
            if let previous {
                motion.append(FrameMotion(time: time - origin, previous: previous, current: picture, scale: scale))
            } else {
                motion.append(FrameMotion(time: time - origin, activity: 0, spread: 0, panX: 0, panY: 0))
            }
            previous = picture
        }
        return motion.sorted { $0.time < $1.time }
    }
}
