/// Which reference pictures of one H.264 GOP an FFmpeg decoder may leave undecoded, when only
/// some pictures are wanted, with every wanted picture still decoded exactly as in a full decode.
///
/// Skipping non-reference pictures is free (`AVDISCARD_NONREF`); a B-frame pyramid's middle
/// pictures are references, though, and the other half of the decoding. FFmpeg fills the
/// `frame_num` gap a skipped reference leaves with a stand-in: a copy of the previous reference
/// under the skipped `frame_num`, marked by the sliding window rather than by the skipped
/// picture's own memory-management operations, with a made-up picture order count. The plan
/// follows both sets of short-term references side by side, the stream's and FFmpeg's, and
/// accepts skipping only where every decoded picture sees the same thing:
///
/// - a P picture's resolved list 0 is the same pictures in both, none a stand-in;
/// - a B picture (lists ordered by picture order count) finds both sets equal, no stand-in;
/// - every memory-management operation names a picture FFmpeg holds, and FFmpeg's set never
///   outgrows `max_num_ref_frames` (it would drop one with an error).
///
/// Where a decoded picture would see a difference, the latest skipped reference before it is
/// decoded after all, and the GOP is followed again. A decoded middle picture is a B picture
/// itself, so before a wanted B picture the middles are decoded back to where the sets agree
/// without stand-ins: with sliding-window middles, back to the GOP's start.
public enum H264SkipPlan {
    /// The indices of the reference pictures that may be skipped among `pictures`, one GOP in
    /// decoding order from its IDR picture (anything else first: none), where `wanted[i]` says
    /// whether picture `i` must come out. Only B pictures that are not wanted are skipped, and
    /// only where the stream declares its reorder depth: FFmpeg guesses it otherwise from the
    /// picture order counts, whose history it clears at every gap a skipped reference leaves.
    public static func skippableReferences(in pictures: [H264PictureReferences], wanted: [Bool]) -> Set<Int> {
        guard pictures.first?.isInstantaneousRefresh == true, wanted.count == pictures.count,
              pictures.allSatisfy(\.declaresReorderDepth) else { return [] }
        var skipped = Set(pictures.indices.filter { pictures[$0].isReference && pictures[$0].isBidirectional && !wanted[$0] })
        while let failure = firstMismatch(in: pictures, wanted: wanted, skipping: skipped) {
            guard let latest = skipped.filter({ $0 < failure }).max() else { return [] }
            skipped.remove(latest)
        }
        return skipped
    }

    /// A short-term reference: its `frame_num`, and whether FFmpeg holds a stand-in for it.
    private struct Reference: Equatable {
        var frameNum: Int
        var isStandIn = false
    }

    /// The first picture that would not decode as in a full decode, or nil.
    private static func firstMismatch(in pictures: [H264PictureReferences], wanted: [Bool], skipping: Set<Int>) -> Int? {
        var stream: [Reference] = []         // the stream's own references
        var decoder: [Reference] = []        // FFmpeg's, with stand-ins for skipped ones
        var previousReference = 0
        for (index, picture) in pictures.enumerated() {
            let frameNum = picture.frameNum
            if index > 0 && (picture.isInstantaneousRefresh || frameNum != (previousReference + 1) % picture.maxFrameNum) {
                return index
            }
            let decoded = !skipping.contains(index) && (picture.isReference || wanted[index])
            if decoded {
                if picture.isBidirectional {
                    guard decoder == stream else { return index }
                } else {
                    for slice in picture.slices where !slice.activeEntries.isEmpty {
                        guard let expected = firstList(of: slice, in: picture, holding: stream),
                              let seen = firstList(of: slice, in: picture, holding: decoder),
                              seen == expected else { return index }
                    }
                }
            }
            guard picture.isReference else { continue }
            let capacity = max(picture.maxReferenceFrames, 1)
            guard mark(&stream, by: picture.marking, at: picture, capacity: capacity),
                  mark(&decoder, by: decoded ? picture.marking : .slidingWindow, at: picture, capacity: capacity)
            else { return index }
            stream.append(Reference(frameNum: frameNum))
            decoder.append(Reference(frameNum: frameNum, isStandIn: !decoded))
            guard decoder.count <= capacity, stream.count <= capacity else { return index }
            previousReference = frameNum
        }
        return nil
    }

    /// Applies a reference picture's marking before it joins `set`; false when an operation
    /// names a picture the set does not hold.
    private static func mark(_ set: inout [Reference], by marking: H264PictureReferences.Marking,
                             at picture: H264PictureReferences, capacity: Int) -> Bool {
        switch marking {
        case .none, .instantaneousRefresh:
            return true
        case .slidingWindow:
            if set.count >= capacity,
               let oldest = set.indices.min(by: { number(set[$0], at: picture) < number(set[$1], at: picture) }) {
                set.remove(at: oldest)
            }
            return true
        case .released(let steps):
            for step in steps {
                guard let index = set.firstIndex(where: { number($0, at: picture) == picture.frameNum - step }) else { return false }
                set.remove(at: index)
            }
            return true
        }
    }

    /// The pictures a P slice's list 0 uses, resolved against `set` (8.2.4.2.1, 8.2.4.3.1):
    /// nil when the list names a picture the set does not hold, or is shorter than it uses, or
    /// uses a stand-in.
    private static func firstList(of slice: H264PictureReferences.SliceLists, in picture: H264PictureReferences,
                                  holding set: [Reference]) -> [Int]? {
        var list = set.sorted { number($0, at: picture) > number($1, at: picture) }
        var predicted = picture.frameNum
        for (index, step) in slice.modifications[0].enumerated() {
            var noWrap = predicted + step
            if noWrap < 0 { noWrap += picture.maxFrameNum }
            if noWrap >= picture.maxFrameNum { noWrap -= picture.maxFrameNum }
            predicted = noWrap
            let wanted = noWrap > picture.frameNum ? noWrap - picture.maxFrameNum : noWrap
            guard let named = set.first(where: { number($0, at: picture) == wanted }) else { return nil }
            list.insert(named, at: min(index, list.count))
            if let duplicate = list.indices.dropFirst(index + 1).first(where: { list[$0] == named }) {
                list.remove(at: duplicate)
            }
        }
        let used = list.prefix(slice.activeEntries[0])
        guard used.count == slice.activeEntries[0], !used.contains(where: \.isStandIn) else { return nil }
        return used.map(\.frameNum)
    }

    /// `PicNum` of a short-term reference frame while `picture` is decoded (`FrameNumWrap`).
    private static func number(_ reference: Reference, at picture: H264PictureReferences) -> Int {
        reference.frameNum > picture.frameNum ? reference.frameNum - picture.maxFrameNum : reference.frameNum
    }
}
