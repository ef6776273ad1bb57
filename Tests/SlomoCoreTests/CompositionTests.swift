import PropertyBased
import Testing
@testable import SlomoCore

@Suite struct CompositionTests {
    func t(_ value: Int64, _ scale: Int64 = 1) -> MediaTime { MediaTime(value: value, timescale: scale) }
    func range(_ start: Int64, _ end: Int64) -> TimeRange { TimeRange(start: t(start), end: t(end)) }

    func clip(_ name: String, _ seconds: Int64, _ sections: [String] = []) throws -> Clip {
        let whole = range(0, seconds)
        return try Clip(source: name, range: whole,
                        sections: sections.map { try SectionSpec(parsing: $0).resolved(in: whole, frameRate: nil) })
    }

    @Test func scaleRangeToDurationReadsBack() throws {
        var edit = Composition([try clip("a.mov", 10)])
        try edit.scaleRange(range(2, 4), toDuration: t(8))
        let map = try edit.timeMap()
        #expect(map.outputDuration == t(16))
        #expect(map.outputTime(atEdit: t(4)) - map.outputTime(atEdit: t(2)) == t(8))
        #expect(edit.clips[0].sections[0].rate == 0.25)
    }

    @Test func scaleAcrossClipsRampsAtTheOuterEdges() throws {
        var edit = Composition([try clip("a.mov", 4), try clip("b.mov", 4)])
        try edit.scale(range(2, 6), rate: 0.5, ramp: t(1, 2))
        #expect(edit.clips[0].sections.map(\.description) == ["2-4x0.5:ramp-in=0.5"])
        #expect(edit.clips[1].sections.map(\.description) == ["0-2x0.5:ramp-out=0.5"])
    }

    @Test func scaleRangeToDurationProperty() async {
        await propertyCheck(input: Gen.int(in: 0...9_999), Gen.int(in: 1...10_000), Gen.int(in: 1...100_000)) { start, length, target in
            var edit = Composition([try! clip("a.mov", 5), try! clip("b.mov", 5)])
            let end = min(start + length, 10_000)
            let scaled = TimeRange(start: t(Int64(start), 1000), end: t(Int64(end), 1000))
            let duration = t(Int64(target), 1000)
            do {
                try edit.scaleRange(scaled, toDuration: duration)
            } catch let error as TimeModelError {
                #expect(error.kind == .rateOutOfRange)
                return
            } catch { Issue.record(error) }
            let map = try! edit.timeMap()
            #expect(map.outputTime(atEdit: scaled.end) - map.outputTime(atEdit: scaled.start) == duration)
        }
    }

    @Test func insertSplitsTheClipAndItsSections() throws {
        var edit = Composition([try clip("a.mov", 10, ["2-4x0.25"])])
        try edit.insert(try clip("b.mov", 5), at: t(3))
        #expect(edit.clips.map(\.source) == ["a.mov", "b.mov", "a.mov"])
        #expect(edit.clips.map(\.range) == [range(0, 3), range(0, 5), range(3, 10)])
        #expect(edit.clips[0].sections.map(\.range) == [range(2, 3)])
        #expect(edit.clips[2].sections.map(\.range) == [range(3, 4)])
        #expect(edit.editDuration == t(15))
        #expect(try edit.timeMap().outputDuration == t(2 + 4 + 5 + 4 + 6))
        try edit.insert(try clip("c.mov", 1), at: t(15))
        #expect(edit.clips.last?.source == "c.mov")
        try edit.insertRange(range(5, 6), of: "d.mov", at: .zero)
        #expect(edit.clips.first?.source == "d.mov" && edit.clips.first?.range == range(5, 6))
        #expect(edit.editDuration == t(17))
    }

    @Test func removeRangeCutsClipsAndSections() throws {
        var edit = Composition([try clip("a.mov", 10, ["2-4x0.25:ramp=0.5"]), try clip("b.mov", 10)])
        try edit.removeRange(range(1, 5))
        #expect(edit.clips.map(\.range) == [range(0, 1), range(5, 10), range(0, 10)])
        #expect(edit.clips.allSatisfy { $0.sections.isEmpty })
        try edit.removeRange(range(3, 8))
        #expect(edit.clips.map(\.range) == [range(0, 1), range(5, 7), range(2, 10)])
        #expect(try edit.timeMap().outputDuration == t(11))
    }

    @Test func cutSectionsKeepTheRampsThatSurvive() throws {
        var edit = Composition([try clip("a.mov", 10, ["2-6x0.5:ramp=1"])])
        try edit.removeRange(range(5, 10))
        #expect(edit.clips[0].sections.map(\.description) == ["2-5x0.5:ramp-in=1"])
    }

    @Test func mapsAcrossClips() throws {
        let edit = Composition([try clip("a.mov", 4, ["0-4x0.5"]), try clip("b.mov", 6)])
        let map = try edit.timeMap()
        #expect(map.outputDuration == t(14))
        #expect(map.entries[1].map.outputStart == t(8))
        #expect(map.outputTime(atEdit: t(5)) == t(9))
        #expect(map.source(atOutput: t(9)) == (1, t(1)))
        #expect(map.source(atOutput: t(2)) == (0, t(1)))
    }

    @Test func badEdits() throws {
        var edit = Composition([try clip("a.mov", 10, ["2-4x0.25"])])
        #expect(throws: TimeModelError(.pastEnd, "edit time 11 s is outside the composition, which lasts 10 s")) {
            try edit.insert(try clip("b.mov", 1), at: t(11))
        }
        #expect(throws: TimeModelError.self) { try edit.removeRange(range(5, 12)) }
        #expect { try edit.scale(range(3, 5), rate: 2) } throws: { ($0 as! TimeModelError).kind == .overlap }
        #expect { try edit.scaleRange(range(0, 1), toDuration: t(64)) } throws: {
            ($0 as! TimeModelError).kind == .rateOutOfRange
        }
        #expect(edit.clips[0].sections.count == 1)
        #expect(throws: TimeModelError(.emptyRange, "the composition has no clips")) { try Composition().timeMap() }
    }
}

@Test func designSketchReadsAsWritten() throws {
    var edit = try Composition(source: "match.mov", duration: .seconds(10), frameRate: Rational(240))
    try edit.scale(.seconds(2) ..< .seconds(4), rate: 0.25, ramp: .seconds(0.3))
    try edit.scale(.seconds(8) ..< .seconds(10), rate: 2)
    #expect(edit.clips[0].sections.map(\.description) == ["2-4x0.25:ramp=0.3", "8-10x2"])
    #expect(try edit.timeMap().outputDuration == .seconds(2 + 0.75 + 5.6 + 0.75 + 4 + 1))
}
