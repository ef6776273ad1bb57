import Foundation
import SlomoCore
@testable import SlomoInterchange
import SlomoTestSupport
import Testing

/// An eased ramp, a reversed section and a freeze in one timeline of the long flash-and-beep
/// clip (8 white frames from every k + 0.5 s, 240 fps, 10 s), judged by the editors' own code:
/// the OpenTimelineIO library, MLT's `melt` rendering the `.mlt`, `xmllint` and OTIO's FCPXML
/// adapter; and slomo's own reader restoring the edit from its `.otio`.
@Suite struct ReversedTimelineTests {
    static let sections = ["1-2x0.5:ramp=0.2:ease=smooth", "4-6x-1"]
    static let freezes = ["7:0.5"]
    /// One frame of the fixture (and of the timeline, at the source's rate).
    static let frame = 1.0 / 240

    static func composition(_ sections: [String]) throws -> Composition {
        try Composition(source: try Fixture.longFlashAndBeep.path, duration: .seconds(10), frameRate: Rational(240),
                        sections: sections, freezes: freezes)
    }

    /// The composition of `sections` written to a fresh folder as `name`, whose extension names
    /// the format.
    static func write(_ name: String, sections: [String] = sections) throws -> (composition: Composition, path: String) {
        let composition = try composition(sections)
        let path = try FixtureCache.shared.scratchFolder("interchange-reverse").appendingPathComponent(name).path
        try Timeline(composition).write(to: path, overwrite: false)
        return (composition, path)
    }

    static func segments(_ composition: Composition) throws -> [TimeMap.Segment] {
        try composition.timeMap().entries[0].map.segments
    }

    /// The OTIO library finds one clip per segment (a ramp: steps that tile it) at its place in
    /// the track, entering the media where the segment does; the reversed one at time scalar
    /// −1 over its 2 s of media, the freeze a FreezeFrame. slomo reads the file back to the
    /// same sections and freeze.
    @Test func otioCarriesTheReversedSection() throws {
        let (composition, path) = try Self.write("reverse.otio")
        let clips = try Python.otioClips(path)
        let segments = try Self.segments(composition)
        var index = 0
        for segment in segments {
            var mediaAt = segment.source.start.doubleSeconds, trackAt = segment.output.start.doubleSeconds
            repeat {
                let clip = clips[index]
                let start = clip["start"] as! Double, duration = clip["duration"] as! Double
                let scalar = clip["scalar"] as! Double, at = clip["at"] as! Double
                #expect(abs(at - trackAt) < Self.frame / 2, "clip \(index + 1) sits at \(at) s, plan \(trackAt)")
                #expect(abs(start - mediaAt) < 1e-9, "clip \(index + 1) enters the media at \(start) s, plan \(mediaAt)")
                switch segment.shape {
                case .reversed(let rate):
                    print("reversed clip \(index + 1): media \(start)–\(start + duration * abs(scalar)) s, "
                          + "time_scalar \(scalar), \(duration) s at \(at) s")
                    #expect(abs(scalar + rate.value.doubleValue) < 1e-9)
                    #expect(abs(duration - segment.output.duration.doubleSeconds) < Self.frame / 2)
                case .hold:
                    print("freeze clip \(index + 1): \(start) s held \(duration) s at \(at) s")
                    #expect(clip["freeze"] as? Bool == true)
                    #expect(abs(duration - segment.output.duration.doubleSeconds) < Self.frame / 2)
                case .constant(let rate):
                    #expect(abs(scalar - rate.value.doubleValue) < 1e-9)
                case .ramp(let from, let to), .eased(let from, let to, _):
                    let (low, high) = (min(from.value.doubleValue, to.value.doubleValue), max(from.value.doubleValue, to.value.doubleValue))
                    #expect(scalar >= low - 1e-9 && scalar <= high + 1e-9, "ramp step at \(scalar)")
                }
                mediaAt = start + duration * abs(scalar)
                trackAt += duration
                index += 1
            } while trackAt < segment.output.end.doubleSeconds - Self.frame / 2
            #expect(abs(mediaAt - segment.source.end.doubleSeconds) < 1e-6, "media used ends at \(mediaAt), plan \(segment.source.end)")
        }
        #expect(index == clips.count)
        let planned = try composition.timeMap().outputDuration.doubleSeconds
        // The track ends where its last clip does.
        let duration = (clips.last?["at"] as? Double ?? 0) + (clips.last?["duration"] as? Double ?? 0)
        #expect(abs(duration - planned) < Self.frame / 2)
        print("otio: \(clips.count) clips for \(segments.count) segments, \(duration) s (plan \(planned) s)")

        let read = try OTIOReader(path: path) { _ in EditScript.SourceInfo(duration: .seconds(10), frameRate: Rational(240)) }
            .composition()
        print("read back: sections \(read.clips.flatMap(\.sections).map(\.description)), freezes \(read.clips.flatMap(\.freezes))")
        #expect(read.clips.count == 1)
        #expect(read.clips.first?.sections.map { SectionSpec($0).description } == composition.clips[0].sections.map { SectionSpec($0).description })
        #expect(read.clips.first?.freezes == composition.clips[0].freezes)
        #expect(try Self.segments(read) == segments)
    }

    /// melt renders the `.mlt`: every flash shows within one frame of where the time map puts
    /// it; in the reversed section a flash is seen from its last frame, so it starts where the
    /// segment maps the flash's end. At −0.3 a source frame lasts 3⅓ output frames: the
    /// nearest-frame rounding of MLT's timewarp is what the frame of tolerance is for.
    @Test(arguments: ["4-6x-1", "4-6x-0.3"])
    func meltShowsEveryFlashWhereTheMapPutsIt(reversed: String) throws {
        let (composition, path) = try Self.write("reverse.mlt", sections: [Self.sections[0], reversed])
        let rendered = URL(fileURLWithPath: path).deletingPathExtension().path + "-melt.mov"
        let melt = try runCommand("melt", ["-quiet", path, "-consumer", "avformat:\(rendered)", "vcodec=libx264",
                                           "preset=ultrafast", "an=1"])
        #expect(melt.status == 0, "\(melt.standardError)")
        let segments = try Self.segments(composition)
        let flash = MediaTime(seconds: Rational(8, 240))
        let expected = (0..<10).map { k -> Double in
            let time = MediaTime(seconds: Rational(Int64(2 * k + 1), 2))
            let segment = segments.first { $0.source.start <= time && time < $0.source.end }!
            return (segment.isReversed ? segment.outputTime(at: time + flash) : segment.outputTime(at: time)).doubleSeconds
        }.sorted()
        let flashes = try SyncProbe.flashTimes(rendered)
        let onsets = flashes.enumerated().filter { index, time in index == 0 || time - flashes[index - 1] > 0.1 }.map(\.element)
        #expect(onsets.count == expected.count, "\(onsets)")
        let errors = zip(onsets, expected).map { $0 - $1 }
        print("melt \(reversed): flashes at \(onsets.map { String(format: "%.4f", $0) }) s, "
              + "offsets from the plan (ms) \(errors.map { String(format: "%.2f", $0 * 1000) })")
        #expect(errors.allSatisfy { abs($0) <= Self.frame + 1e-6 })
    }

    /// xmllint finds the `.fcpxml` well-formed; one `asset-clip` per segment at its planned place
    /// whose timeMap runs through the segment's source edges: backwards (values decreasing as
    /// time increases) in the reversed clip, constant in the freeze, forwards elsewhere. OTIO's
    /// FCPXML adapter reads the same clips.
    @Test func fcpxmlTimeMapRunsBackwardsInTheReversedClip() throws {
        let (composition, path) = try Self.write("reverse.fcpxml")
        let lint = try runCommand("xmllint", ["--noout", path])
        #expect(lint.status == 0, "\(lint.standardError)")
        let document = try #require(try Python.json("""
            import json, sys
            import opentimelineio as otio
            import xml.etree.ElementTree as ET
            seconds = lambda text: (lambda n, d=1: float(n) / float(d))(*text.rstrip("s").split("/"))
            clips = [{"offset": seconds(e.get("offset")), "duration": seconds(e.get("duration")), "start": seconds(e.get("start")),
                      "points": [[seconds(p.get("time")), seconds(p.get("value"))] for p in e.find("timeMap").findall("timept")]}
                     for e in ET.parse(sys.argv[1]).getroot().iter("asset-clip")]
            read = otio.adapters.read_from_file(sys.argv[1], adapter_name="fcpx_xml")
            timeline = next(item for item in read if isinstance(item, otio.schema.Timeline))
            adapter = [{"at": c.range_in_parent().start_time.to_seconds(), "start": c.source_range.start_time.to_seconds()}
                       for c in timeline.video_tracks()[0].find_clips()]
            print(json.dumps({"clips": clips, "adapter": adapter}))
            """, [path]) as? [String: Any])
        let clips = try #require(document["clips"] as? [[String: Any]])
        let adapter = try #require(document["adapter"] as? [[String: Any]])
        let segments = try Self.segments(composition)
        #expect(clips.count == segments.count && adapter.count == segments.count)
        for (index, (clip, segment)) in zip(clips, segments).enumerated() {
            let points = (clip["points"] as! [[Double]]).map { (time: $0[0], value: $0[1]) }
            let offset = clip["offset"] as! Double, duration = clip["duration"] as! Double
            #expect(abs(offset - segment.output.start.doubleSeconds) < Self.frame / 2, "clip \(index + 1) at \(offset)")
            #expect(abs(offset + duration - segment.output.end.doubleSeconds) < Self.frame / 2, "clip \(index + 1) ends at \(offset + duration)")
            #expect(abs((adapter[index]["at"] as! Double) - offset) < 1e-9 && abs((adapter[index]["start"] as! Double) - (clip["start"] as! Double)) < 1e-9)
            let (first, last) = segment.isReversed ? (segment.source.end, segment.source.start) : (segment.source.start, segment.source.end)
            #expect(abs(points.first!.value - first.doubleSeconds) < 1e-9 && abs(points.last!.value - last.doubleSeconds) < 1e-9,
                    "clip \(index + 1): values \(points.map(\.value))")
            #expect(zip(points, points.dropFirst()).allSatisfy { $0.time < $1.time })
            let steps = zip(points, points.dropFirst()).map { $1.value - $0.value }
            if segment.isReversed {
                print("reversed asset-clip \(index + 1): offset \(offset) s, start \(clip["start"]!) s, timepts \(points)")
                #expect(steps.allSatisfy { $0 < 0 })
                #expect(abs(points.last!.time - points.first!.time - duration) < 1e-9, "the map spans the clip")
            } else if segment.isHold {
                #expect(steps.allSatisfy { $0 == 0 })
            } else {
                #expect(steps.allSatisfy { $0 > 0 })
            }
        }
    }
}
