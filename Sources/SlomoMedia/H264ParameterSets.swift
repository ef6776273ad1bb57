/// The fields of an H.264 sequence parameter set that a slice header's layout and the
/// reference pictures depend on (ITU-T H.264 7.3.2.1.1).
struct H264SequenceParameters {
    var log2MaxFrameNum: Int
    var pictureOrderCountType: Int
    var log2MaxPictureOrderCountLSB = 0
    var deltaPictureOrderAlwaysZero = false
    var maxReferenceFrames: Int
    var framesOnly: Bool
    var separateColourPlanes = false
    /// 0 for monochrome (or separate colour planes): no chroma weights in slice headers.
    var chromaArrayType = 1
    /// True when the VUI's bitstream restriction gives the reorder depth: FFmpeg then does not
    /// guess it from picture order counts, which a skipped reference would disturb.
    var declaresReorderDepth = false
    /// Macroblocks in a frame: slices start below it.
    var frameMacroblocks = 0

    /// Parses an SPS NAL unit (header byte included); returns its id and fields.
    static func parse(_ reader: inout NALBitReader) throws(NALBitReader.Overrun) -> (id: Int, sps: Self) {
        _ = try reader.bits(8)                       // NAL header
        let profile = try reader.bits(8)
        _ = try reader.bits(16)                      // constraint flags, level
        let id = try reader.unsigned()
        var chromaFormat = 1
        var separate = false
        if [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].contains(profile) {
            chromaFormat = try reader.unsigned()
            if chromaFormat == 3 { separate = try reader.flag() }
            _ = try reader.unsigned()                // luma bit depth
            _ = try reader.unsigned()                // chroma bit depth
            _ = try reader.flag()                    // transform bypass
            if try reader.flag() {                   // scaling matrices
                for list in 0..<(chromaFormat == 3 ? 12 : 8) {
                    if try reader.flag() { try skipScalingList(&reader, size: list < 6 ? 16 : 64) }
                }
            }
        }
        let log2MaxFrameNum = try reader.unsigned() + 4
        let orderType = try reader.unsigned()
        var sps = Self(log2MaxFrameNum: log2MaxFrameNum, pictureOrderCountType: orderType, maxReferenceFrames: 0,
                       framesOnly: true, separateColourPlanes: separate, chromaArrayType: separate ? 0 : chromaFormat)
        if orderType == 0 {
            sps.log2MaxPictureOrderCountLSB = try reader.unsigned() + 4
        } else if orderType == 1 {
            sps.deltaPictureOrderAlwaysZero = try reader.flag()
            _ = try reader.signed()                  // offset for non-reference pictures
            _ = try reader.signed()                  // offset top to bottom field
            for _ in 0..<(try reader.unsigned()) { _ = try reader.signed() }
        }
        sps.maxReferenceFrames = try reader.unsigned()
        _ = try reader.flag()                        // gaps in frame_num allowed
        let widthInMacroblocks = try reader.unsigned() + 1
        let heightInMapUnits = try reader.unsigned() + 1
        sps.framesOnly = try reader.flag()
        sps.frameMacroblocks = widthInMacroblocks * heightInMapUnits * (sps.framesOnly ? 1 : 2)
        if !sps.framesOnly { _ = try reader.flag() }  // macroblock-adaptive frame/field
        _ = try reader.flag()                        // direct 8x8 inference
        if try reader.flag() { for _ in 0..<4 { _ = try reader.unsigned() } }   // cropping
        if try reader.flag() { sps.declaresReorderDepth = try readsBitstreamRestriction(&reader) }
        return (id, sps)
    }

    /// Reads the VUI parameters (E.1.1) up to `bitstream_restriction_flag`.
    private static func readsBitstreamRestriction(_ reader: inout NALBitReader) throws(NALBitReader.Overrun) -> Bool {
        if try reader.flag(), try reader.bits(8) == 255 { _ = try reader.bits(32) }   // aspect ratio
        if try reader.flag() { _ = try reader.flag() }                               // overscan
        if try reader.flag() {                                                       // video signal type
            _ = try reader.bits(4)
            if try reader.flag() { _ = try reader.bits(24) }
        }
        if try reader.flag() { _ = try reader.unsigned(); _ = try reader.unsigned() } // chroma location
        if try reader.flag() { _ = try reader.bits(32); _ = try reader.bits(32); _ = try reader.flag() } // timing
        let nalHRD = try reader.flag()
        if nalHRD { try skipHRD(&reader) }
        let vclHRD = try reader.flag()
        if vclHRD { try skipHRD(&reader) }
        if nalHRD || vclHRD { _ = try reader.flag() }                                // low delay
        _ = try reader.flag()                                                        // picture structure
        return try reader.flag()
    }

    private static func skipHRD(_ reader: inout NALBitReader) throws(NALBitReader.Overrun) {
        let count = try reader.unsigned() + 1
        _ = try reader.bits(8)                       // bit rate and CPB size scales
        for _ in 0..<count {
            _ = try reader.unsigned()
            _ = try reader.unsigned()
            _ = try reader.flag()
        }
        _ = try reader.bits(20)                      // delay and time offset lengths
    }

    private static func skipScalingList(_ reader: inout NALBitReader, size: Int) throws(NALBitReader.Overrun) {
        var last = 8, next = 8
        for _ in 0..<size where next != 0 {
            next = (last + (try reader.signed()) + 256) % 256
            if next != 0 { last = next }
        }
    }
}

/// The fields of an H.264 picture parameter set that a slice header's layout depends on
/// (7.3.2.2). `nil` from `parse` for slice groups (FMO), which this reader does not follow.
struct H264PictureParameters {
    var sequenceID: Int
    var bottomFieldOrderPresent: Bool
    var defaultActiveReferences: (l0: Int, l1: Int)
    var weightedPrediction: Bool
    var weightedBipredictionIDC: Int
    var redundantPictureCountPresent: Bool

    static func parse(_ reader: inout NALBitReader) throws(NALBitReader.Overrun) -> (id: Int, pps: Self?) {
        _ = try reader.bits(8)                       // NAL header
        let id = try reader.unsigned()
        let sequenceID = try reader.unsigned()
        _ = try reader.flag()                        // CABAC
        let bottomFieldOrderPresent = try reader.flag()
        guard try reader.unsigned() == 0 else { return (id, nil) }
        let l0 = try reader.unsigned() + 1
        let l1 = try reader.unsigned() + 1
        let weighted = try reader.flag()
        let bipredIDC = try reader.bits(2)
        _ = try reader.signed()                      // initial QP
        _ = try reader.signed()                      // initial QS
        _ = try reader.signed()                      // chroma QP offset
        _ = try reader.flag()                        // deblocking control present
        _ = try reader.flag()                        // constrained intra prediction
        let redundant = try reader.flag()
        return (id, Self(sequenceID: sequenceID, bottomFieldOrderPresent: bottomFieldOrderPresent,
                         defaultActiveReferences: (l0, l1), weightedPrediction: weighted,
                         weightedBipredictionIDC: bipredIDC, redundantPictureCountPresent: redundant))
    }
}
