@testable import SlomoMedia
import Testing

/// `H264SkipPlan` on pictures described by hand: a B-pyramid whose P pictures predict from the
/// P before (its middle B pictures can go), from the latest reference (they cannot), and a
/// stream that leaves FFmpeg to guess its reorder depth (nothing is planned).
@Suite struct H264SkipPlanModelTests {
    typealias Picture = H264PictureReferences

    /// IDR, then `groups` of P, middle B (a sliding-window reference) and two non-reference B.
    /// Each P's list 0 names the P before it when `predictFromP`, else it takes the latest reference.
    static func pyramid(groups: Int, predictFromP: Bool, declared: Bool = true) -> [Picture] {
        func picture(_ frameNum: Int, _ marking: Picture.Marking, b: Bool, steps: [Int] = []) -> Picture {
            Picture(frameNum: frameNum, maxFrameNum: 256, maxReferenceFrames: 4, declaresReorderDepth: declared,
                    marking: marking, slices: [.init(isBidirectional: b, activeEntries: b ? [1, 1] : [1],
                                                     modifications: b ? [[], []] : [steps])])
        }
        var pictures = [Picture(frameNum: 0, maxFrameNum: 256, maxReferenceFrames: 4, declaresReorderDepth: declared,
                                marking: .instantaneousRefresh, slices: [.init(isBidirectional: false, activeEntries: [],
                                                                               modifications: [])])]
        for group in 0..<groups {
            let p = 2 * group + 1
            pictures.append(picture(p, .slidingWindow, b: false, steps: predictFromP && group > 0 ? [-2] : []))
            pictures.append(picture(p + 1, .slidingWindow, b: true))
            pictures.append(picture(p + 2, .none, b: true))
            pictures.append(picture(p + 2, .none, b: true))
        }
        return pictures
    }

    @Test func middlesGoWhenPPicturesPredictFromPPictures() {
        let pictures = Self.pyramid(groups: 8, predictFromP: true)
        let wanted = pictures.map { !$0.isBidirectional }
        let middles = Set(pictures.indices.filter { pictures[$0].isReference && pictures[$0].isBidirectional })
        #expect(H264SkipPlan.skippableReferences(in: pictures, wanted: wanted) == middles)
        // A wanted B picture of group 4 needs its middle. A decoded middle is a B picture that
        // must find FFmpeg's set free of stand-ins, so every middle before it is decoded too
        // (each still holds the one before); the middles after it still go.
        var section = wanted
        section[4 * 4 + 3] = true
        #expect(H264SkipPlan.skippableReferences(in: pictures, wanted: section) == middles.filter { $0 > 4 * 4 + 3 })
    }

    /// Each P picture predicts from the middle before it: only the GOP's last middle, which
    /// nothing follows, may go.
    @Test func middlesStayWhenPPicturesTakeTheLatestReference() {
        let pictures = Self.pyramid(groups: 8, predictFromP: false)
        #expect(H264SkipPlan.skippableReferences(in: pictures, wanted: pictures.map { !$0.isBidirectional }) == [30])
    }

    @Test func nothingIsPlannedWithoutADeclaredReorderDepth() {
        let pictures = Self.pyramid(groups: 8, predictFromP: true, declared: false)
        #expect(H264SkipPlan.skippableReferences(in: pictures, wanted: pictures.map { !$0.isBidirectional }).isEmpty)
    }
}
