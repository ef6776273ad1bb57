import Foundation
import SlomoCore

extension ExportSession {
    /// Where an export goes when no output is named, beside its input, so that a retime and a
    /// constant-frame-rate export of one movie never claim the same name:
    ///
    /// - a movie retimed in passthrough: `clip.mov` → `clip-slomo.mov`;
    /// - a movie at a constant frame rate: `clip-slomo-30fps.mov` (`-29.97fps` for 30000/1001),
    ///   with the extension the codec suits (ProRes `.mov`, FFV1 `.mkv`, H.264/HEVC keep
    ///   `.mov`/`.mp4`/`.m4v`/`.mkv` and otherwise get `.mp4`);
    /// - an edit document (script or timeline): `edit.yaml` → `edit.mp4` (`.mov`, `.mkv` by codec),
    ///   `edit.mov` in passthrough (a container for any copied codec).
    public static func defaultOutputPath(for input: String, mode: ExportSettings.Mode, codec: VideoExportSettings.Codec,
                                         inputIsEditDocument: Bool) -> String {
        let url = URL(fileURLWithPath: input)
        let stem = url.deletingPathExtension().path
        if inputIsEditDocument {
            guard case .constantFrameRate = mode else { return stem + ".mov" }
            return stem + "." + (codec == .prores ? "mov" : codec == .ffv1 ? "mkv" : "mp4")
        }
        var ext = url.pathExtension.isEmpty ? "mov" : url.pathExtension.lowercased()
        guard case .constantFrameRate(let rate) = mode else { return stem + "-slomo." + ext }
        switch codec {
        case .prores: ext = "mov"
        case .ffv1: ext = "mkv"
        case .h264, .hevc: if !["mov", "mp4", "m4v", "mkv"].contains(ext) { ext = "mp4" }
        }
        let fps = Rational.exactDecimal(rate) ?? String(format: "%.2f", rate.doubleValue)
        return stem + "-slomo-\(fps)fps." + ext
    }
}
