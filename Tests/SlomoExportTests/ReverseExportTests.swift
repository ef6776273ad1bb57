import Foundation
import SlomoCore
import SlomoExport
import SlomoMedia
import SlomoTestSupport
import Testing

/// Reversed sections exported: pictures backwards in CFR (decoded GOP by GOP from the
/// section's end) and in passthrough of intra-only video (packets reordered), sound backwards
/// in sync, and the refusal of a long-GOP passthrough.
@Suite struct ReverseExportTests {
    /// 8 s at 240 fps whose every frame carries its number n = lo + 50·hi: the left half at
    /// luma 16 + 4·lo, the right half at 16 + 4·hi. GOPs of 0.2 s with B-frames.
    static var counter: String {
        get throws {
            let pattern = "color=c=black:size=160x120:rate=240:duration=8,format=gray,"
                + "geq=lum='if(lt(X,80),16+4*mod(N,50),16+4*floor(N/50))'"
            return try FixtureCache.shared.path(for: "counter240", extension: "mp4", arguments: [
                "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i", pattern,
                "-c:v", "libx264", "-preset", "ultrafast", "-crf", "0", "-pix_fmt", "yuv420p", "-g", "48", "-bf", "3"])
        }
    }

    /// 3 s at 24 fps of a white bar 8 px wide moving right 2 px a frame over black (x = 2n + 2:
    /// overlay counts from 1), GOPs of 0.5 s.
    static var slowBar: String {
        get throws {
            let bar = "color=c=black:size=160x120:rate=24:duration=3[bg];color=c=white:size=8x120:rate=24:duration=3[bar];"
                + "[bg][bar]overlay=x='n*2':y=0:shortest=1,format=yuv420p"
            return try FixtureCache.shared.path(for: "slowBar24", extension: "mp4", arguments: [
                "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i", bar,
                "-c:v", "libx264", "-preset", "ultrafast", "-crf", "0", "-g", "12"])
        }
    }

    /// The long-flash clip with its pictures coded intra-only (`codec`: ProRes, MJPEG or
    /// all-intra H.264) and its sound in PCM.
    static func intraOnly(_ codec: [String]) throws -> String {
        try FixtureCache.shared.path(for: "longFlashAndBeepIntra", extension: "mov", arguments: [
            "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", try Fixture.longFlashAndBeep.path]
            + codec + ["-c:a", "pcm_s16le"])
    }

    static func export(_ input: String, sections: [String], cfr: Rational?, frames: FrameChoice = .auto,
                       audio: TimePitchAlgorithm = .spectral, name: String) throws -> (path: String, map: TimeMap) {
        let composition = try Composition(retiming: try MediaFile(path: input), sections: sections)
        let output = try FixtureCache.shared.scratchFolder("reverse").appendingPathComponent(name).path
        let settings = ExportSettings(mode: cfr.map { .constantFrameRate($0) } ?? .passthrough, audioAlgorithm: audio)
        var video = VideoExportSettings()
        video.preset = "ultrafast"
        video.crf = 10
        video.frames = frames
        try ExportSession(composition: composition, to: output, settings: settings, video: video).run()
        return (output, try composition.clips[0].timeMap())
    }

    /// Where the map shows what the source shows over `[start, end)`: from `start`'s output
    /// time forwards, from `end`'s through a reversed section (its end shows first).
    static func outputStart(of start: MediaTime, _ end: MediaTime, in map: TimeMap) -> Double {
        let segment = map.segments[map.segmentIndex(containingSource: start)]
        return (segment.isReversed ? segment.outputTime(at: end) : map.outputTime(at: start)).doubleSeconds
    }

    /// Every flash (8 frames from k + 0.5 s) within a frame period and every beep (10 ms from
    /// k + 0.5 s) within 2 ms of where the map shows it.
    static func checkSync(_ path: String, map: TimeMap, flashTolerance: Double, label: String) throws {
        func seconds(_ n: Int64, _ d: Int64) -> MediaTime { MediaTime(seconds: Rational(n, d)) }
        let flashes = (0..<10).map { Int64($0) }.map { k in
            outputStart(of: seconds(2 * k + 1, 2), seconds(2 * k + 1, 2) + seconds(8, 240), in: map)
        }.sorted()
        let beeps = (0..<10).map { Int64($0) }.map { k in
            outputStart(of: seconds(2 * k + 1, 2), seconds(2 * k + 1, 2) + seconds(1, 100), in: map)
        }.sorted()
        let seenFlashes = try SyncProbe.flashTimes(path).reduce(into: [Double]()) { runs, time in
            if let last = runs.last, time - last < 0.1 { return }    // one flash spans several output frames
            runs.append(time)
        }
        let seenBeeps = try SyncProbe.beepOnsets(path)
        #expect(seenFlashes.count == 10 && seenBeeps.count == 10, "\(label): flashes \(seenFlashes), beeps \(seenBeeps)")
        let flashErrors = zip(seenFlashes, flashes).map { abs($0 - $1) }, beepErrors = zip(seenBeeps, beeps).map { abs($0 - $1) }
        print("\(label): worst flash offset \(String(format: "%.3f", (flashErrors.max() ?? .nan) * 1000)) ms, worst beep offset "
              + "\(String(format: "%.3f", (beepErrors.max() ?? .nan) * 1000)) ms; beeps at \(seenBeeps.map { String(format: "%.4f", $0) })")
        #expect(flashErrors.allSatisfy { $0 <= flashTolerance })
        #expect(beepErrors.allSatisfy { $0 <= 0.002 })
    }

    /// The pictures of `path` as 160x120 grey.
    static func greyFrames(_ path: String) throws -> [[UInt8]] {
        let (status, data, _) = try runCapturingFiles("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-f", "rawvideo",
                                                                 "-pix_fmt", "gray", "-"])
        #expect(status == 0)
        let size = 160 * 120
        return stride(from: 0, to: data.count - size + 1, by: size).map { Array(data[$0 ..< $0 + size]) }
    }

    /// The number a `counter` picture carries.
    static func counterValue(_ picture: [UInt8]) -> Int {
        func level(_ columns: Range<Int>) -> Int {
            var sum = 0
            for y in 20..<100 { for x in columns { sum += Int(picture[y * 160 + x]) } }
            return Int((Double(sum) / Double(80 * columns.count) - 16) / 4 + 0.5)
        }
        return level(10..<70) + 50 * level(90..<150)
    }

    /// `4-6x-1` at 30 fps: inside the section the frame numbers strictly fall, each the picture
    /// on screen backwards at its slot's source time (that time within the picture's display,
    /// so within half a source frame of its middle); outside it they are the forward ones.
    @Test func constantFrameRateShowsTheSectionBackwards() throws {
        let (output, map) = try Self.export(try Self.counter, sections: ["4-6x-1"], cfr: Rational(30), name: "counter.mp4")
        let pictures = try Self.greyFrames(output)
        #expect(pictures.count == 240)
        var worst = 0.0, reversedNumbers: [Int] = []
        let frame = Rational(1, 240)
        for (slot, picture) in pictures.enumerated() {
            let exact = map.sourceTime(at: MediaTime(seconds: Rational(Int64(slot), 30)))
            let time = exact.doubleSeconds
            let number = Self.counterValue(picture)
            let inSection = (120..<180).contains(slot)
            let expected = Int(inSection ? try exact.ticks(in: frame, rounding: .up) - 1 : try exact.ticks(in: frame, rounding: .down))
            #expect(number == expected, "slot \(slot): frame \(number), expected \(expected)")
            if inSection {
                reversedNumbers.append(number)
                worst = max(worst, abs((Double(number) + 0.5) / 240 - time) * 240)
            }
        }
        print("CFR 30 of 4-6x-1: frames \(reversedNumbers.prefix(4))… \(reversedNumbers.suffix(2)); worst distance of a slot's "
              + "source time from its picture's middle \(String(format: "%.3f", worst)) source frames")
        #expect(zip(reversedNumbers, reversedNumbers.dropFirst()).allSatisfy { $0 > $1 }, "strictly decreasing")
        #expect(reversedNumbers.first == 1439 && reversedNumbers.last == 967)
        #expect(worst <= 0.5 + 1e-9)
    }

    /// `0.5-2.5x-0.5` of a 24 fps clip at 30 fps makes 12 source pictures a second: optical flow
    /// (or a blend, whose bar's centroid moves as evenly) fills the slots between them, backwards: the bar moves left, each slot where the map puts
    /// it (x = 48·s at source time s: the picture shown backwards from s is the one before it,
    /// at 2·(24·s − 1) + 2), to the section's last slots.
    @Test(arguments: [FrameChoice.interpolate, .blend])
    func interpolationAndBlendingWorkBackwards(frames: FrameChoice) throws {
        let (output, map) = try Self.export(try Self.slowBar, sections: ["0.5-2.5x-0.5"], cfr: Rational(30), frames: frames,
                                            name: "bar-\(frames).mp4")
        let pictures = try Self.greyFrames(output)
        var worst = 0.0, between = 0
        var positions: [Double] = []
        for (slot, picture) in pictures.enumerated() {
            let outputTime = MediaTime(seconds: Rational(Int64(slot), 30))
            guard map.segments[map.segmentIndex(containingOutput: outputTime)].isReversed else { continue }
            let source = map.sourceTime(at: outputTime).doubleSeconds
            var weights = 0.0, moments = 0.0
            for x in 0..<160 {
                let column = (30..<90).reduce(0) { $0 + Int(picture[$1 * 160 + x]) }
                let brightness = max(0, Double(column) / 60 - 16)
                weights += brightness
                moments += brightness * Double(x)
            }
            let left = moments / weights - 3.5    // the bar's left edge from its centroid
            positions.append(left)
            worst = max(worst, abs(left - 48 * source))
            if abs(left / 2 - (left / 2).rounded()) > 0.1 { between += 1 }    // 4 slots in 5 fall between pictures
        }
        print("CFR 30 of 0.5-2.5x-0.5 at 24 fps, \(frames): \(positions.count) slots, bar at \(positions.prefix(5).map { String(format: "%.2f", $0) })…, "
              + "worst distance from the map \(String(format: "%.2f", worst)) px, \(between) slots between source pictures")
        #expect(positions.count == 120)
        #expect(zip(positions, positions.dropFirst()).allSatisfy { $0 > $1 }, "the bar moves left, every slot")
        #expect(worst <= 1.0)
        #expect(between >= 90, "4 slots in 5 are interpolated")
    }

    @Test func constantFrameRateKeepsSoundAndPicturesInSync() throws {
        // (Time-domain and low-latency place a click within a few ms forwards as backwards, by where it falls on their grains.)
        for audio in [TimePitchAlgorithm.spectral, .varispeed] {
            let (output, map) = try Self.export(try Fixture.longFlashAndBeep.path, sections: ["4-6x-1", "7-8x-0.5"], cfr: Rational(60),
                                                audio: audio, name: "sync-\(audio).mp4")
            try Self.checkSync(output, map: map, flashTolerance: 1.0 / 60 + 1e-6, label: "CFR 60, 4-6x-1 and 7-8x-0.5, \(audio)")
        }
    }

    /// Passthrough of `4-6x-0.5` of intra-only video: every packet copied bit for bit, the
    /// section's in reverse order, each shown for twice its length; sound and pictures in sync.
    @Test(arguments: [["-c:v", "prores_ks", "-profile:v", "0"], ["-c:v", "mjpeg", "-q:v", "3"],
                      ["-c:v", "libx264", "-preset", "ultrafast", "-g", "1"]])
    func passthroughReordersIntraOnlyPackets(codec: [String]) throws {
        let input = try Self.intraOnly(codec)
        let name = codec[1]
        let (output, map) = try Self.export(input, sections: ["4-6x-0.5"], cfr: nil, name: "\(name).mov")
        try Self.checkSync(output, map: map, flashTolerance: 2e-6, label: "\(name) passthrough 4-6x-0.5")
        let source = try PassthroughTimingTests.packetHashes(input)
        let copied = try PassthroughTimingTests.packetHashes(output)
        #expect(source.count == 2400)
        #expect(copied == Array(source[..<960]) + source[960..<1440].reversed() + Array(source[1440...]),
                "the section's packets in reverse order, bit for bit")
        let packets = try FFprobe.packets(output)
        let durations = Set(packets[960..<1440].map(\.duration))
        print("\(name) passthrough 4-6x-0.5: \(copied.count) packets, the reversed ones lasting \(durations) ticks")
        #expect(durations.count == 1)
    }

    @Test func passthroughOfLongGOPVideoIsRefusedWithTheWayOut() throws {
        let output = try FixtureCache.shared.scratchFolder("reverse").appendingPathComponent("refused.mov").path
        let result = try Slomo.run(["retime", try Fixture.longFlashAndBeep.path, "--section", "4-6x-1", "-o", output])
        print("retime of H.264 with 4-6x-1: exit \(result.status), \(result.standardError)")
        #expect(result.status == 64)
        #expect(result.standardError.contains("leans on others") && result.standardError.contains("add --cfr source"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// A 4K clip with GOPs of 15 pictures played backwards whole: the reversed export holds one
    /// GOP of decoded pictures more than the forward one (12.4 MB each), not the clip's.
    @Test func reversedDecodingHoldsOneGOP() throws {
        let input = try FixtureCache.shared.path(for: "uhd30gop15", extension: "mp4", arguments: [
            "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc2=size=3840x2160:rate=30:duration=2",
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "15", "-bf", "2"])
        let folder = try FixtureCache.shared.scratchFolder("reverse-memory")
        func peak(_ sections: [String]) throws -> Int {
            let report = folder.appendingPathComponent("time").path
            let arguments = ["-f", "%M", "-o", report, try Slomo.executable, "export", input, "--cfr", "30", "--size", "640x360",
                             "--preset", "ultrafast", "-o", folder.appendingPathComponent("out.mp4").path, "--overwrite"]
                + sections.flatMap { ["--section", $0] }
            let result = try runCommand("/usr/bin/time", arguments)
            #expect(result.status == 0, "\(result.standardError)")
            return (Int(try String(contentsOfFile: report, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) * 1024
        }
        let forward = try peak([]), backward = try peak(["0-2x-1"])
        let picture = 3840 * 2160 * 3 / 2
        print("4K, GOP 15: peak \(forward >> 20) MiB forwards, \(backward >> 20) MiB backwards (+\((backward - forward) >> 20) MiB; "
              + "one GOP is \((15 * picture) >> 20) MiB)")
        #expect(backward - forward <= 17 * picture, "at most a GOP and the decoder's two references more")
    }

    /// A reversed section cut by chunk joins: each chunk's backward decoding starts where its
    /// first slot needs, and the joined export is the single pass to the bit (FFV1).
    @Test func chunksOfAReversedSectionAreTheSinglePass() throws {
        let folder = try FixtureCache.shared.scratchFolder("reverse-chunks")
        func export(_ extra: [String], to name: String) throws -> [Substring] {
            let output = folder.appendingPathComponent(name).path
            let result = try Slomo.run(["export", try Self.counter, "--section", "2-5x-1", "--cfr", "30", "--codec", "ffv1",
                                        "-o", output] + extra)
            #expect(result.status == 0, "\(result.standardError)")
            return try runChecked("ffmpeg", ["-v", "error", "-i", output, "-map", "0:v", "-f", "framemd5", "-"]).standardOutput
                .split(separator: "\n").filter { !$0.hasPrefix("#") }
        }
        let single = try export([], to: "single.mkv"), joined = try export(["--chunks", "3"], to: "chunks.mkv")
        let differing = zip(joined, single).enumerated().filter { $1.0 != $1.1 }.map(\.offset)
        print("reversed section in 3 chunks (joins at output frames 80 and 160, the first inside it): \(joined.count) frames, "
              + "\(differing.count) differ from the single pass")
        #expect(single.count == 240 && joined.count == single.count)
        #expect(differing.isEmpty, "frames \(differing.prefix(10)) differ")
    }

    /// A boomerang: two clips over one range in an edit script, the second reversed: frames
    /// 480, 488, … up to 712, then 719, 711, … down to 487 (CFR 30 of a 240 fps clip).
    @Test func aBoomerangEditScriptPlaysForwardsThenBackwards() throws {
        let folder = try FixtureCache.shared.scratchFolder("boomerang")
        let script = folder.appendingPathComponent("boomerang.yaml").path
        try """
            slomo: 1
            clips:
              - {source: \(try Self.counter), start: 2, end: 3}
              - source: \(try Self.counter)
                start: 2
                end: 3
                sections: [{start: 2, end: 3, rate: -1}]
            output: {mode: cfr, fps: 30}
            """.write(toFile: script, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("boomerang.mp4").path
        let result = try Slomo.run(["export", script, "-o", output, "--preset", "ultrafast", "--crf", "10"])
        #expect(result.status == 0, "\(result.standardError)")
        let numbers = try Self.greyFrames(output).map(Self.counterValue)
        print("boomerang: \(numbers.count) frames: \(numbers.prefix(3))… \(numbers[28..<32]) … \(numbers.suffix(2))")
        #expect(numbers == Array(stride(from: 480, to: 720, by: 8)) + Array(stride(from: 719, to: 480, by: -8)))
    }
}
