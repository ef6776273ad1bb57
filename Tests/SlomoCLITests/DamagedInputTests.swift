import Foundation
import SlomoTestSupport
import Synchronization
import Testing

/// Damaged inputs said out loud (issue 16, item 2): a truncated movie and damaged media data
/// are reported by every command, in text and JSON, and refused with `--strict`; a seeded
/// campaign of damaged copies neither crashes nor hangs slomo, and every copy that still
/// exports carries its damage report unless no decoder can see the damage.
@Suite struct DamagedInputTests {
    /// The 10 s flash-and-beep clip with its index first (`faststart`), as phones and
    /// cameras write it: truncated, it still opens.
    static func faststartCopy(in folder: URL) throws -> URL {
        let copy = folder.appendingPathComponent("fast.mov")
        try runChecked("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", try Fixture.flashAndBeep.path, "-c", "copy",
                                  "-movflags", "+faststart", copy.path])
        return copy
    }

    static func truncated(_ source: URL, to fraction: Double, as name: String) throws -> URL {
        let data = try Data(contentsOf: source)
        let target = source.deletingLastPathComponent().appendingPathComponent(name)
        try data.prefix(Int(Double(data.count) * fraction)).write(to: target)
        return target
    }

    @Test func truncatedMovieIsReportedAndRefusedWhenStrict() throws {
        let folder = try FixtureCache.shared.scratchFolder("damaged-truncated")
        let movie = try Self.truncated(try Self.faststartCopy(in: folder), to: 0.6, as: "clip.mov")

        let inspect = try Slomo.run(["inspect", movie.path])
        #expect(inspect.status == 0)
        let damaged = inspect.standardOutput.split(separator: "\n").filter { $0.hasPrefix("damaged") }
        #expect(damaged.count == 2, "\(inspect.standardOutput)")
        #expect(damaged.first?.contains(/video ends at \d+\.\d\d s of 10.00 s, \d+ of 2400 packets missing/) == true)
        #expect(damaged.allSatisfy { $0.hasSuffix("(file truncated?)") })

        let json = try Slomo.run(["inspect", movie.path, "--json"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let damage = try #require(root["damage"] as? [[String: Any]])
        #expect(damage.map { $0["kind"] as? String } == ["truncated", "truncated"])

        let output = folder.appendingPathComponent("slow.mov").path
        let retime = try Slomo.run(["retime", movie.path, "--section", "2-4x0.25", "-o", output, "--quiet"])
        #expect(retime.status == 0, "\(retime.standardError)")
        #expect(retime.standardError.contains("warning: \(movie.path): video ends at"), "\(retime.standardError)")
        let readable = try #require(Double(String(damaged[0].firstMatch(of: /ends at (\d+\.\d\d) s/)!.1)))
        let duration = try #require((try FFprobe(output).stream("video")?["duration"] as? String).flatMap(Double.init))
        #expect(abs(duration - (readable + 6)) < 0.02, "what can be read, retimed: \(duration) s")

        // With --progress json every line is JSON: the damage found opening the file comes as
        // warning events before `start`, and an error before the export as an `error` event.
        let jsonOutput = folder.appendingPathComponent("slow-json.mov").path
        let jsonRetime = try Slomo.run(["retime", movie.path, "--section", "2-4x0.25", "-o", jsonOutput, "--progress", "json"])
        #expect(jsonRetime.status == 0, "\(jsonRetime.standardError)")
        let events = try jsonLines(jsonRetime.standardError)
        let named = events.map { $0["event"] as? String ?? "" }
        #expect(Array(named.prefix(3)) == ["warning", "warning", "start"] && named.last == "done", "\(named)")
        #expect((events.first?["message"] as? String)?.hasPrefix("\(movie.path): video ends at") == true)
        let late = try Slomo.run(["retime", movie.path, "--section", "2-9x0.25", "-o", jsonOutput, "--overwrite",
                                  "--progress", "json"])
        #expect(late.status == 64, "\(late.standardError)")
        let lines = late.standardError.split(separator: "\n")
        let lateEvents = try jsonLines(lines.dropLast().joined(separator: "\n"))
        #expect(lateEvents.map { $0["event"] as? String } == ["warning", "warning", "error"], "\(late.standardError)")
        #expect((lateEvents.last?["message"] as? String)?.contains("past the clip's end") == true)
        #expect(lines.last?.hasPrefix("Error: section '2-9x0.25'") == true)

        let stretch = try Slomo.run(["stretch", movie.path, "--rate", "0.5", "-o", folder.appendingPathComponent("slow.wav").path,
                                     "--overwrite", "-q"])
        #expect(stretch.status == 0, "\(stretch.standardError)")
        #expect(stretch.standardError.contains("warning: \(movie.path): audio ends at"), "\(stretch.standardError)")

        let plan = try Slomo.run(["plan", movie.path, "--section", "2-4x0.25"])
        #expect(plan.standardError.contains("warning: \(movie.path): video ends at"))

        let strictOutput = folder.appendingPathComponent("strict.mov").path
        let strict = try Slomo.run(["retime", movie.path, "--section", "2-4x0.25", "-o", strictOutput, "--strict"])
        #expect(strict.status == 1)
        #expect(strict.standardError.contains("refused in strict mode"))
        #expect(!FileManager.default.fileExists(atPath: strictOutput))
    }

    /// The flash-and-beep clip with the data of two packets spoiled (every byte after the
    /// first few XOR 0xA5), the keyframe at 3 s and the audio packet at 3.2 s, between
    /// beeps; the container is untouched, so only decoding can tell.
    static func spoiledCopy(in folder: URL) throws -> URL {
        let source = try Fixture.flashAndBeep.path
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        for (stream, time, kept) in [("v", "3.000000", 8), ("a", "3.200000", 4)] {
            let packets = try runChecked("ffprobe", ["-v", "error", "-select_streams", stream, "-show_entries",
                                                     "packet=pts_time,size,pos", "-of", "csv=p=0", source]).standardOutput
            let fields = try #require(packets.split(separator: "\n").map { $0.split(separator: ",") }.first { $0.first == Substring(time) })
            let size = try #require(Int(fields[1])), position = try #require(Int(fields[2]))
            for index in (position + kept)..<(position + size) { bytes[index] ^= 0xA5 }
        }
        let copy = folder.appendingPathComponent("spoiled.mov")
        try Data(bytes).write(to: copy)
        return copy
    }

    /// Damage inside the media data (issue 16, item 2: "12 packets could not be decoded
    /// between …"): `inspect --verify` finds both packets; `retime --verify` decodes the video
    /// it copies and the audio it renders, says what it found in text and JSON, keeps the beeps
    /// after the lost audio packet where the undamaged file has them (silence fills its place),
    /// and refuses with `--strict`; without `--verify` the copied video's data goes unchecked
    /// (its structure is sound) while the audio, decoded anyway, is still reported.
    @Test func damagedMediaDataIsFoundAndRefusedWhenStrict() throws {
        let folder = try FixtureCache.shared.scratchFolder("damaged-data")
        let movie = try Self.spoiledCopy(in: folder)

        let plain = try Slomo.run(["inspect", movie.path])
        #expect(!plain.standardOutput.split(separator: "\n").contains { $0.hasPrefix("damaged") },
                "opening alone cannot see it: \(plain.standardOutput)")
        let inspect = try Slomo.run(["inspect", movie.path, "--verify"])
        #expect(inspect.status == 2, "damage found by decoding: status 2")
        let rows = inspect.standardOutput.split(separator: "\n").filter { $0.hasPrefix("damaged") }.map { $0.dropFirst(7).trimmingCharacters(in: .whitespaces) }
        #expect(rows == ["video: 1 packet could not be decoded cleanly at 3.00 s (file damaged?)",
                         "audio: 1 packet could not be decoded cleanly at 3.20 s (file damaged?)"], "\(inspect.standardOutput)")
        #expect(inspect.standardOutput.hasSuffix("verified  damaged: 2 packets (rows above); 2400 pictures and 470 audio packets decoded\n"),
                "\(inspect.standardOutput)")
        let clean = try Slomo.run(["inspect", try Fixture.flashAndBeep.path, "--verify"])
        #expect(clean.status == 0)
        #expect(clean.standardOutput.hasSuffix("\n\nverified  all 2400 pictures and 470 audio packets decoded cleanly\n"),
                "\(clean.standardOutput)")
        let json = try Slomo.run(["inspect", movie.path, "--verify", "--json"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let damage = try #require(root["damage"] as? [[String: Any]])
        #expect(damage.map { $0["kind"] as? String } == ["undecodable", "undecodable"])
        #expect(damage.map { $0["packets"] as? Int } == [1, 1])

        // The section starts after the damage; the audio renderer decodes from 2 s before it.
        let reference = folder.appendingPathComponent("reference.mov").path
        let undamaged = try Slomo.run(["retime", try Fixture.flashAndBeep.path, "--section", "4-6x0.5", "-o", reference, "-q"])
        try #require(undamaged.status == 0, "\(undamaged.standardError)")
        let output = folder.appendingPathComponent("slow.mov").path
        let retime = try Slomo.run(["retime", movie.path, "--section", "4-6x0.5", "-o", output, "--verify", "--progress", "json"])
        #expect(retime.status == 0, "\(retime.standardError)")
        let warnings = retime.standardError.split(separator: "\n").compactMap { line -> String? in
            guard let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  event["event"] as? String == "warning" else { return nil }
            return event["message"] as? String
        }
        #expect(warnings == ["\(movie.path): video: 1 packet could not be decoded cleanly at 3.00 s (file damaged?)",
                             "\(movie.path): audio: 1 packet could not be decoded cleanly at 3.20 s (file damaged?)"],
                "\(retime.standardError)")
        let expected = try SyncProbe.beepOnsets(reference), heard = try SyncProbe.beepOnsets(output)
        #expect(expected.count == 10 && heard.count == expected.count, "\(heard) against \(expected)")
        for (onset, wanted) in zip(heard, expected) {
            #expect(abs(onset - wanted) <= 0.001, "a beep at \(onset) s, undamaged at \(wanted) s")
        }

        let quiet = try Slomo.run(["retime", movie.path, "--section", "4-6x0.5", "-o", output, "--overwrite", "--verify", "--quiet"])
        #expect(quiet.standardError.contains("warning: \(movie.path): video: 1 packet could not be decoded cleanly at 3.00 s"))
        let unverified = try Slomo.run(["retime", movie.path, "--section", "4-6x0.5", "-o", output, "--overwrite", "-q"])
        #expect(unverified.status == 0)
        #expect(!unverified.standardError.contains("video:"), "\(unverified.standardError)")
        #expect(unverified.standardError.contains("audio: 1 packet could not be decoded cleanly"), "the audio is decoded anyway")

        let strictOutput = folder.appendingPathComponent("strict.mov").path
        let strict = try Slomo.run(["retime", movie.path, "--section", "4-6x0.5", "-o", strictOutput, "--strict", "--verify"])
        #expect(strict.status == 1)
        #expect(strict.standardError.contains("could not be decoded cleanly at 3.00 s (file damaged?); refused in strict mode"),
                "\(strict.standardError)")
        #expect(!FileManager.default.fileExists(atPath: strictOutput))

        // A constant-frame-rate export decodes the keyframe anyway and says so.
        let cfrOutput = folder.appendingPathComponent("cfr.mp4").path
        let cfr = try Slomo.run(["retime", movie.path, "--section", "2.5-3.5x0.5", "--cfr", "30", "-o", cfrOutput, "-q"])
        #expect(cfr.status == 0, "\(cfr.standardError)")
        #expect(cfr.standardError.contains("warning: \(movie.path): video: 1 packet could not be decoded cleanly at 3.00 s"),
                "\(cfr.standardError)")
    }

    /// Ways a file gets damaged, applied to a copy with a seeded generator.
    enum Mutation: String, CaseIterable {
        case truncation, byteFlips, zeroedChunk, repeatedChunk, lyingBoxSize
    }

    static func damage(_ data: Data, _ mutation: Mutation, _ random: inout Seeded) -> Data {
        var bytes = [UInt8](data)
        switch mutation {
        case .truncation:
            bytes.removeLast(bytes.count - bytes.count * (10 + random.next(86)) / 100)
        case .byteFlips:
            for _ in 0..<(1 + random.next(8)) { bytes[random.next(bytes.count)] ^= UInt8(1 + random.next(255)) }
        case .zeroedChunk:
            let length = 64 + random.next(4096), start = random.next(bytes.count - length)
            for index in start..<(start + length) { bytes[index] = 0 }
        case .repeatedChunk:
            let length = 64 + random.next(4096), from = random.next(bytes.count - length), to = random.next(bytes.count - length)
            bytes.replaceSubrange(to..<(to + length), with: bytes[from..<(from + length)])
        case .lyingBoxSize:
            let names = ["moov", "trak", "mdia", "stbl", "stsz", "stco", "mdat"].map { Array($0.utf8) }
            let boxes = (4..<(bytes.count - 4)).filter { index in names.contains { Array(bytes[index..<(index + 4)]) == $0 } }
            let box = boxes[random.next(boxes.count)] - 4
            for offset in 0..<4 { bytes[box + offset] = UInt8(random.next(256)) }
        }
        return Data(bytes)
    }

    /// The codecs of the seeded campaign: how ffmpeg encodes a 2 s source, and how many damaged
    /// copies of each kind are made (H.264 is what most cameras write: the most).
    enum CampaignCodec: String, CaseIterable, Sendable {
        case h264, hevc, mjpeg, prores

        var encoder: [String] {
            switch self {
            case .h264: ["-c:v", "libx264", "-preset", "ultrafast", "-g", "30"]
            case .hevc: ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error:keyint=30"]
            case .mjpeg: ["-c:v", "mjpeg", "-q:v", "4"]
            case .prores: ["-c:v", "prores_ks", "-profile:v", "0"]
            }
        }

        var copiesPerKind: Int { self == .h264 ? 40 : 12 }
    }

    /// Damaged copies of a 2 s clip (40 of each kind for H.264, 12 for HEVC, Motion JPEG and
    /// ProRes), each inspected with `--frames --verify` and retimed with `--verify`, under a 30 s
    /// timeout: no crash (a status of 0, 1, 64, or 2 for inspect's damage found), no hang, and every copy that retimes says
    /// what is damaged unless ffmpeg, the judge, decodes it without a complaint either (a
    /// flipped bit in a sample value, a changed byte in metadata). Each copy is also retimed
    /// the default way, which checks structure without decoding; how many of those report the
    /// damage is printed beside the rest.
    @Test(arguments: CampaignCodec.allCases)
    func seededCampaignNeitherCrashesNorHangs(_ codec: CampaignCodec) throws {
        let folder = try FixtureCache.shared.scratchFolder("damaged-campaign-\(codec.rawValue)")
        let source = folder.appendingPathComponent("source.mov")
        try runChecked("ffmpeg", ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=60:duration=2",
                                  "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2"] + codec.encoder
                                 + ["-c:a", "aac", "-movflags", "+faststart", "-shortest", source.path])
        let original = try Data(contentsOf: source)
        let slomo = try Slomo.executable
        var random = Seeded(state: 20261123 + UInt64(CampaignCodec.allCases.firstIndex(of: codec)!))
        var cases: [(Mutation, URL)] = []
        for mutation in Mutation.allCases {
            for index in 0..<codec.copiesPerKind {
                let file = folder.appendingPathComponent("\(mutation.rawValue)-\(index).mov")
                try Self.damage(original, mutation, &random).write(to: file)
                cases.append((mutation, file))
            }
        }
        struct Run {
            let mutation: Mutation, file: URL, inspect: Int32, retime: Int32, reported: Bool, structureReported: Bool
        }
        let results = Mutex<[Run]>([])
        let damaged = cases
        DispatchQueue.concurrentPerform(iterations: damaged.count) { index in
            let (mutation, file) = damaged[index]
            let inspect = (try? runCommand("timeout", ["30", slomo, "inspect", "--frames", "--verify", file.path]))?.status ?? -1
            let retime = try? runCommand("timeout", ["30", slomo, "retime", file.path, "--section", "0.5-1x0.5", "--verify",
                                                     "-o", file.path + ".out.mov", "--overwrite", "--quiet"])
            let structural = try? runCommand("timeout", ["30", slomo, "retime", file.path, "--section", "0.5-1x0.5",
                                                         "-o", file.path + ".copy.mov", "--overwrite", "--quiet"])
            let warning = "warning: \(file.path):"
            results.withLock {
                $0.append(Run(mutation: mutation, file: file, inspect: inspect, retime: retime?.status ?? -1,
                              reported: retime?.standardError.contains(warning) ?? false,
                              structureReported: structural?.status == 0 && structural?.standardError.contains(warning) == true))
            }
        }
        let all = results.withLock { $0 }
        // The judge's verdict on each copy that retimed without a damage report: a full decode
        // (its frames kept in the stream's time base, so that a timestamp moved off the frame
        // grid is not rounded onto its neighbour's and called "non monotonically increasing").
        var invisible: [URL] = []
        for run in all where run.retime == 0 && !run.reported {
            let judge = try runCommand("ffmpeg", ["-v", "error", "-nostdin", "-i", run.file.path, "-enc_time_base", "-1",
                                                  "-f", "null", "-"])
            if judge.status == 0 && judge.standardError.isEmpty {
                invisible.append(run.file)
            } else {
                let complaint = judge.standardError.split(separator: "\n").prefix(2).joined(separator: "; ")
                Issue.record("\(codec) \(run.file.lastPathComponent) retimed without a damage report, but ffmpeg finds: \(complaint)")
            }
        }
        for mutation in Mutation.allCases {
            let runs = all.filter { $0.mutation == mutation }
            let succeeded = runs.filter { $0.retime == 0 }
            print("campaign \(codec) \(mutation.rawValue): \(runs.count) copies; retime --verify exit 0: \(succeeded.count) "
                  + "(\(succeeded.filter(\.reported).count) with a damage report, "
                  + "\(succeeded.filter(\.structureReported).count) found without decoding), "
                  + "exit 1: \(runs.filter { $0.retime == 1 }.count), exit 64: \(runs.filter { $0.retime == 64 }.count); "
                  + "inspect exit 0: \(runs.filter { $0.inspect == 0 }.count); "
                  + "silent where ffmpeg finds nothing either: \(runs.filter { invisible.contains($0.file) }.count)")
        }
        #expect(all.count == cases.count)
        for run in all {
            #expect([0, 1, 2, 64].contains(run.inspect), "inspect of a \(run.mutation) copy ended with \(run.inspect) (crash or hang)")
            #expect([0, 1, 64].contains(run.retime), "retime of a \(run.mutation) copy ended with \(run.retime) (crash or hang)")
        }
        // Truncation (from the index) and broken box structure (from the box tree) are found
        // whatever ffmpeg says, with or without decoding.
        for mutation in [Mutation.truncation, .lyingBoxSize] {
            let silent = all.filter { $0.mutation == mutation && $0.retime == 0 && !($0.reported && $0.structureReported) }
            #expect(silent.isEmpty, "\(silent.count) \(mutation) copies retimed without a damage report")
        }
    }
}
