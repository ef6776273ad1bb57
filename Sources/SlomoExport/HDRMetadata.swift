import SlomoMedia

/// The mastering display and content light metadata an HDR export carries over.
struct HDRMetadata {
    var masteringDisplay: MasteringDisplay?
    var contentLight: ContentLight?

    /// The stream's metadata, else the first decoded picture's (x265 and others put it in SEI
    /// messages only).
    static func of(_ path: String, stream: StreamInfo) throws -> HDRMetadata {
        var metadata = HDRMetadata(masteringDisplay: stream.video?.hdr?.masteringDisplay,
                                   contentLight: stream.video?.hdr?.contentLight)
        if metadata.masteringDisplay == nil || metadata.contentLight == nil,
           let first = try FrameReader(path: path, stream: stream.index).next() {
            metadata.masteringDisplay = metadata.masteringDisplay ?? first.masteringDisplay
            metadata.contentLight = metadata.contentLight ?? first.contentLight
        }
        return metadata
    }
}
