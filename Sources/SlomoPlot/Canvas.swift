import CCairo

/// One picture being drawn: a cairo context underneath, coordinates in pixels from the top
/// left (points for PDF), text in the system's sans-serif face. Lives only while
/// `PlotFile.write` draws.
final class Canvas {
    /// Where a text's anchor point lies along the text.
    enum Alignment { case start, centre, end }
    /// Where a text's anchor point lies across the text: its top (cap height), the middle of
    /// its capitals, its baseline, or the bottom of its descenders.
    enum VerticalAlignment { case top, middle, baseline, bottom }

    private let context: OpaquePointer
    let width: Double
    let height: Double

    init(context: OpaquePointer, width: Double, height: Double) {
        self.context = context
        self.width = width
        self.height = height
        cairo_set_line_join(context, CAIRO_LINE_JOIN_ROUND)
    }

    func fill(_ rect: Rect, _ colour: PlotColour) {
        setColour(colour)
        cairo_rectangle(context, rect.x, rect.y, rect.width, rect.height)
        cairo_fill(context)
    }

    /// A line through `points`, `dash` giving the lengths of dashes and gaps (none: solid).
    func stroke(_ points: [Point], _ colour: PlotColour, width lineWidth: Double, dash: [Double] = []) {
        guard let first = points.first else { return }
        cairo_move_to(context, first.x, first.y)
        for point in points.dropFirst() { cairo_line_to(context, point.x, point.y) }
        strokePath(colour, width: lineWidth, dash: dash)
    }

    func strokeRect(_ rect: Rect, _ colour: PlotColour, width lineWidth: Double) {
        cairo_rectangle(context, rect.x, rect.y, rect.width, rect.height)
        strokePath(colour, width: lineWidth, dash: [])
    }

    /// A filled circle with an optional outline.
    func dot(at centre: Point, radius: Double, _ colour: PlotColour, outline: PlotColour? = nil) {
        cairo_new_sub_path(context)
        cairo_arc(context, centre.x, centre.y, radius, 0, 2 * Double.pi)
        setColour(colour)
        if let outline {
            cairo_fill_preserve(context)
            strokePath(outline, width: max(1, radius / 3), dash: [])
        } else {
            cairo_fill(context)
        }
    }

    /// Draws `text` with its anchor at `point`; `rotated` turns it a quarter left (for a
    /// vertical axis' title), alignment then running along the turned text.
    func text(_ text: String, at point: Point, size: Double, _ colour: PlotColour = .ink, bold: Bool = false,
              align: Alignment = .start, vertical: VerticalAlignment = .baseline, rotated: Bool = false) {
        setFont(size: size, bold: bold)
        let width = textWidth(text, size: size, bold: bold)
        let dx: Double = switch align {
        case .start: 0
        case .centre: -width / 2
        case .end: -width
        }
        let dy: Double = switch vertical {
        case .top: size * Self.capHeight
        case .middle: size * Self.capHeight / 2
        case .baseline: 0
        case .bottom: -size * Self.descent
        }
        cairo_save(context)
        cairo_translate(context, point.x, point.y)
        if rotated { cairo_rotate(context, -Double.pi / 2) }
        cairo_move_to(context, dx, dy)
        setColour(colour)
        cairo_show_text(context, text)
        cairo_restore(context)
    }

    /// How far `text` advances at `size`.
    func textWidth(_ text: String, size: Double, bold: Bool = false) -> Double {
        setFont(size: size, bold: bold)
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, text, &extents)
        return extents.x_advance
    }

    /// Runs `draw` with everything outside `rect` left untouched.
    func clipped(to rect: Rect, _ draw: () -> Void) {
        cairo_save(context)
        cairo_rectangle(context, rect.x, rect.y, rect.width, rect.height)
        cairo_clip(context)
        draw()
        cairo_restore(context)
    }

    /// Cap height and descender depth of sans-serif faces (DejaVu Sans), as a fraction of the size.
    private static let capHeight = 0.73
    private static let descent = 0.24

    private func setColour(_ colour: PlotColour) {
        cairo_set_source_rgb(context, colour.red, colour.green, colour.blue)
    }

    private func setFont(size: Double, bold: Bool) {
        cairo_select_font_face(context, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                               bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(context, size)
    }

    private func strokePath(_ colour: PlotColour, width lineWidth: Double, dash: [Double]) {
        setColour(colour)
        cairo_set_line_width(context, lineWidth)
        cairo_set_dash(context, dash, Int32(dash.count), 0)
        cairo_stroke(context)
    }
}
