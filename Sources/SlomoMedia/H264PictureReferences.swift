/// What one H.264 picture says about reference pictures, read from its slice headers: whether
/// it is one, which earlier ones its slices' reference lists take (as picture-number steps), and
/// how it changes the decoder's set of short-term references afterwards (ITU-T H.264 7.3.3).
///
/// Made for frame-coded streams with short-term references only (what cameras and x264 write);
/// the reader gives no value for field pictures, long-term references, slice groups, redundant
/// or partitioned slices, whose references it does not follow.
public struct H264PictureReferences: Sendable, Equatable {
    /// One slice's reference lists before they are resolved against the decoder's references.
    struct SliceLists: Sendable, Equatable {
        var isBidirectional: Bool
        /// Entries each list uses (`num_ref_idx_lX_active`); empty for intra slices.
        var activeEntries: [Int]
        /// Per list, the picture-number steps of `ref_pic_list_modification` (−n for idc 0, +n for 1).
        var modifications: [[Int]]
    }

    /// How the picture changes the short-term references once decoded.
    enum Marking: Sendable, Equatable {
        /// Not a reference picture.
        case none
        /// An IDR picture: every earlier reference is dropped.
        case instantaneousRefresh
        /// The oldest reference goes when the set is full.
        case slidingWindow
        /// Memory management operations dropping the pictures these steps below the current
        /// picture number name (operation 1 only).
        case released(picNumSteps: [Int])
    }

    var frameNum: Int
    var maxFrameNum: Int
    var maxReferenceFrames: Int
    /// The sequence parameter set declares the reorder depth (VUI bitstream restriction).
    var declaresReorderDepth: Bool
    var marking: Marking
    var slices: [SliceLists]

    /// True when the decoder keeps the picture to predict later ones from.
    public var isReference: Bool { marking != .none }
    /// True when some slice predicts from two lists (a B picture).
    public var isBidirectional: Bool { slices.contains { $0.isBidirectional } }
    /// True for an IDR picture.
    public var isInstantaneousRefresh: Bool { marking == .instantaneousRefresh }
}

extension H264PictureReferences.SliceLists {
    /// Parses one slice header up to its reference marking; `nil` for what the type does not follow.
    static func parse(_ reader: inout NALBitReader, nalType: Int, referenceIDC: Int,
                      sets: H264ParameterSetStore) throws(NALBitReader.Overrun)
        -> (lists: Self, frameNum: Int, sps: H264SequenceParameters, marking: H264PictureReferences.Marking)? {
        _ = try reader.bits(8)                                   // NAL header
        _ = try reader.unsigned()                                // first macroblock
        let sliceType = try reader.unsigned() % 5                // 0 P, 1 B, 2 I, 3 SP, 4 SI
        guard let pps = sets.pictures[try reader.unsigned()], let sps = sets.sequences[pps.sequenceID] else { return nil }
        if sps.separateColourPlanes { _ = try reader.bits(2) }
        let frameNum = try reader.bits(sps.log2MaxFrameNum)
        if !sps.framesOnly, try reader.flag() { return nil }     // a field picture
        let isIDR = nalType == 5
        if isIDR { _ = try reader.unsigned() }
        if sps.pictureOrderCountType == 0 {
            _ = try reader.bits(sps.log2MaxPictureOrderCountLSB)
            if pps.bottomFieldOrderPresent { _ = try reader.signed() }
        } else if sps.pictureOrderCountType == 1 && !sps.deltaPictureOrderAlwaysZero {
            _ = try reader.signed()
            if pps.bottomFieldOrderPresent { _ = try reader.signed() }
        }
        if pps.redundantPictureCountPresent, try reader.unsigned() != 0 { return nil }
        let isB = sliceType == 1
        let isIntra = sliceType == 2 || sliceType == 4
        if isB { _ = try reader.flag() }                         // direct spatial prediction
        var active: [Int] = []
        if !isIntra {
            active = isB ? [pps.defaultActiveReferences.l0, pps.defaultActiveReferences.l1]
                         : [pps.defaultActiveReferences.l0]
            if try reader.flag() {
                for list in active.indices { active[list] = try reader.unsigned() + 1 }
            }
        }
        var modifications: [[Int]] = []
        for _ in active.indices {
            var steps: [Int] = []
            if try reader.flag() {
                while true {
                    let idc = try reader.unsigned()
                    if idc == 3 { break }
                    guard idc <= 1 else { return nil }           // long-term (2) or unknown
                    let step = try reader.unsigned() + 1
                    steps.append(idc == 0 ? -step : step)
                }
            }
            modifications.append(steps)
        }
        if (pps.weightedPrediction && !isIntra && !isB) || (pps.weightedBipredictionIDC == 1 && isB) {
            try skipWeightTable(&reader, entries: active, chroma: sps.chromaArrayType != 0)
        }
        let lists = Self(isBidirectional: isB, activeEntries: active, modifications: modifications)
        guard referenceIDC != 0 else { return (lists, frameNum, sps, .none) }
        if isIDR {
            _ = try reader.flag()                                // no output of prior pictures
            if try reader.flag() { return nil }                  // kept as a long-term reference
            return (lists, frameNum, sps, .instantaneousRefresh)
        }
        guard try reader.flag() else { return (lists, frameNum, sps, .slidingWindow) }
        var released: [Int] = []
        while true {
            let operation = try reader.unsigned()
            if operation == 0 { break }
            guard operation == 1 else { return nil }             // long-term or reset operations
            released.append(try reader.unsigned() + 1)
        }
        return (lists, frameNum, sps, .released(picNumSteps: released))
    }

    private static func skipWeightTable(_ reader: inout NALBitReader, entries: [Int],
                                        chroma: Bool) throws(NALBitReader.Overrun) {
        _ = try reader.unsigned()                                // luma denominator
        if chroma { _ = try reader.unsigned() }                  // chroma denominator
        for count in entries {
            for _ in 0..<count {
                if try reader.flag() { _ = try reader.signed(); _ = try reader.signed() }
                if chroma, try reader.flag() {
                    for _ in 0..<4 { _ = try reader.signed() }
                }
            }
        }
    }
}
