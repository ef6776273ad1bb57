import Foundation
import SlomoCore
import SlomoExport
import SlomoMedia
import SlomoTestSupport
import Testing

/// Several clips joined in one CFR export carry one audio track: each clip's audio through its
/// own map, end to end in output time, converted to the first clip's format, silence for a
/// clip without audio, faded at the joins.
@Suite struct ConstantFrameRateJoinedAudioTests {
    /// Clip A: the 48 kHz stereo flash-and-beep clip, 0–3 s with 1–2 s at half speed (4 s);
    /// clip B: 1 s of black 240 fps video without audio; clip C: the same flashes and beeps at
    /// 44.1 kHz mono, from 0.2 s to 3 s (2.8 s). Every beep stays with its flash, which holds
    /// only if the silence of B and the resampled C are sample-exact in length and place.
    @Test func flashesAndBeepsOfJoinedClipsStayTogether() throws {
        let sources = [try Fixture.longFlashAndBeep.path, try JoinFixture.black, try JoinFixture.flashAndBeepMono44k]
        let clips = [EditScript.Clip(source: sources[0], end: .time(.seconds(3)), sections: [try SectionSpec(parsing: "1-2x0.5")]),
                     EditScript.Clip(source: sources[1]),
                     EditScript.Clip(source: sources[2], start: .time(MediaTime(seconds: Rational(1, 5))))]
        let (output, composition) = try JoinFixture.export(clips)
        let map = try CompositionMap(composition)
        #expect(map.outputDuration == MediaTime(seconds: Rational(39, 5)))

        var expected: [Double] = []
        for (index, entry) in map.entries.enumerated() where index != 1 {
            for second in 0..<3 {
                let flash = MediaTime(seconds: Rational(2 * Int64(second) + 1, 2))
                if entry.clip.range.contains(flash) { expected.append(entry.map.outputTime(at: flash).doubleSeconds) }
            }
        }
        let frame = 1.0 / 30
        let flashes = try CFR.flashStarts(output, frameInterval: frame)
        let beeps = try SyncProbe.beepOnsets(output)
        #expect(flashes.count == expected.count, "flashes at \(flashes), expected \(expected)")
        #expect(beeps.count == expected.count, "beeps at \(beeps), expected \(expected)")
        for (flash, target) in zip(flashes, expected) {
            #expect(abs(flash - target) <= frame + 1e-6, "flash at \(flash) s, map says \(target) s")
        }
        var worst = 0.0
        for (beep, flash) in zip(beeps, flashes) {
            worst = max(worst, abs(beep - flash))
            #expect(abs(beep - flash) <= frame / 2, "beep at \(beep) s, flash at \(flash) s")
        }
        print("joined clips: worst beep-to-flash \(String(format: "%.3f", worst * 1000)) ms")

        let probe = try FFprobe(output)
        #expect(probe.streams.filter { $0["codec_type"] as? String == "audio" }.count == 1)
        let audio = try #require(probe.stream("audio"))
        #expect(audio["sample_rate"] as? String == "48000")
        #expect(audio["channels"] as? Int == 2)
        let videoDuration = Double(try FFprobe.packets(output).count) * frame
        let audioDuration = Double(try SyncProbe.samples(output).count) / 48000
        #expect(abs(videoDuration - 7.8) < 1e-9)
        #expect(abs(audioDuration - videoDuration) <= 1024.0 / 48000, "audio \(audioDuration) s, video \(videoDuration) s")
        // Decoding pads the last AAC frame; the stream's own length is exact to the sample.
        #expect(audio["duration_ts"] as? Int == 374_400, "audio lasts \(audio["duration_ts"] ?? "?") samples")
    }

    /// A cut from one point of a 440 Hz tone to another, out of phase, steps by most of the
    /// tone's amplitude; the fades at the join leave no step larger than the tone's own.
    @Test func joinsDoNotClick() throws {
        let tone = try JoinFixture.tone
        let cut = MediaTime(seconds: Rational(121, 240))    // 221.8 cycles: the tone is at −0.86 of its peak
        let clips = [EditScript.Clip(source: tone, end: .time(cut)), EditScript.Clip(source: tone)]
        let (output, _) = try JoinFixture.export(clips)
        let samples = try SyncProbe.samples(output)
        let join = Int((cut.doubleSeconds * 48000).rounded())
        func largestStep(_ range: Range<Int>) -> Float {
            range.map { abs(samples[$0 + 1] - samples[$0]) }.max() ?? 0
        }
        let atJoin = largestStep(join - 480 ..< join + 480)
        let elsewhere = largestStep(join - 9600 ..< join - 4800)
        #expect(elsewhere > 0.02, "the tone is there: steps up to \(elsewhere)")
        #expect(atJoin <= elsewhere * 1.25, "step \(atJoin) at the join, \(elsewhere) in the tone")
    }
}

/// Inputs and the export of the joined-audio tests.
private enum JoinFixture {
    static let quiet = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"]
    static let x264 = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-bf", "3", "-g", "240"]

    /// 1 s of black, 160x120 at 240 fps, no audio.
    static var black: String {
        get throws {
            try FixtureCache.shared.path(for: "join-black", extension: "mov", arguments: quiet
                + ["-f", "lavfi", "-i", "color=c=black:size=160x120:rate=240:duration=1"] + x264)
        }
    }

    /// The `longFlashAndBeep` clip, 3 s long, with its audio at 44.1 kHz mono.
    static var flashAndBeepMono44k: String {
        get throws {
            let flash = "color=c=black:size=160x120:rate=240:duration=3,"
                + "drawbox=x=0:y=0:w=iw:h=ih:color=white:t=fill:enable='between(mod(n,240),120,127)'"
            let beep = "aevalsrc='if(between(mod(t,1),0.5,0.51),0.5*sin(2*PI*1000*(t-0.5)),0)"
                + "+0.00001*(2*random(0)-1)':sample_rate=44100:duration=3"
            return try FixtureCache.shared.path(for: "join-flash-beep-44k", extension: "mov", arguments: quiet
                + ["-f", "lavfi", "-i", flash, "-f", "lavfi", "-i", beep, "-ac", "1"] + x264 + ["-c:a", "aac", "-b:a", "128k"])
        }
    }

    /// 1 s of black 240 fps video with a 440 Hz stereo tone at half amplitude, 48 kHz.
    static var tone: String {
        get throws {
            try FixtureCache.shared.path(for: "join-tone", extension: "mov", arguments: quiet
                + ["-f", "lavfi", "-i", "color=c=black:size=160x120:rate=240:duration=1",
                   "-f", "lavfi", "-i", "aevalsrc='0.5*sin(2*PI*440*t)':sample_rate=48000:duration=1", "-ac", "2"]
                + x264 + ["-c:a", "aac", "-b:a", "192k"])
        }
    }

    /// Exports `clips` at 30 fps with varispeed audio (sample-exact onsets) into a fresh folder.
    static func export(_ clips: [EditScript.Clip]) throws -> (path: String, composition: Composition) {
        let infos = try clips.map { try MediaFile(path: $0.source).sourceInfo() }
        let composition = try EditScript(clips: clips).composition(sources: infos)
        let output = try FixtureCache.shared.scratchFolder("cfr-join").appendingPathComponent("out.mp4").path
        let session = ExportSession(composition: composition, to: output,
                                    settings: ExportSettings(mode: .constantFrameRate(Rational(30)), audioAlgorithm: .varispeed),
                                    video: VideoExportSettings(preset: "ultrafast"))
        let result = try session.run { _ in }
        #expect(result.audioTracks == 1)
        return (output, composition)
    }
}
