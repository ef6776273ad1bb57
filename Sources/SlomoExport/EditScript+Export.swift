import Foundation
import SlomoCore

extension EditScript {
    /// The edit script equivalent to retiming the whole of `input` by `sections` with
    /// `settings` (what `slomo retime --save-script` writes). The source is stored as an
    /// absolute path so the script works wherever it is saved.
    public init(retiming input: String, sections: [String], settings: ExportSettings) throws {
        let source = URL(fileURLWithPath: input).standardizedFileURL.path
        var output = OutputSettings(audio: settings.audioAlgorithm, audioCodec: settings.audioCodec.rawValue,
                                    spectralEngine: settings.spectralEngine == .defaultEngine ? nil : settings.spectralEngine)
        switch settings.mode {
        case .passthrough:
            output.mode = .passthrough
        case .constantFrameRate(let fps):
            output.mode = .cfr
            output.fps = fps
        }
        self.init(clips: [Clip(source: source, sections: try sections.map { try SectionSpec(parsing: $0) })], output: output)
    }
}
