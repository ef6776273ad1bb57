import Foundation
import Testing
@testable import SlomoCore
import SlomoScript

@Suite struct EditScriptTests {
    static let example = """
        slomo: 1
        clips:
          - source: takes/serve.mov
            start: 00:00:01.500
            end: end
            sections:
              - start: 2
                end: 4
                rate: 0.25
                ramp: 0.3
                ease: smooth
                audio: spectral
              - start: f1200
                end: f1440
                rate: "1/3"
                ramp-in: 0.2
                frames: blend
              - "8-endx2:ramp-in=0.5:ease=cubic-bezier(0.25,0.1,0.25,1):audio=varispeed"
            freeze: {at: 7, for: 1.5, audio: freeze}
          - source: /media/crowd.mov
            sections: [{start: 2, end: 3, rate: -0.5}, "3.5-4x-1"]
            freeze:
              - {at: 1, for: 0.5}
              - {at: f48, for: 2}
            end: 5
        output:
          mode: cfr
          fps: 30000/1001
          codec: hevc
          frames: auto
          size: 1920x1080
          scaling: aspect-fill
          audio:
            algorithm: time-domain
            codec: aac
            spectral-engine: rubberband
        """

    func t(_ value: Int64, _ scale: Int64 = 1) -> MediaTime { MediaTime(value: value, timescale: scale) }

    @Test func readsTheExample() throws {
        let script = try EditScript(parsing: Self.example, baseDirectory: "/work/edits")
        #expect(script.clips.count == 2)
        let serve = script.clips[0]
        #expect(script.sourcePath(of: serve) == "/work/edits/takes/serve.mov")
        #expect(script.sourcePath(of: script.clips[1]) == "/media/crowd.mov")
        #expect(serve.start == .time(t(3, 2)) && serve.end == .end)
        #expect(serve.sections.map(\.description) == ["2-4x0.25:ramp=0.3:ease=smooth:audio=spectral",
                                                      "f1200-f1440x1/3:ramp-in=0.2:frames=blend",
                                                      "8-endx2:ramp-in=0.5:ease=cubic-bezier(0.25,0.1,0.25,1):audio=varispeed"])
        #expect(serve.freezes == [FreezeSpec(at: .time(t(7)), duration: t(3, 2), audio: .freeze)])
        #expect(script.clips[1].freezes == [FreezeSpec(at: .time(t(1)), duration: t(1, 2)), FreezeSpec(at: .frame(48), duration: t(2))])
        #expect(script.clips[1].start == .time(.zero) && script.clips[1].end == .time(t(5)))
        #expect(script.clips[1].sections.map(\.description) == ["2-3x-0.5", "3.5-4x-1"])
        #expect(script.output == OutputSettings(mode: .cfr, fps: Rational(30000, 1001), codec: "hevc", frames: .auto,
                                                size: .init(width: 1920, height: 1080), scaling: .aspectFill,
                                                audio: .timeDomain, audioCodec: "aac", spectralEngine: .rubberBand))
    }

    @Test func writtenScriptsReadBackEqual() throws {
        let script = try EditScript(parsing: Self.example)
        let yaml = script.yaml(), json = script.json()
        #expect(try EditScript(parsing: yaml) == script)
        #expect(try EditScript(parsing: json) == script)
        #expect(try EditScript(parsing: yaml).yaml() == yaml)
        #expect(json.contains("\"rate\": \"1/3\"") && json.contains("\"fps\": \"30000/1001\""))
        #expect(yaml.contains("start: \"00:00:01.500\"") == false)   // written as exact seconds
        #expect(yaml.contains("start: 1.5"))
        #expect(yaml.contains("rate: -0.5") && yaml.contains("rate: -1"), "reversed sections keep their negative rates")
    }

    /// `auto` among a clip's sections (the moments `slomo detect` finds, resolved by
    /// `EditInput`) is kept as written, read back equal, and refused by `composition` until
    /// resolved; a malformed one names its place.
    @Test func autoSectionsAreKeptUntilResolved() throws {
        let text = "slomo: 1\nclips:\n  - source: take.mov\n    sections: [1-2x0.5, \"auto:x0.25:count=2\"]\n"
        let script = try EditScript(parsing: text)
        #expect(script.clips[0].sections.map(\.description) == ["1-2x0.5"])
        #expect(script.clips[0].autoSections.map(\.text) == ["auto:x0.25:count=2"])
        #expect(script.clips[0].autoSections.first?.count == 2)
        #expect(try EditScript(parsing: script.yaml()) == script)
        #expect(try EditScript(parsing: script.json()) == script)
        let unresolved = #expect(throws: TimeModelError.self) {
            try script.composition(sources: [EditScript.SourceInfo(duration: MediaTime(value: 10, timescale: 1), frameRate: Rational(240))])
        }
        #expect(unresolved?.subject == "clips[0].sections")
        let bad = #expect(throws: TimeModelError.self) {
            try EditScript(parsing: "slomo: 1\nclips:\n  - source: take.mov\n    sections: [\"auto:before=-1\"]\n")
        }
        #expect(bad?.subject?.hasPrefix("clips[0].sections[0]") == true, "\(String(describing: bad))")
    }

    @Test func loadsAndSavesFilesRelativeToTheScript() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slomo-script-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder + "/takes", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = FileManager.default.createFile(atPath: folder + "/takes/a.mov", contents: Data())
        let script = EditScript(clips: [.init(source: "takes/a.mov", sections: [try SectionSpec(parsing: "2-4x0.25")])])
        for name in ["edit.yaml", "edit.yml", "edit.json"] {
            try script.write(to: "\(folder)/\(name)")
            let loaded = try EditScript(contentsOf: "\(folder)/\(name)")
            #expect(loaded == script)
            #expect(loaded.sourcePath(of: loaded.clips[0]) == folder + "/takes/a.mov")
        }
        let missing = EditScript(clips: [.init(source: "takes/b.mov")])
        try missing.write(to: folder + "/missing.yaml")
        // The script's path and the line of the place (`- source: takes/b.mov`, line 3).
        var missingSource = TimeModelError(.missingFile, "source file \(folder)/takes/b.mov does not exist",
                                           subject: "\(folder)/missing.yaml:3: clips[0].source")
        missingSource.line = 3
        #expect(throws: missingSource) { try EditScript(contentsOf: folder + "/missing.yaml") }
        #expect(throws: TimeModelError(.missingFile, "no such file, or it cannot be read", subject: folder + "/nope.yaml")) {
            try EditScript(contentsOf: folder + "/nope.yaml")
        }
        #expect { try EditScript(contentsOf: folder + "/edit.txt") } throws: { ($0 as! TimeModelError).kind == .invalidValue }
    }

    @Test func becomesACompositionOnceSourcesAreKnown() throws {
        let script = try EditScript(parsing: Self.example, baseDirectory: "/work/edits")
        let composition = try script.composition(sources: [.init(duration: t(10), frameRate: Rational(240)),
                                                           .init(duration: t(60), frameRate: Rational(24))])
        #expect(composition.clips.map(\.range) == [TimeRange(start: t(3, 2), end: t(10)), TimeRange(start: .zero, end: t(5))])
        #expect(composition.clips[0].sections.map(\.range) == [TimeRange(start: t(2), end: t(4)),
                                                               TimeRange(start: t(5), end: t(6)),
                                                               TimeRange(start: t(8), end: t(10))])
        #expect(composition.clips[0].source == "/work/edits/takes/serve.mov")
        #expect(composition.clips[1].freezes.map(\.at) == [t(1), t(2)])
        // 5 s, the 0.5 s and 2 s holds, and 2-3 s backwards at half speed lasting 1 s more.
        #expect(try composition.timeMap().entries[1].map.outputDuration == t(17, 2))
    }

    @Test(arguments: [
        ("slomo: 2\nclips: []", TimeModelError.Kind.unsupportedVersion,
         "slomo: version 2 is not supported; this slomo reads version 1"),
        ("slomo: one\nclips: []", .wrongType, "slomo: expected an integer, found the text 'one'"),
        ("clips: []", .missingKey, "document: missing required key 'slomo'"),
        ("slomo: 1\nclips: []\nspeed: 2", .unknownKey, "speed: unknown key 'speed'; expected one of slomo, clips, output"),
        ("slomo: 1\nclips: []", .emptyRange, "clips: the script has no clips"),
        ("slomo: 1\nclips: {}", .wrongType, "clips: expected a list, found a mapping"),
        ("slomo: 1\nclips:\n  - path: a.mov", .unknownKey,
         "clips[0].path: unknown key 'path'; expected one of source, start, end, sections, freeze"),
        ("slomo: 1\nclips:\n  - start: 1", .missingKey, "clips[0]: missing required key 'source'"),
        ("slomo: 1\nclips:\n  - source: 3", .wrongType, "clips[0].source: expected a file path, found 3"),
        ("slomo: 1\nclips:\n  - source: a.mov\n  - source: b.mov\n    sections:\n      - {start: 1, end: 2, rate: [1]}",
         .wrongType, "clips[1].sections[0].rate: expected a rate (a number such as 0.25 or -1, or a fraction such as \"1/4\"), found a list"),
        ("slomo: 1\nclips:\n  - source: a.mov\n    sections:\n      - {start: 1, end: 2, rate: fast}",
         .wrongType, "clips[0].sections[0].rate: expected a rate (a number such as 0.25 or -1, or a fraction such as \"1/4\"), found the text 'fast'"),
        ("slomo: 1\nclips:\n  - source: a.mov\n    sections:\n      - {start: 1, end: 2, rate: 0}",
         .nonPositiveRate, "clips[0].sections[0].rate: rate 0 would stop time; hold a frame with a freeze (--freeze T:D) instead"),
        ("slomo: 1\nclips:\n  - source: a.mov\n    sections:\n      - {start: 1, end: 2, rate: 40}",
         .rateOutOfRange, "clips[0].sections[0].rate: rate 40 is outside the allowed 1/32 … 32"),
        ("slomo: 1\nclips:\n  - source: a.mov\n    sections:\n      - {start: 3, end: 2, rate: 2}",
         .emptyRange, "clips[0].sections[0]: start 3 s must be before end 2 s"),
        ("slomo: 1\nclips:\n  - source: a.mov\n    sections:\n      - {start: 1, end: 2, rate: 2, ramp: 0.6}",
         .rampTooLong, "clips[0].sections[0]: ramps of 0.6 s + 0.6 s are longer than the section's 1 s"),
        ("slomo: 1\nclips:\n  - source: a.mov\n    sections:\n      - {start: 1, end: 2, rate: 2, speed: 2}",
         .unknownKey, "clips[0].sections[0].speed: unknown key 'speed'; expected one of start, end, rate, ramp, ramp-in, ramp-out, ease, audio, pitch, frames"),
        ("slomo: 1\nclips:\n  - source: a.mov\n    sections:\n      - {start: 1, end: 2, rate: 2, ramp: 0.2, ease: bouncy}",
         .invalidValue, "clips[0].sections[0].ease: unknown ease 'bouncy'; expected linear, smooth, in, out, in-out or cubic-bezier(x1,y1,x2,y2)"),
        ("slomo: 1\nclips:\n  - source: a.mov\n    sections:\n      - {start: 1, end: 2, rate: 2, ease: smooth}",
         .invalidValue, "clips[0].sections[0]: ease=smooth needs a ramp to shape: add :ramp=0.3 or the like"),
        ("slomo: 1\nclips:\n  - source: a.mov\n    sections:\n      - {start: true, end: 2, rate: 2}",
         .wrongType, "clips[0].sections[0].start: expected a time (seconds such as 2.5 or 1500ms, a timecode, f480 or end), found a boolean (true)"),
        ("slomo: 1\nclips:\n  - source: a.mov\n    sections:\n      - {start: 1, end: 3, rate: 2}\n      - 2-4x0.5",
         .overlap, "clips[0].sections[1]: overlaps clips[0].sections[0]"),
        ("slomo: 1\nclips:\n  - source: a.mov\n    sections:\n      - 2-4x0",
         .nonPositiveRate, "clips[0].sections[0]: section '2-4x0': rate 0 would stop time; hold a frame with a freeze (--freeze T:D) instead"),
        ("slomo: 1\nclips:\n  - source: a.mov\noutput: {mode: fast}",
         .invalidValue, "output.mode: 'fast' is not one of passthrough, cfr"),
        ("slomo: 1\nclips:\n  - source: a.mov\noutput: {size: 1280}",
         .wrongType, "output.size: expected a size such as 1280x720, found 1280"),
        ("slomo: 1\nclips:\n  - source: a.mov\noutput: {audio: {algorithm: spectral, bitrate: 128}}",
         .unknownKey, "output.audio.bitrate: unknown key 'bitrate'; expected one of algorithm, codec, spectral-engine"),
        ("{\"slomo\": 1, \"clips\": [{\"source\": \"a.mov\", \"sections\": [{\"start\": 1, \"end\": 2, \"rate\": \"x\"}]}]}",
         .wrongType, "clips[0].sections[0].rate: expected a rate (a number such as 0.25 or -1, or a fraction such as \"1/4\"), found the text 'x'"),
        ("slomo: [1", .unparseable, nil),
    ] as [(String, TimeModelError.Kind, String?)])
    func badScripts(text: String, kind: TimeModelError.Kind, message: String?) {
        #expect {
            _ = try EditScript(parsing: text)
        } throws: { error in
            let error = error as! TimeModelError
            return error.kind == kind && (message == nil || error.description == message)
        }
    }

    @Test func sectionPastTheClipsEndGivesItsDuration() throws {
        let script = try EditScript(parsing: "slomo: 1\nclips:\n  - source: a.mov\n    sections:\n      - 8-12x2")
        #expect {
            _ = try script.composition(sources: [.init(duration: t(10), frameRate: nil)]).timeMap()
        } throws: { error in
            (error as? TimeModelError)?.description
                == "clips[0].sections[0]: ends at 12 s, past the clip's end at 10 s (the clip lasts 10 s)"
        }
        let longClip = try EditScript(parsing: "slomo: 1\nclips:\n  - source: a.mov\n    end: 12")
        #expect(throws: TimeModelError(.pastEnd, "ends at 12 s, past the end of a.mov, which lasts 10 s", subject: "clips[0].end")) {
            try longClip.composition(sources: [.init(duration: t(10), frameRate: nil)])
        }
    }
}

