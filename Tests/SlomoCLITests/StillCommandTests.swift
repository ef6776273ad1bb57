import Foundation
import SlomoTestSupport
import Testing

/// Issue 40, stills from the command line: `slomo still INPUT --at T -o FILE` writes the
/// picture shown at T, judged by ffmpeg's decode of the same frame.
@Suite struct StillCommandTests {
    /// The JSON objects of `--json` output, one a line.
    static func objects(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    /// A lossless RGB source gives the frame's own pixels, sample for sample.
    @Test func losslessSourceGivesTheFramesPixels() throws {
        let folder = try FixtureCache.shared.scratchFolder("still-exact")
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try StillProbe.losslessRGB
        let output = folder.appendingPathComponent("frame.png").path
        let result = try Slomo.run(["still", clip, "--at", "1", "-o", output])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "\(output): frame 25 at 1.000 s, 320x240, 8-bit PNG\n")
        let still = try StillProbe.pixels(of: output, pixelFormat: "rgb24")
        let frame = try #require(try StillProbe.frames(clip, [25], pixelFormat: "rgb24")[25])
        let reference = folder.appendingPathComponent("reference.png").path
        try runChecked("ffmpeg", ["-v", "error", "-nostdin", "-i", clip, "-vf", "select=eq(n\\,25)", "-frames:v", "1", reference])
        let psnr = try StillProbe.psnr(output, reference)
        print("lossless RGB source, --at 1 as PNG: \(still.count) bytes \(still == frame ? "identical to" : "different from") "
              + "ffmpeg's frame 25, PSNR \(psnr == 99 ? "∞" : String(format: "%.2f dB", psnr))")
        #expect(still == frame)
        #expect(psnr == 99)
        #expect(try FFprobe(output).stream("video")?["pix_fmt"] as? String == "rgb24")
    }

    /// A time between two frames gives the one on screen then; frame numbers, timecodes and
    /// units name the same instants as in sections; `--json` says what was chosen.
    @Test func timesBetweenFramesPickTheFrameOnScreen() throws {
        let folder = try FixtureCache.shared.scratchFolder("still-between")
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try StillProbe.losslessRGB
        let cases: [(at: String, frame: Int)] = [("1.039", 25), ("1.04", 26), ("f30", 30), ("00:00:01.500", 37), ("1999ms", 49), ("0", 0)]
        let judge = try StillProbe.frames(clip, cases.map(\.frame), pixelFormat: "rgb24")
        for (at, expected) in cases {
            let output = folder.appendingPathComponent("at-\(at).png").path
            let result = try Slomo.run(["still", clip, "--at", at, "-o", output, "--json"])
            #expect(result.status == 0, "\(result.standardError)")
            let object = try #require(try Self.objects(result.standardOutput).first)
            let time = try #require(object["time"] as? [String: Any])
            let same = try StillProbe.pixels(of: output, pixelFormat: "rgb24") == judge[expected]
            print("--at \(at): frame \(object["frame"] ?? "?") at \(time["exact"] ?? "?") s (pts \(object["pts"] ?? "?") × \(object["timeBase"] ?? "?")), "
                  + "pixels \(same ? "identical to" : "different from") ffmpeg's frame \(expected)")
            #expect(object["frame"] as? Int == expected)
            #expect(JSONTime.seconds(object["time"]) == Double(expected) / 25)
            #expect((object["pts"] as? Int).map { $0 * 25 } == expected * 12800 && object["timeBase"] as? String == "1/12800")
            #expect(object["width"] as? Int == 320 && object["height"] as? Int == 240 && object["bitDepth"] as? Int == 8)
            #expect(object["path"] as? String == output && object["format"] as? String == "png" && object["toneMapped"] as? Bool == false)
            #expect(same)
        }
    }

    /// `--every` and several `--at`s write one file a time, named by the pattern, numbered in
    /// the order given, each the frame shown then.
    @Test func severalStillsFollowThePattern() throws {
        let folder = try FixtureCache.shared.scratchFolder("still-several")
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try StillProbe.losslessRGB
        let every = try Slomo.run(["still", clip, "--every", "0.25s", "-o", folder.path + "/sheet-{n}-{time}.jpg", "--json"])
        #expect(every.status == 0, "\(every.standardError)")
        let sheet = try Self.objects(every.standardOutput)
        let names = (try FileManager.default.contentsOfDirectory(atPath: folder.path)).sorted()
        print("--every 0.25s on 2 s: \(names.joined(separator: " ")); frames \(sheet.compactMap { $0["frame"] as? Int })")
        #expect(names == ["sheet-1-0.000.jpg", "sheet-2-0.250.jpg", "sheet-3-0.500.jpg", "sheet-4-0.750.jpg", "sheet-5-1.000.jpg",
                          "sheet-6-1.250.jpg", "sheet-7-1.500.jpg", "sheet-8-1.750.jpg"])
        #expect(sheet.compactMap { $0["frame"] as? Int } == [0, 6, 12, 18, 25, 31, 37, 43])
        #expect(sheet.allSatisfy { $0["format"] as? String == "jpeg" && $0["bitDepth"] as? Int == 8 })

        // Out of order: numbered as given, decoded in one pass.
        let ats = ["1.5", "0.2", "1.04", "0.2"]
        let several = try Slomo.run(["still", clip] + ats.flatMap { ["--at", $0] } + ["-o", folder.path + "/pick-{n}.png"])
        #expect(several.status == 0, "\(several.standardError)")
        let expected = [37, 5, 26, 5]
        let judge = try StillProbe.frames(clip, expected, pixelFormat: "rgb24")
        for (index, frame) in expected.enumerated() {
            let path = folder.path + "/pick-\(index + 1).png"
            #expect(try StillProbe.pixels(of: path, pixelFormat: "rgb24") == judge[frame], "pick-\(index + 1).png is not frame \(frame)")
        }
        print("--at \(ats.joined(separator: " ")): \(several.standardOutput.split(separator: "\n").joined(separator: "; "))")
        #expect(several.standardOutput.split(separator: "\n").count == 4)
    }

    /// A 10-bit HLG source written as 16-bit PNG and TIFF keeps its precision: more than 256
    /// levels along the ramp.
    @Test(arguments: ["png", "tiff"])
    func tenBitSourceGivesSixteenBitFiles(format: String) throws {
        let folder = try FixtureCache.shared.scratchFolder("still-16")
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("ramp.\(format)").path
        let result = try Slomo.run(["still", try StillProbe.hlgGradient, "--at", "0.5", "-o", output, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(try Self.objects(result.standardOutput).first)
        let levels = StillProbe.distinctRedLevels(rgb48le: try StillProbe.pixels(of: output, pixelFormat: "rgb48le"), width: 1024, row: 32)
        let stored = try FFprobe(output).stream("video")?["pix_fmt"] as? String
        print("10-bit HLG ramp as .\(format): \(stored ?? "?"), bitDepth \(object["bitDepth"] ?? "?"), \(levels) distinct levels in a row (Y 64–940: 877)")
        #expect(object["bitDepth"] as? Int == 16 && object["toneMapped"] as? Bool == false)
        #expect(stored == (format == "png" ? "rgb48be" : "rgb48le"))
        #expect(levels > 256)
    }

    /// A JPEG of a PQ or HLG source is tone-mapped by the export's chain: close to ffmpeg's
    /// decode through the same chain, far from the untouched decode.
    @Test(arguments: [Fixture.pq, Fixture.hlg])
    func jpegOfHDRIsToneMapped(fixture: Fixture) throws {
        let folder = try FixtureCache.shared.scratchFolder("still-hdr")
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try fixture.path
        let output = folder.appendingPathComponent("frame.jpg").path
        let result = try Slomo.run(["still", clip, "--at", "0.4", "-o", output])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasSuffix("320x180, 8-bit JPEG, tone-mapped to SDR\n"), "\(result.standardOutput)")
        let transfer = fixture == .pq ? "smpte2084" : "arib-std-b67"
        let chain = ",zscale=tin=\(transfer):min=bt2020nc:pin=bt2020:t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,"
            + "tonemap=tonemap=hable:desat=0,zscale=t=bt709:m=bt709:r=tv,format=yuv444p,scale=in_color_matrix=bt709:in_range=tv"
        for (name, filters) in [("tone-mapped", chain), ("untouched", "")] {
            try runChecked("ffmpeg", ["-v", "error", "-nostdin", "-i", clip, "-vf", "select=eq(n\\,10)\(filters)", "-frames:v", "1",
                                      folder.appendingPathComponent("\(name).png").path])
        }
        let toneMapped = try StillProbe.psnr(output, folder.appendingPathComponent("tone-mapped.png").path)
        let untouched = try StillProbe.psnr(output, folder.appendingPathComponent("untouched.png").path)
        print("\(fixture) as JPEG: \(String(format: "%.1f", toneMapped)) dB against ffmpeg's tone-mapped decode, "
              + "\(String(format: "%.1f", untouched)) dB against its untouched decode")
        #expect(toneMapped >= 35)
        #expect(untouched < toneMapped - 5)
    }

    /// Every mistake is one line that names the option or file; nothing is written and an
    /// existing file is kept. Usage mistakes exit 64, files that cannot be read or replaced 1
    /// (as every other command).
    @Test func mistakesAreOneLineAndWriteNothing() throws {
        let folder = try FixtureCache.shared.scratchFolder("still-errors")
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try StillProbe.losslessRGB
        let existing = folder.appendingPathComponent("kept.png").path
        #expect(FileManager.default.createFile(atPath: existing, contents: Data("keep".utf8)))
        let out = folder.appendingPathComponent("out.png").path
        let cases: [(arguments: [String], status: Int32, says: [String])] = [
            (["--at", "1", "-o", folder.path + "/out.bmp"], 64, ["-o ", "out.bmp", ".png, .tif/.tiff or .jpg/.jpeg"]),
            (["--at", "2", "-o", out], 64, ["--at 2", "at or after the end", "lasts 2.000 s"]),
            (["--at", "f60", "-o", out], 64, ["--at f60", "lasts 2.000 s"]),
            (["--at", "-0.5", "-o", out], 64, ["--at -0.5", "before the video's first picture"]),
            (["--at", "end", "-o", out], 64, ["--at end", "2.000 s"]),
            (["--at", "soon", "-o", out], 64, ["--at soon", "expected seconds"]),
            (["--at", "1", "--at", "1.5", "-o", out], 64, ["-o ", "{n}", "{time}", "such as shot-{n}.png"]),
            (["--every", "0", "-o", folder.path + "/s-{n}.png"], 64, ["--every 0", "positive"]),
            (["-o", out], 64, ["--at", "--every"]),
            (["--at", "1", "-o", existing], 1, ["kept.png", "already exists", "--overwrite"]),
        ]
        for (arguments, status, says) in cases {
            let result = try Slomo.run(["still", clip] + arguments)
            let lines = result.standardError.split(separator: "\n")
            print("still \(arguments.joined(separator: " ")): status \(result.status), \(result.standardError.trimmingCharacters(in: .newlines))")
            #expect(result.status == status)
            #expect(lines.count == 1 && says.allSatisfy { result.standardError.contains($0) }, "\(result.standardError)")
            #expect(result.standardOutput.isEmpty)
        }
        let missing = try Slomo.run(["still", folder.path + "/none.mov", "--at", "1", "-o", out])
        print("missing input: status \(missing.status), \(missing.standardError.trimmingCharacters(in: .newlines))")
        #expect(missing.status == 1 && missing.standardError.contains("none.mov: no such file"))
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep", "an existing still is kept")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["kept.png"], "nothing left behind")
        let replaced = try Slomo.run(["still", clip, "--at", "1", "-o", existing, "--overwrite"])
        let replacement = try StillProbe.pixels(of: existing, pixelFormat: "rgb24")
        #expect(replaced.status == 0 && replacement.count == 320 * 240 * 3, "--overwrite replaces it")
    }

    /// The help teaches with examples an 80-column terminal shows whole and gives the exit statuses.
    @Test func helpTeachesWithExamples() throws {
        let wide = try Slomo.run(["still", "--help"], environment: ["COLUMNS": "1000"]).standardOutput
        let narrow = Set(try Slomo.run(["still", "--help"], environment: ["COLUMNS": "80"]).standardOutput.split(separator: "\n").map(String.init))
        let examples = wide.split(separator: "\n").map(String.init).filter { $0.hasPrefix("  slomo still") }
        print("still --help: \(examples.count) examples")
        #expect(examples.count >= 5)
        for example in examples { #expect(narrow.contains(example), "wrapped at 80 columns: \(example)") }
        #expect(wide.contains("Exit status: 0"))
        for line in wide.split(separator: "\n") where line.trimmingCharacters(in: .whitespaces).hasPrefix("-") {
            #expect(line.ranges(of: "default").count <= 1, "default stated twice: \(line)")
        }
    }
}
