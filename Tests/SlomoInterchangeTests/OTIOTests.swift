import Foundation
import SlomoCore
@testable import SlomoInterchange
import Testing

/// OTIO written by slomo reads back to the same composition; what slomo cannot honour is an
/// error naming the clip.
@Suite struct OTIOTests {
    static let source = EditScript.SourceInfo(duration: .seconds(10), frameRate: Rational(240))

    static func read(_ text: String) throws -> Composition {
        try OTIOReader(path: "/edits/edit.otio") { _ in source }.composition(data: Data(text.utf8))
    }

    static func roundTrip(_ sections: [String]) throws -> (Composition, Composition) {
        let media = EditorTimelineTests.media
        let composition = try Composition(source: media.path, duration: media.duration, frameRate: media.frameRate,
                                          sections: sections)
        let text = try OTIOWriter.text(try Timeline(composition, media: [media], name: "test"))
        return (composition, try read(text))
    }

    @Test(arguments: [["2-4x0.25"], ["2-4x0.25:ramp=0.3", "6-8x2"], ["1-3x1/3:ramp=0.25", "3-5x3:ramp-in=0.5"],
                      ["0-endx0.5"], ["7-9x0.125:ramp-out=0.4:audio=varispeed:frames=blend"],
                      ["2-4x0.25:ramp=0.3:ease=smooth", "4-6x2:ramp-in=0.2:ease=smooth"],
                      ["6-8x2:ramp=0.2:ease=cubic-bezier(0.25,0.1,0.25,1)"],
                      ["4-6x-1"], ["0-2x-0.5", "2-4x-2"], ["1-2x0.5:ramp=0.2:ease=smooth", "4-6x-1/3", "7-9x2"]])
    func slomoTimelinesReadBackExactly(sections: [String]) throws {
        let (original, read) = try Self.roundTrip(sections)
        #expect(read.clips.count == 1)
        #expect(try read.timeMap().entries[0].map.segments == original.timeMap().entries[0].map.segments)
        #expect(read.clips[0].sections.map(SectionSpec.init) == original.clips[0].sections.map(SectionSpec.init))
    }

    /// Two files, one clip each: each file is one medium, and the clips come back in order.
    @Test func severalFilesReadBackInOrder() throws {
        let first = EditorTimelineTests.media
        let second = TimelineMedia(path: "/media/other.mov", duration: .seconds(4), frameRate: Rational(60))
        let composition = Composition([try Clip(source: first.path, range: TimeRange(start: .seconds(1), end: .seconds(3)),
                                                sections: [Section(range: TimeRange(start: .seconds(2), end: .seconds(3)), rate: 0.5)],
                                                frameRate: first.frameRate),
                                       try Clip(source: second.path, range: TimeRange(start: .zero, end: .seconds(4)),
                                                frameRate: second.frameRate)])
        let timeline = try Timeline(composition, media: [second, first], name: "two")
        #expect(timeline.media.map(\.path) == [first.path, second.path])
        #expect(timeline.events.map(\.media) == [0, 0, 1])
        let info = [first.path: EditScript.SourceInfo(duration: first.duration, frameRate: first.frameRate),
                    second.path: EditScript.SourceInfo(duration: second.duration, frameRate: second.frameRate)]
        let read = try OTIOReader(path: "/edits/two.otio") { info[$0]! }.composition(data: Data(try OTIOWriter.text(timeline).utf8))
        #expect(read == composition)
    }

    /// A timeline made elsewhere, without slomo's metadata: constant speeds become sections.
    @Test func foreignClipsBecomeSections() throws {
        let text = Self.timeline([Self.clip(start: 0, duration: 480), Self.clip(start: 480, duration: 1920, scalar: 0.25),
                                  Self.clip(start: 960, duration: 1440)])
        let composition = try Self.read(text)
        #expect(composition.clips.count == 1)
        #expect(composition.clips[0].range == TimeRange(start: .zero, end: .seconds(10)))
        #expect(composition.clips[0].sections.map { SectionSpec($0).description } == ["2-4x0.25"])
        #expect(composition.clips[0].source == "/media/clip.mov")
    }

    /// A negative time scalar plays the clip's media range backwards: a reversed section, the
    /// range `duration × |scalar|` from `start_time`.
    @Test(arguments: [(-1.0, 480.0, "4-6x-1"), (-0.5, 960.0, "4-6x-0.5"), (-2.0, 240.0, "4-6x-2")])
    func negativeTimeScalarsAreReversedSections(scalar: Double, duration: Double, expected: String) throws {
        let text = Self.timeline([Self.clip(start: 0, duration: 960), Self.clip(start: 960, duration: duration, scalar: scalar),
                                  Self.clip(start: 1440, duration: 960)])
        let composition = try Self.read(text)
        let sections = composition.clips[0].sections.map { SectionSpec($0).description }
        print("time_scalar \(scalar) over \(duration) frames reads as \(sections)")
        #expect(composition.clips.count == 1)
        #expect(sections == [expected])
        let reversed = try #require(try composition.timeMap().entries[0].map.segments.first(where: \.isReversed))
        #expect(reversed.sourceTime(at: reversed.output.start) == .seconds(6), "plays from the range's end")
        #expect(reversed.output.duration == MediaTime(seconds: Rational(Int64(duration), 240)))
    }

    /// A clip played backwards alone is a clip whose whole range is reversed.
    @Test func aReversedClipAlone() throws {
        let composition = try Self.read(Self.timeline([Self.clip(start: 480, duration: 240, scalar: -1)]))
        #expect(composition.clips.map(\.range) == [TimeRange(start: .seconds(2), end: .seconds(3))])
        #expect(composition.clips[0].sections.map { SectionSpec($0).description } == ["2-3x-1"])
    }

    /// slomo's metadata says the direction in its rate (`"-1/2"`), so a reader restores the
    /// exact section even where the time scalar alone would be rounded.
    @Test func metadataCarriesTheDirection() throws {
        let media = EditorTimelineTests.media
        let composition = try Composition(source: media.path, duration: media.duration, frameRate: media.frameRate,
                                          sections: ["4-6x-1/3"])
        let text = try OTIOWriter.text(try Timeline(composition, media: [media], name: "test"))
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let tracks = try #require((root["tracks"] as? [String: Any])?["children"] as? [[String: Any]])
        let clip = try #require((tracks[0]["children"] as? [[String: Any]])?[1])
        let slomo = try #require((clip["metadata"] as? [String: Any])?["slomo"] as? [String: Any])
        let scalar = try #require((clip["effects"] as? [[String: Any]])?.first?["time_scalar"] as? Double)
        print("reversed clip: time_scalar \(scalar), metadata \(slomo)")
        #expect(slomo["rate"] as? String == "-1/3" && slomo["source"] as? String == "4-6" && slomo["section"] as? String == "4-6x-1/3")
        #expect(abs(scalar + 1.0 / 3) < 1e-12)
        #expect(try Self.read(text) == composition)
    }

    /// A reversed clip an editor turned forwards again keeps its media range but not slomo's
    /// section: the clip's own time scalar wins over the metadata.
    @Test func aClipTurnedForwardsLeavesTheReversedSection() throws {
        let media = EditorTimelineTests.media
        let composition = try Composition(source: media.path, duration: media.duration, frameRate: media.frameRate,
                                          sections: ["2-3x0.5", "4-6x-0.5"])
        var root = try #require(try JSONSerialization.jsonObject(with: Data(try OTIOWriter.text(
            try Timeline(composition, media: [media], name: "test")).utf8)) as? [String: Any])
        var stack = try #require(root["tracks"] as? [String: Any]), tracks = try #require(stack["children"] as? [[String: Any]])
        var clips = try #require(tracks[0]["children"] as? [[String: Any]])
        var effect = try #require((clips[3]["effects"] as? [[String: Any]])?.first)
        #expect(effect["time_scalar"] as? Double == -0.5)
        effect["time_scalar"] = 0.5
        clips[3]["effects"] = [effect]
        tracks[0]["children"] = clips
        stack["children"] = tracks
        root["tracks"] = stack
        let read = try Self.read(String(decoding: try JSONSerialization.data(withJSONObject: root), as: UTF8.self))
        let sections = read.clips[0].sections.map { SectionSpec($0).description }
        print("turned forwards: \(sections)")
        #expect(sections == ["2-3x0.5", "4-6x0.5"])
    }

    @Test func clipsThatDoNotContinueStaySeparate() throws {
        let text = Self.timeline([Self.clip(start: 480, duration: 240), Self.clip(start: 0, duration: 240, scalar: 2)])
        let composition = try Self.read(text)
        #expect(composition.clips.map(\.range) == [TimeRange(start: .seconds(2), end: .seconds(3)),
                                                   TimeRange(start: .zero, end: .seconds(2))])
        #expect(try composition.timeMap().outputDuration == .seconds(2))
    }

    @Test func relativeMediaResolvesAgainstTheTimelinesFolder() throws {
        let composition = try Self.read(Self.timeline([Self.clip(start: 0, duration: 240, url: "footage/a.mov")]))
        #expect(composition.clips[0].source == "/edits/footage/a.mov")
    }

    /// A FreezeFrame of any length holds its frame: the frame, then a freeze for the rest.
    @Test(arguments: [24, 2400]) func freezeFrameHoldsItsFrame(frames: Int) throws {
        let composition = try Self.read(Self.timeline([Self.clip(start: 240, duration: Double(frames), effect: "FreezeFrame.1")]))
        let clip = composition.clips[0]
        let frame = MediaTime(seconds: Rational(1, 240))
        #expect(clip.range == TimeRange(start: .seconds(1), duration: frame))
        #expect(clip.sections.isEmpty)
        #expect(clip.freezes.map { $0.at } == [MediaTime.seconds(1)])
        #expect(clip.freezes.map { $0.duration } == [MediaTime(seconds: Rational(Int64(frames), 240)) - frame])
        #expect(try composition.timeMap().outputDuration == MediaTime(seconds: Rational(Int64(frames), 240)))
    }

    @Test(arguments: [
        (Self.gap, "clip 2: is a gap"),
        (Self.clip(start: 0, duration: 240, effect: "Blur.1"), "clip 2 ('clip'): has the effect 'Blur.1'"),
        (Self.clip(start: 0, duration: 240, scalar: 0), "plays at speed 0"),
        (Self.clip(start: 0, duration: 240, scalar: 64), "clip 2 ('clip')"),
        (Self.clip(start: 0, duration: 240, url: "https://example.com/a.mov"), "local files only"),
        (Self.clip(start: 2160, duration: 480), "plays media up to 11.000 s but /media/clip.mov lasts 10.000 s"),
    ])
    func whatSlomoCannotHonourIsNamed(item: String, expected: String) throws {
        let text = Self.timeline([Self.clip(start: 0, duration: 240), item])
        do {
            _ = try Self.read(text)
            Issue.record("no error for \(expected)")
        } catch let error as TimeModelError {
            #expect(error.description.contains(expected), "\(error)")
            #expect(error.description.hasPrefix("/edits/edit.otio"), "\(error)")
        }
    }

    @Test func notATimeline() {
        #expect(throws: TimeModelError.self) { try Self.read("{\"OTIO_SCHEMA\": \"Clip.2\"}") }
        #expect(throws: TimeModelError.self) { try Self.read("not json") }
        #expect(throws: TimeModelError.self) { try Self.read(Self.timeline([])) }
    }

    // MARK: - OTIO documents written by hand, as other tools write them

    static let gap = #"{"OTIO_SCHEMA": "Gap.1", "name": "", "source_range": {"OTIO_SCHEMA": "TimeRange.1", "start_time": {"OTIO_SCHEMA": "RationalTime.1", "rate": 240.0, "value": 0.0}, "duration": {"OTIO_SCHEMA": "RationalTime.1", "rate": 240.0, "value": 24.0}}}"#

    static func clip(start: Double, duration: Double, scalar: Double? = nil, effect: String? = nil,
                     url: String = "file:///media/clip.mov") -> String {
        var effects: [String] = []
        if let scalar { effects.append(#"{"OTIO_SCHEMA": "LinearTimeWarp.1", "effect_name": "LinearTimeWarp", "time_scalar": \#(scalar)}"#) }
        if let effect { effects.append(#"{"OTIO_SCHEMA": "\#(effect)", "effect_name": "\#(effect)"}"#) }
        return #"""
            {"OTIO_SCHEMA": "Clip.2", "name": "clip", "enabled": true,
             "source_range": {"OTIO_SCHEMA": "TimeRange.1",
                "start_time": {"OTIO_SCHEMA": "RationalTime.1", "rate": 240.0, "value": \#(start)},
                "duration": {"OTIO_SCHEMA": "RationalTime.1", "rate": 240.0, "value": \#(duration)}},
             "effects": [\#(effects.joined(separator: ", "))],
             "media_references": {"DEFAULT_MEDIA": {"OTIO_SCHEMA": "ExternalReference.1", "target_url": "\#(url)"}},
             "active_media_reference_key": "DEFAULT_MEDIA"}
            """#
    }

    static func timeline(_ items: [String]) -> String {
        #"""
        {"OTIO_SCHEMA": "Timeline.1", "name": "t", "tracks": {"OTIO_SCHEMA": "Stack.1", "children": [
          {"OTIO_SCHEMA": "Track.1", "kind": "Video", "name": "V1", "children": [\#(items.joined(separator: ",\n"))]},
          {"OTIO_SCHEMA": "Track.1", "kind": "Audio", "name": "A1", "children": []}]}}
        """#
    }
}
