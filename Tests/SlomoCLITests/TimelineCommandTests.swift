import Foundation
import SlomoTestSupport
import Testing

/// `slomo timeline` and `--timeline`, judged by the editors' own code: the OpenTimelineIO
/// library and its FCPXML adapter, xmllint, and MLT's `melt` rendering the `.mlt`.
@Suite struct TimelineCommandTests {
    /// One frame of the 240 fps fixture.
    static let frame = 1.0 / 240

    /// `slomo plan … --json`'s segments.
    static func planSegments(_ arguments: [String]) throws -> [[String: Any]] {
        let result = try Slomo.run(["plan"] + arguments + ["--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        return try #require(root["segments"] as? [[String: Any]])
    }

    static func writeTimeline(_ sections: [String], _ name: String, _ options: [String] = [],
                              fixture: Fixture = .flashAndBeep) throws -> (source: String, path: String) {
        let source = try fixture.path
        let path = try FixtureCache.shared.scratchFolder("cli-timeline").appendingPathComponent(name).path
        let result = try Slomo.run(["timeline", source] + sections.flatMap { ["--section", $0] } + ["-o", path, "--overwrite"] + options)
        #expect(result.status == 0, "\(result.standardError)")
        print(result.standardOutput, terminator: "")
        return (source, path)
    }

    @Test(arguments: [["2-4x0.25"], ["2-4x0.25:ramp=0.3", "6-8x2"], ["1-3x1/3", "5-6x0.125:ramp-out=0.2"],
                      ["2-4x0.25:ramp=0.3:ease=in-out", "6-8x2:ramp=0.5:ease=cubic-bezier(0.1,0.7,0.4,1)"]])
    func otioLibraryComputesThePlannedTiming(sections: [String]) throws {
        let (source, path) = try Self.writeTimeline(sections, "plan.otio")
        let clips = try Python.otioClips(path)
        let segments = try Self.planSegments([source] + sections.flatMap { ["--section", $0] })
        var index = 0
        for segment in segments {
            let (sourceStart, sourceEnd) = (JSONTime.seconds(segment["sourceStart"])!, JSONTime.seconds(segment["sourceEnd"])!)
            let (outputStart, outputEnd) = (JSONTime.seconds(segment["outputStart"])!, JSONTime.seconds(segment["outputEnd"])!)
            var mediaAt = sourceStart, trackAt = outputStart
            // A constant segment is one clip; a ramp is steps that tile it.
            repeat {
                let clip = clips[index]
                let start = clip["start"] as! Double, duration = clip["duration"] as! Double, scalar = clip["scalar"] as! Double
                #expect(abs(start - mediaAt) < Self.frame / 2, "clip \(index + 1) starts at \(start) s of media, plan \(mediaAt)")
                #expect(abs((clip["at"] as! Double) - trackAt) < Self.frame / 2, "clip \(index + 1) sits at \(clip["at"]!)")
                #expect(URL(string: clip["url"] as! String)?.path == URL(fileURLWithPath: source).standardizedFileURL.path)
                if segment["rampFrom"] == nil {
                    #expect(abs(scalar - (segment["rate"] as! Double)) < 1e-9)
                    #expect(abs(duration - (outputEnd - outputStart)) < Self.frame / 2)
                } else {
                    let (from, to) = (segment["rampFrom"] as! Double, segment["rampTo"] as! Double)
                    #expect(scalar >= min(from, to) - 1e-9 && scalar <= max(from, to) + 1e-9)
                }
                mediaAt = start + duration * scalar
                trackAt += duration
                index += 1
            } while trackAt < outputEnd - Self.frame / 2
            #expect(abs(mediaAt - sourceEnd) < 1e-6, "media used ends at \(mediaAt), plan \(sourceEnd)")
            // Clips are placed on whole frames: an eased ramp's end moves to the nearest one.
            #expect(abs(trackAt - outputEnd) < Self.frame / 2)
        }
        #expect(index == clips.count)
        print("otio \(sections): \(clips.count) clips for \(segments.count) segments")
    }

    /// What the OTIO library writes for the edit `--section 2-4x0.25` (three clips, the middle
    /// one at time scalar 0.25) plans the same time map as the section itself.
    /// A timeline the OTIO library writes: `clips` is Python that appends to `track` (a video
    /// track) clips of `source` (the flash-and-beep clip's path), with `rt(frames)` at 240 fps.
    static func libraryTimeline(_ name: String, clips: String) throws -> String {
        let path = try FixtureCache.shared.scratchFolder("cli-timeline").appendingPathComponent(name).path
        _ = try Python.run("""
            import sys
            import opentimelineio as otio
            source = sys.argv[1]
            rt = lambda frames: otio.opentime.RationalTime(frames, 240)
            track = otio.schema.Track(kind=otio.schema.TrackKind.Video)
            \(clips)
            timeline = otio.schema.Timeline(name="library")
            timeline.tracks.append(track)
            otio.adapters.write_to_file(timeline, sys.argv[2])
            """, [try Fixture.flashAndBeep.path, path])
        return path
    }

    @Test func otioWrittenByTheLibraryPlansTheSameTimeMap() throws {
        let source = try Fixture.flashAndBeep.path
        let path = try Self.libraryTimeline("library.otio", clips: """
            for start, duration, scalar in [(0, 480, 1), (480, 1920, 0.25), (960, 1440, 1)]:
                clip = otio.schema.Clip(name="clip", source_range=otio.opentime.TimeRange(rt(start), rt(duration)),
                                        media_reference=otio.schema.ExternalReference(target_url="file://" + source))
                if scalar != 1:
                    clip.effects.append(otio.schema.LinearTimeWarp(time_scalar=scalar))
                track.append(clip)
            """)
        let fromLibrary = try Self.planSegments([path])
        let fromSection = try Self.planSegments([source, "--section", "2-4x0.25"])
        #expect(NSArray(array: fromLibrary) == NSArray(array: fromSection))
    }

    /// slomo's own `.otio` keeps the exact ramps in metadata: planning it gives the same map.
    @Test func slomoOTIOPlansTheSameTimeMapWithRamps() throws {
        let sections = ["2-4x0.25:ramp=0.3", "6-8x1/3:ramp-in=0.1:ease=smooth:audio=varispeed"]
        let (source, path) = try Self.writeTimeline(sections, "ramps.otio")
        let read = try Self.planSegments([path])
        let planned = try Self.planSegments([source] + sections.flatMap { ["--section", $0] })
        #expect(NSArray(array: read) == NSArray(array: planned))
    }

    /// MLT's `melt` renders the `.mlt`; every flash of the flash-and-beep clip shows within one
    /// frame of where `slomo plan` puts its source time.
    @Test(arguments: [(["2-4x0.25", "6-8x0.3"], []), (["2-4x0.25:ramp=0.3:ease=smooth", "6-8x0.3:ramp-in=0.4:ease=out"], []),
                      (["2-4x0.25"], ["--freeze", "5:1.5", "--freeze", "8:0.5"])])
    func meltShowsEveryFlashOnItsPlannedFrame(sections: [String], options: [String]) throws {
        try Self.meltShowsEveryFlash(sections, within: Self.frame, options: options)
    }

    /// The OTIO library reads a freeze frame as slomo writes it: a FreezeFrame clip holding the
    /// frame at 5 s for 1.5 s, in its place in the track; slomo reads it back to the same plan.
    @Test func otioLibraryReadsAFreezeFrame() throws {
        let (source, path) = try Self.writeTimeline(["2-4x0.25"], "freeze.otio", ["--freeze", "5:1.5"])
        let clips = try #require(try Python.json("""
            import json, sys
            import opentimelineio as otio
            timeline = otio.adapters.read_from_file(sys.argv[1])
            print(json.dumps([{"at": c.range_in_parent().start_time.to_seconds(), "start": c.source_range.start_time.to_seconds(),
                               "duration": c.source_range.duration.to_seconds(),
                               "freeze": any(isinstance(e, otio.schema.FreezeFrame) for e in c.effects)}
                              for c in timeline.video_tracks()[0].find_clips()]))
            """, [path]) as? [[String: Any]])
        let frozen = clips.filter { $0["freeze"] as? Bool == true }
        #expect(frozen.count == 1)
        #expect(abs((frozen.first?["at"] as? Double ?? 0) - 11) < 1e-9, "placed after 2 s + 8 s + 1 s of the clip")
        #expect(abs((frozen.first?["start"] as? Double ?? 0) - 5) < 1e-9 && abs((frozen.first?["duration"] as? Double ?? 0) - 1.5) < 1e-9)
        let read = try Self.planSegments([path])
        let planned = try Self.planSegments([source, "--section", "2-4x0.25", "--freeze", "5:1.5"])
        #expect(NSArray(array: read) == NSArray(array: planned))
    }

    /// A 24 fps project of the 240 fps clip: every OTIO clip and ramp step lies on whole
    /// project frames (its place and its length), the media each uses tiles the source, and
    /// melt shows every flash within one project frame of the plan (flashes of 16 source
    /// frames: a 24 fps project shows one source frame in ten, and could miss a single one).
    @Test func aTwentyFourFrameTimelineLiesOnWholeFrames() throws {
        let sections = ["2-4x0.25:ramp=0.3:ease=smooth", "6-8x0.3:ramp-in=0.4"]
        let (_, path) = try Self.writeTimeline(sections, "project24.otio", ["--timeline-rate", "24"])
        let clips = try #require(try Python.json("""
            import json, sys
            import opentimelineio as otio
            timeline = otio.adapters.read_from_file(sys.argv[1])
            clips = []
            for clip in timeline.video_tracks()[0].find_clips():
                warp = [e.time_scalar for e in clip.effects if isinstance(e, otio.schema.LinearTimeWarp)]
                clips.append({"at": clip.range_in_parent().start_time.rescaled_to(24).value,
                              "frames": clip.source_range.duration.rescaled_to(24).value,
                              "start": clip.source_range.start_time.to_seconds(),
                              "media": clip.source_range.duration.to_seconds() * (warp[0] if warp else 1)})
            print(json.dumps(clips))
            """, [path]) as? [[String: Any]])
        var mediaAt = 0.0
        for (index, clip) in clips.enumerated() {
            let at = clip["at"] as! Double, frames = clip["frames"] as! Double
            #expect(at == at.rounded() && frames == frames.rounded() && frames >= 1, "clip \(index + 1): at \(at), \(frames) frames")
            #expect(abs((clip["start"] as! Double) - mediaAt) < 1e-6, "clip \(index + 1) enters the media at \(clip["start"]!)")
            mediaAt = (clip["start"] as! Double) + (clip["media"] as! Double)
        }
        #expect(abs(mediaAt - 10) < 1e-6)
        print("24 fps project: \(clips.count) clips, all on whole frames")
        try Self.meltShowsEveryFlash(sections, within: 1.0 / 24, options: ["--timeline-rate", "24"], fixture: .wideFlashAndBeep)
    }

    /// Renders the `.mlt` of `sections` with melt and checks every flash of the flash-and-beep
    /// clip against the plan.
    static func meltShowsEveryFlash(_ sections: [String], within tolerance: Double, options: [String] = [],
                                    fixture: Fixture = .flashAndBeep) throws {
        let (source, path) = try Self.writeTimeline(sections, "flash.mlt", options, fixture: fixture)
        let rendered = URL(fileURLWithPath: path).deletingPathExtension().path + "-melt.mov"
        try? FileManager.default.removeItem(atPath: rendered)
        let melt = try runCommand("melt", ["-quiet", path, "-consumer", "avformat:\(rendered)", "vcodec=libx264",
                                           "preset=ultrafast", "an=1"])
        #expect(melt.status == 0, "\(melt.standardError)")
        // The plan of the same edit: the options but the project rate, which only the timeline has.
        let rate = options.firstIndex(of: "--timeline-rate")
        let editOptions = rate.map { Array(options[..<$0] + options[($0 + 2)...]) } ?? options
        let segments = try Self.planSegments([source] + sections.flatMap { ["--section", $0] } + editOptions)
        let expected = (0..<10).map { k -> Double in
            let time = Double(k) + 0.5
            let segment = segments.first { JSONTime.seconds($0["sourceStart"])! <= time && time < JSONTime.seconds($0["sourceEnd"])! }!
            return JSONTime.seconds(segment["outputStart"])! + (time - JSONTime.seconds(segment["sourceStart"])!) / (segment["rate"] as! Double)
        }
        let flashes = try SyncProbe.flashTimes(rendered)
        let onsets = flashes.enumerated().filter { index, time in index == 0 || time - flashes[index - 1] > 0.1 }.map(\.element)
        #expect(onsets.count == expected.count, "\(onsets)")
        let errors = zip(onsets, expected).map { abs($0 - $1) }
        print("melt \(options): flash offsets (ms) \(errors.map { String(format: "%.2f", $0 * 1000) })")
        #expect(errors.allSatisfy { $0 <= tolerance + 1e-6 })
    }

    /// xmllint finds the `.fcpxml` well-formed, and OTIO's FCPXML adapter reads one clip per
    /// segment placed and entering the media where the plan says; the timeMap's first and
    /// last points are the segment's source edges.
    @Test(arguments: [(["2-4x0.25:ramp=0.3", "6-8x2"], []), (["2-4x0.25:ramp=0.3:ease=smooth", "6-8x2:ramp=0.2:ease=in"], []),
                      (["2-4x0.25"], ["--freeze", "5:1.5"])])
    func fcpxmlReadsWithThePlannedTiming(sections: [String], options: [String]) throws {
        let (source, path) = try Self.writeTimeline(sections, "edit.fcpxml", options)
        let lint = try runCommand("xmllint", ["--noout", path])
        #expect(lint.status == 0, "\(lint.standardError)")
        let clips = try #require(try Python.json("""
            import json, sys
            import opentimelineio as otio
            import xml.etree.ElementTree as ET
            read = otio.adapters.read_from_file(sys.argv[1], adapter_name="fcpx_xml")
            timeline = next(item for item in read if isinstance(item, otio.schema.Timeline))
            clips = [{"start": c.source_range.start_time.to_seconds(), "duration": c.source_range.duration.to_seconds(),
                      "at": c.range_in_parent().start_time.to_seconds()} for c in timeline.video_tracks()[0].find_clips()]
            seconds = lambda text: (lambda n, d=1: float(n) / float(d))(*text.rstrip("s").split("/"))
            for clip, element in zip(clips, ET.parse(sys.argv[1]).getroot().iter("asset-clip")):
                points = element.find("timeMap").findall("timept")
                clip["first"], clip["last"] = seconds(points[0].get("value")), seconds(points[-1].get("value"))
            print(json.dumps(clips))
            """, [path]) as? [[String: Any]])
        let segments = try Self.planSegments([source] + sections.flatMap { ["--section", $0] } + options)
        #expect(clips.count == segments.count)
        for (clip, segment) in zip(clips, segments) {
            #expect(abs((clip["at"] as! Double) - JSONTime.seconds(segment["outputStart"])!) < Self.frame / 2)
            // Each edge of the clip within half a frame of the plan's (eased ramps end between frames).
            let end = (clip["at"] as! Double) + (clip["duration"] as! Double)
            #expect(abs(end - JSONTime.seconds(segment["outputEnd"])!) < Self.frame / 2, "ends at \(end)")
            #expect(abs((clip["start"] as! Double) - JSONTime.seconds(segment["sourceStart"])!) < Self.frame / 2)
            #expect(abs((clip["first"] as! Double) - JSONTime.seconds(segment["sourceStart"])!) < 1e-9)
            #expect(abs((clip["last"] as! Double) - JSONTime.seconds(segment["sourceEnd"])!) < 1e-9)
        }
    }

    @Test func retimeWritesATimelineBesideTheMovie() throws {
        let folder = try FixtureCache.shared.scratchFolder("cli-timeline-retime")
        let movie = folder.appendingPathComponent("slow.mov").path, otio = folder.appendingPathComponent("slow.otio").path
        let result = try Slomo.run(["retime", try Fixture.flashAndBeep.path, "--section", "2-4x0.25", "-o", movie,
                                    "--timeline", otio, "--overwrite", "--quiet"])
        #expect(result.status == 0, "\(result.standardError)")
        let clips = try Python.otioClips(otio)
        #expect(clips.map { $0["scalar"] as! Double } == [1, 0.25, 1])
        let rerun = try Slomo.run(["timeline", try Fixture.flashAndBeep.path, "--section", "2-4x0.25", "-o", otio])
        #expect(rerun.status != 0 && rerun.standardError.contains("already exists"), "an existing timeline is kept")
    }

    @Test func outputMustNameAFormat() throws {
        let result = try Slomo.run(["timeline", try Fixture.flashAndBeep.path, "--section", "2-4x0.25", "-o", "edit.xml"])
        #expect(result.status == 64)
        #expect(result.standardError.contains(".otio, .fcpxml or .mlt"))
    }

    @Test func otioThatCannotBeHonouredNamesTheClip() throws {
        let path = try Self.libraryTimeline("gap.otio", clips: """
            track.append(otio.schema.Clip(name="first", source_range=otio.opentime.TimeRange(rt(0), rt(240)),
                                          media_reference=otio.schema.ExternalReference(target_url=source)))
            track.append(otio.schema.Gap(source_range=otio.opentime.TimeRange(rt(0), rt(24))))
            """)
        let result = try Slomo.run(["export", path, "--cfr", "30", "-o", path + ".mp4"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("clip 2: is a gap"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: path + ".mp4"))
    }
}
