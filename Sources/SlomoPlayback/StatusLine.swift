import CCairo
import CSDL2

/// The on-screen line: the status text drawn with cairo into a texture, shown at the bottom
/// of the window on a dark band for a few seconds after a key, and while paused.
final class StatusLine {
    private let renderer: OpaquePointer
    private var texture: OpaquePointer?
    private var size = (width: 0, height: 0)
    private var text = ""

    /// Points of the text.
    static let fontSize = 14.0

    init(renderer: OpaquePointer) { self.renderer = renderer }

    deinit { if let texture { SDL_DestroyTexture(texture) } }

    /// Draws `newText` into the texture (only when it changed).
    func set(_ newText: String) {
        guard newText != text else { return }
        text = newText
        let width = Int32(max(16, 8 * newText.count + 16)), height = Int32(Self.fontSize * 1.8)
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height) else { return }
        defer { cairo_surface_destroy(surface) }
        let context = cairo_create(surface)
        defer { cairo_destroy(context) }
        cairo_set_source_rgba(context, 0, 0, 0, 0.6)
        cairo_paint(context)
        cairo_select_font_face(context, "monospace", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(context, Self.fontSize)
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, newText, &extents)
        cairo_set_source_rgba(context, 1, 1, 1, 1)
        cairo_move_to(context, 8, Self.fontSize * 1.25)
        cairo_show_text(context, newText)
        cairo_surface_flush(surface)
        if let texture { SDL_DestroyTexture(texture) }
        texture = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ARGB8888.rawValue, Int32(SDL_TEXTUREACCESS_STATIC.rawValue),
                                    width, height)
        guard let texture else { return }
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
        SDL_UpdateTexture(texture, nil, cairo_image_surface_get_data(surface), cairo_image_surface_get_stride(surface))
        size = (min(Int(width), Int(extents.x_advance) + 16), Int(height))
    }

    /// Copies the line to the bottom left of an output of `outputHeight` pixels.
    func draw(outputHeight: Int32) {
        guard let texture else { return }
        var source = SDL_Rect(x: 0, y: 0, w: Int32(size.width), h: Int32(size.height))
        var target = SDL_Rect(x: 0, y: outputHeight - Int32(size.height), w: Int32(size.width), h: Int32(size.height))
        SDL_RenderCopy(renderer, texture, &source, &target)
    }
}
