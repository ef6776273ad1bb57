/// The kind of file a plot is written as, picked from the file name's extension.
public enum PlotFormat: String, CaseIterable, Hashable, Sendable {
    /// A raster image (cairo's image surface, written with `cairo_surface_write_to_png`).
    case png
    /// Scalable vector graphics, sized in CSS pixels.
    case svg
    /// A one-page PDF; sizes are in points.
    case pdf

    /// The format named by `path`'s extension (case-insensitive); throws `.unknownFormat`.
    public init(path: String) throws(PlotError) {
        let name = fileName(path)
        let dot = name.lastIndex(of: ".")
        let fileExtension = dot.map { String(name[name.index(after: $0)...]).lowercased() } ?? ""
        guard let format = PlotFormat(rawValue: fileExtension) else {
            let found = fileExtension.isEmpty ? "it has no extension" : "unknown plot format '.\(fileExtension)'"
            throw PlotError(.unknownFormat, path: path, detail: "\(found); use .png, .svg or .pdf")
        }
        self = format
    }
}
