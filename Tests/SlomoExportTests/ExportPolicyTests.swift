import Foundation
import SlomoCore
import SlomoExport
import SlomoMedia
import SlomoTestSupport
import Testing

/// The one export policy every front end shares (`ExportSettings(edit:…)`): which mode, which
/// audio, and what is refused, with hints as data; and its inverse, the saved script.
@Suite("Export policy")
struct ExportPolicyTests {
    static func composition() throws -> Composition {
        try Composition(retiming: try MediaFile(path: try Fixture.flashAndBeep.path), sections: ["2-4x0.25"])
    }

    static func settings(_ output: OutputSettings, script: Bool, _ overrides: ExportOverrides = ExportOverrides(),
                         video: VideoExportSettings = VideoExportSettings()) throws -> ExportSettings {
        try ExportSettings(edit: output, isEditScript: script, overriding: overrides, video: video, for: try composition())
    }

    static func refusal(_ body: () throws -> ExportSettings) -> ExportError? {
        do { _ = try body(); return nil } catch let error as ExportError { return error } catch { return nil }
    }

    @Test func theModeIsTheOverridesElseTheScriptsElseAFrameRateIsNeeded() throws {
        var cfr = ExportOverrides()
        cfr.mode = .constantFrameRate(Rational(30000, 1001))
        #expect(try Self.settings(OutputSettings(), script: false, cfr).mode == .constantFrameRate(Rational(30000, 1001)))
        // An edit script's mode defaults to passthrough; a movie's export needs a frame rate.
        #expect(try Self.settings(OutputSettings(), script: true).mode == .passthrough)
        let movie = Self.refusal { try Self.settings(OutputSettings(), script: false) }
        #expect(movie?.kind == .invalidPlan && movie?.hint == .giveFrameRate, "\(String(describing: movie))")
        // Video settings chosen over a passthrough script need a frame rate too.
        var video = ExportOverrides()
        video.choosesVideo = true
        #expect(Self.refusal { try Self.settings(OutputSettings(), script: true, video) }?.hint == .giveFrameRate)
        // A script's (or a phone's) frame rate is used; passthrough over a script's is refused.
        var scripted = OutputSettings()
        scripted.mode = .cfr
        scripted.fps = Rational(30)
        #expect(try Self.settings(scripted, script: true).mode == .constantFrameRate(Rational(30)))
        var passthrough = ExportOverrides()
        passthrough.mode = .passthrough
        let dropped = Self.refusal { try Self.settings(scripted, script: true, passthrough) }
        #expect(dropped?.kind == .invalidPlan && dropped?.hint == .exportAtScriptedFrameRate, "\(String(describing: dropped))")
        #expect(dropped?.description.hasSuffix("(export it at its frame rate, or give one)") == true, "the hint's prose")
        var phone = OutputSettings()
        phone.fps = Rational(30)
        #expect(try Self.settings(phone, script: false, passthrough).mode == .passthrough, "a phone's rate is a default, not a script's")
    }

    @Test func audioIsTheOverridesElseTheScriptsElseSlomos() throws {
        var output = OutputSettings(audio: .varispeed, audioCodec: "pcm", spectralEngine: .rubberBand)
        output.mode = .passthrough
        let scripted = try Self.settings(output, script: true)
        #expect(scripted.audioAlgorithm == .varispeed && scripted.audioCodec == .pcm && scripted.spectralEngine == .rubberBand)
        var overrides = ExportOverrides()
        overrides.audioAlgorithm = .timeDomain
        overrides.audioCodec = .flac
        overrides.pitch = 3
        let chosen = try Self.settings(output, script: true, overrides)
        #expect(chosen.audioAlgorithm == .timeDomain && chosen.audioCodec == .flac && chosen.pitch == 3)
        let plain = try Self.settings(OutputSettings(), script: true)
        #expect(plain.audioAlgorithm == .spectral && plain.audioCodec == .aac && plain.spectralEngine == .defaultEngine)
    }

    /// A saved script reads back as the export it was saved from.
    @Test func aSavedScriptIsTheExportItCameFrom() throws {
        var cfr = ExportOverrides()
        cfr.mode = .constantFrameRate(Rational(60))
        cfr.audioAlgorithm = .timeDomain
        var video = VideoExportSettings(codec: .prores, frames: .blend, size: OutputSettings.Size(width: 640, height: 360))
        video.shutter = Shutter(angle: Rational(180), samples: 1)
        let settings = try Self.settings(OutputSettings(), script: false, cfr, video: video)
        let script = try EditScript(retiming: try Fixture.flashAndBeep.path, sections: ["2-4x0.25"], settings: settings, video: video)
        #expect(try script.output.exportSettings().mode == settings.mode)
        #expect(try script.output.exportSettings().audioAlgorithm == .timeDomain)
        #expect(try script.output.videoSettings() == video, "codec, frame choice, shutter and size come back")
    }
}
