import SlomoCore
import SlomoExport
import SlomoMedia
import Testing

/// An edit script's `output:` as export settings, read by the library (issue 17): what
/// `slomo export SCRIPT` does without options.
@Suite struct EditScriptExportTests {
    @Test func outputSettingsBecomeExportSettings() throws {
        let output = OutputSettings(mode: .cfr, fps: Rational(30000, 1001), codec: "ProRes", frames: .blend, size: .init(width: 640, height: 360),
                                    scaling: .resize, audio: .varispeed, audioCodec: "pcm", interpolation: .quality)
        let settings = try output.exportSettings(overwrite: true)
        #expect(settings.mode == .constantFrameRate(Rational(30000, 1001)))
        #expect(settings.audioAlgorithm == .varispeed && settings.audioCodec == .pcm && settings.overwrite)
        let video = try output.videoSettings()
        #expect(video.codec == .prores && video.frames == .blend && video.interpolation == .quality)
        #expect(video.size == .init(width: 640, height: 360) && video.scaling == .resize)
    }

    @Test func defaultsAndPassthrough() throws {
        let settings = try OutputSettings().exportSettings()
        #expect(settings.mode == .passthrough && settings.audioAlgorithm == .spectral && settings.audioCodec == .aac)
        #expect(try OutputSettings(mode: .passthrough, fps: Rational(30)).exportSettings().mode == .passthrough)
        #expect(try OutputSettings(fps: Rational(25)).exportSettings().mode == .constantFrameRate(Rational(25)))
    }

    @Test func unknownNamesAndMissingRateAreNamed() {
        #expect { try OutputSettings(mode: .cfr).exportSettings() } throws: { "\($0)".contains("output.fps") }
        #expect { try OutputSettings(audioCodec: "wma").exportSettings() } throws: { "\($0)".contains("output.audio.codec") }
        #expect { try OutputSettings(codec: "vp9").videoSettings() } throws: { "\($0)".contains("unknown video codec 'vp9'") }
    }
}
