import CCairo
import SlomoMedia

/// Where a plot goes: a path whose extension picks the format, the size, and whether an
/// existing file may be replaced. The picture is drawn into a file that gets its name only when
/// complete, so a plot file is never seen half written.
public struct PlotFile: Hashable, Sendable {
    public let path: String
    public let format: PlotFormat
    public let size: PlotSize
    /// Replace an existing file at `path`; without it an existing file is kept and refused.
    public let overwrite: Bool

    /// Throws `.unknownFormat` when `path` does not end in .png, .svg or .pdf.
    public init(path: String, size: PlotSize = .standard, overwrite: Bool = false) throws(PlotError) {
        self.path = path
        self.format = try PlotFormat(path: path)
        self.size = size
        self.overwrite = overwrite
    }

    /// Throws `.unwritable` unless the file may be written: its folder exists, and it is
    /// neither a folder nor, without `overwrite`, an existing file. Check before long work.
    public func checkWritable() throws(PlotError) {
        do {
            try OutputPath.checkWritable(path, overwrite: overwrite)
        } catch {
            throw PlotError(.unwritable, path: path, writing: error)
        }
    }

    /// Draws the picture with `draw` on a canvas of `size` and writes it to `path` atomically
    /// (a `PartialFile`, which has no name until finished).
    func write(_ draw: (Canvas) -> Void) throws(PlotError) {
        let partial: PartialFile
        do {
            partial = try PartialFile(target: path, overwrite: overwrite)
        } catch {
            throw PlotError(.unwritable, path: path, writing: error)
        }
        let status = render(to: partial.writePath, draw)
        guard status == CAIRO_STATUS_SUCCESS else {
            partial.discard()
            throw PlotError(.writeFailed, path: path, detail: "cannot write the plot (\(String(cString: cairo_status_to_string(status))))")
        }
        do {
            try partial.publish()
        } catch {
            throw PlotError(.writeFailed, path: path, writing: error)
        }
    }

    /// Draws on the format's cairo surface and writes it to `file`; cairo's final status.
    private func render(to file: String, _ draw: (Canvas) -> Void) -> cairo_status_t {
        let width = Double(size.width), height = Double(size.height)
        let surface: OpaquePointer = switch format {
        case .png: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(size.width), Int32(size.height))
        case .svg: cairo_svg_surface_create(file, width, height)
        case .pdf: cairo_pdf_surface_create(file, width, height)
        }
        defer { cairo_surface_destroy(surface) }
        switch format {
        case .png: break
        case .svg: cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PX)
        case .pdf: cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "slomo")
        }
        let context = cairo_create(surface)!
        draw(Canvas(context: context, width: width, height: height))
        cairo_destroy(context)
        if format == .png {
            let written = cairo_surface_write_to_png(surface, file)
            if written != CAIRO_STATUS_SUCCESS { return written }
        }
        cairo_surface_finish(surface)
        return cairo_surface_status(surface)
    }
}
