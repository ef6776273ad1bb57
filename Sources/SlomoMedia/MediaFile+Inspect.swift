import SlomoCore

extension MediaFile {
    /// Opens the file and reads what opening alone does not tell. With `measureFrames`, every
    /// packet's timestamp, for each video stream's `frameTiming`. Either way every video packet's
    /// structure is checked (`StructureCheck`); with `verify`, every audio and video packet is
    /// also decoded (`DecodeCheck`). What they find is added to `damage`. The video stream's frame times are remembered, so `SourceFrameTimes.of` the
    /// file (a plan, a plot of its frame intervals) does not read the packets again.
    public static func inspect(path: String, measureFrames: Bool, verify: Bool = false) throws -> MediaFile {
        let demuxer = try Demuxer(path: path)
        var file = demuxer.file
        guard measureFrames || verify else { return file }
        let pictures = file.streams.filter { $0.kind == .video && !$0.isAttachedPicture }.map(\.index)
        let measured = Set(measureFrames ? pictures : [])
        let structures = Dictionary(uniqueKeysWithValues: pictures.map { ($0, StructureCheck(demuxer: demuxer, stream: $0)) })
        var checks: [Int: DecodeCheck] = [:]
        if verify {
            for index in pictures + file.audioStreams.map(\.index) {
                checks[index] = try DecodeCheck(demuxer: demuxer, stream: index)
            }
        }
        var timestamps: [Int: [Int64]] = [:]
        while let packet = try demuxer.read() {
            structures[packet.streamIndex]?.check(packet)
            checks[packet.streamIndex]?.check(packet)
            guard measured.contains(packet.streamIndex), let pts = packet.pts ?? packet.dts else { continue }
            timestamps[packet.streamIndex, default: []].append(pts)
        }
        if let video = file.videoStream, measured.contains(video.index) {
            SourceFrameTimes.remember(timestamps[video.index] ?? [], of: demuxer.file)
        }
        for index in measured {
            file.streams[index].frameTiming = FrameTiming(
                presentationTimestamps: timestamps[index] ?? [], timeBase: file.streams[index].timeBase)
        }
        let found = structures.keys.sorted().flatMap { structures[$0]?.finish() ?? [] }
            + checks.keys.sorted().compactMap { checks[$0]?.finish() }
        if !found.isEmpty { file.damage = (file.damage ?? []) + found }
        if verify {
            let decoded = { (indices: [Int]) in indices.reduce(0) { $0 + (checks[$1]?.decoded ?? 0) } }
            file.verification = Verification(pictures: decoded(pictures), audioPackets: file.audioStreams.reduce(0) {
                $0 + (checks[$1.index]?.packets ?? 0)
            }, damage: file.damage ?? [])
        }
        return file
    }
}
