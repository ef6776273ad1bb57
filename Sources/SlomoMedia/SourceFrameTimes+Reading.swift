import SlomoCore
import Synchronization

extension SourceFrameTimes {
    /// The frame times of the file's video stream, read from its packet headers (no decoding;
    /// about 0.2 s for ten minutes at 240 fps) and remembered for the process; nil without video.
    public static func of(_ file: MediaFile) throws -> SourceFrameTimes? {
        guard let video = file.videoStream else { return nil }
        if let known = remembered.withLock({ $0[file] }) { return known }
        let demuxer = try Demuxer(path: file.path)
        demuxer.select(streams: [video.index])
        var ticks: [Int64] = []
        while let packet = try demuxer.read() {
            guard packet.streamIndex == video.index, let pts = packet.pts ?? packet.dts else { continue }
            ticks.append(pts)
        }
        return remember(ticks, of: file)
    }

    /// Remembers the frame times of `file`'s video stream from its packets' timestamps (in
    /// packet order), read by whoever already went through the packets (`MediaFile.inspect`).
    @discardableResult
    static func remember(_ ticks: [Int64], of file: MediaFile) -> SourceFrameTimes? {
        guard let video = file.videoStream else { return nil }
        let origin = file.clipOrigin
        let times = SourceFrameTimes(
            times: ticks.map { MediaTime(ticks: $0, timeBase: video.timeBase) - origin },
            isVariableFrameRate: FrameTiming(presentationTimestamps: ticks, timeBase: video.timeBase).isVariableFrameRate)
        remembered.withLock { $0[file] = times }
        return times
    }

    private static let remembered = Mutex<[MediaFile: SourceFrameTimes]>([:])
}

extension Composition {
    /// The frame times of each clip's source (by clip index), for plans and frame choices.
    public func frameTimes() throws -> [Int: SourceFrameTimes] {
        var result: [Int: SourceFrameTimes] = [:]
        for (index, clip) in clips.enumerated() {
            result[index] = try SourceFrameTimes.of(MediaFile(path: clip.source))
        }
        return result
    }
}
