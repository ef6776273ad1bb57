import Foundation
import SlomoCore
import SlomoMedia

extension EditScript {
    /// The edit script equivalent to retiming the whole of `input` by `sections` and
    /// `freezes` with `settings` and, at a constant frame rate, `video` (what `slomo retime
    /// --save-script` writes): the inverse of `OutputSettings.exportSettings()` and
    /// `videoSettings()`, writing what differs from their defaults. The source is stored as an
    /// absolute path so the script works wherever it is saved.
    public init(retiming input: String, sections: [String], freezes: [String] = [], settings: ExportSettings,
                video: VideoExportSettings = VideoExportSettings()) throws {
        let source = URL(fileURLWithPath: input).standardizedFileURL.path
        var output = OutputSettings(audio: settings.audioAlgorithm, audioCodec: settings.audioCodec.rawValue,
                                    spectralEngine: settings.spectralEngine == .defaultEngine ? nil : settings.spectralEngine)
        switch settings.mode {
        case .passthrough:
            output.mode = .passthrough
        case .constantFrameRate(let fps):
            output.mode = .cfr
            output.fps = fps
            output.describe(video)
        }
        var clip = Clip(source: source, sections: try sections.map { try SectionSpec(parsing: $0) })
        clip.freezes = try freezes.map { try FreezeSpec(parsing: $0) }
        self.init(clips: [clip], output: output)
    }
}

extension OutputSettings {
    /// Sets the video settings of a constant-frame-rate export that differ from the defaults
    /// `videoSettings()` fills in (the codec always, so that the script says it).
    mutating func describe(_ video: VideoExportSettings) {
        let defaults = VideoExportSettings()
        codec = video.codec.rawValue
        if video.frames != defaults.frames { frames = video.frames }
        if video.interpolation != defaults.interpolation { interpolation = video.interpolation }
        if video.shutter != defaults.shutter { shutter = video.shutter }
        size = video.size
        if video.scaling != defaults.scaling { scaling = video.scaling }
    }


    /// The export an edit script's `output:` asks for, with slomo's defaults for what it leaves
    /// out: passthrough, or a constant frame rate at `fps` (a `cfr` mode without `fps` is an
    /// error), the audio algorithm (spectral), its engine and codec (AAC). What `slomo export
    /// SCRIPT` does without options; the command line's options override it.
    public func exportSettings(overwrite: Bool = false) throws -> ExportSettings {
        let exportMode: ExportSettings.Mode
        switch (mode, fps) {
        case (.passthrough?, _), (nil, nil): exportMode = .passthrough
        case (_, let fps?): exportMode = .constantFrameRate(fps)
        case (.cfr?, nil): throw TimeModelError(.missingKey, "a cfr output needs its fps", subject: "output.fps")
        }
        var codec = AudioCodec.aac
        if let audioCodec {
            guard let known = AudioCodec(rawValue: audioCodec) else {
                throw TimeModelError(.invalidValue, "unknown audio codec '\(audioCodec)'; expected "
                                     + AudioCodec.allCases.map(\.rawValue).joined(separator: ", "), subject: "output.audio.codec")
            }
            codec = known
        }
        return ExportSettings(mode: exportMode, audioAlgorithm: audio ?? .spectral, spectralEngine: spectralEngine ?? .defaultEngine,
                              audioCodec: codec, overwrite: overwrite)
    }

    /// The video settings of a constant-frame-rate export that an edit script's `output:` names
    /// (codec, frame choice, interpolation preset, shutter, size, scaling), defaults elsewhere.
    public func videoSettings() throws -> VideoExportSettings {
        var settings = VideoExportSettings()
        if let codec {
            guard let known = VideoCodec(rawValue: codec.lowercased()) else {
                throw TimeModelError(.invalidValue, "unknown video codec '\(codec)'; expected "
                                     + VideoCodec.allCases.map(\.rawValue).joined(separator: ", "), subject: "output.codec")
            }
            settings.codec = known
        }
        if let frames { settings.frames = frames }
        if let interpolation { settings.interpolation = interpolation }
        if let shutter { settings.shutter = shutter }
        settings.size = size
        if let scaling { settings.scaling = scaling }
        return settings
    }
}

