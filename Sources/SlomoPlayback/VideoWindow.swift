import Foundation
import CSDL2
import SlomoCore
import SlomoMedia

/// The window pictures are shown in, through SDL: a renderer and one planar YUV texture of
/// the picture's size. Pictures keep their aspect ratio (letterboxed in any window size) and
/// their rotation; pictures that are not 8-bit 4:2:0 are converted, HDR ones tone-mapped to SDR.
/// A status line can be drawn over the bottom of the picture.
final class VideoWindow {
    private let window: OpaquePointer
    private let renderer: OpaquePointer
    private let texture: OpaquePointer
    private let video: VideoInfo
    /// Picture size after the sample aspect ratio, before rotation.
    private let displayWidth: Int, displayHeight: Int
    private var converter: FilterGraph?
    private var fullscreen: Bool
    private let statusLine: StatusLine
    /// Whether the status line is drawn over the picture.
    var showsStatus = false

    /// The display's refresh rate (60 when SDL does not know it, as with the dummy driver).
    let refreshRate: Double
    /// The SDL video driver ("x11", "wayland", "dummy"…).
    let driver: String

    /// Opens a window at the movie's display size (smaller only if the screen is smaller).
    /// Throws `PlaybackError(.noDisplay)` when no window can open.
    init(video: VideoInfo, title: String, fullscreen: Bool) throws {
        try SDLSubsystem.start(SDL_INIT_VIDEO)
        driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "unknown"
        // Without a display SDL falls back on its offscreen driver, which opens windows nobody sees.
        if driver == "offscreen", ProcessInfo.processInfo.environment["SDL_VIDEODRIVER"] != "offscreen" {
            throw PlaybackError(.noDisplay, "SDL found no display (DISPLAY and WAYLAND_DISPLAY are unset), only its offscreen driver")
        }
        self.video = video
        let aspect = video.sampleAspectRatio.map { $0.numerator > 0 ? $0.doubleValue : 1 } ?? 1
        displayWidth = Int((Double(video.width) * aspect).rounded())
        displayHeight = video.height
        let turned = abs(video.rotation) % 180 == 90
        var width = turned ? displayHeight : displayWidth, height = turned ? displayWidth : displayHeight
        var bounds = SDL_Rect()
        if SDL_GetDisplayUsableBounds(0, &bounds) == 0, bounds.w > 0, bounds.h > 0,
           width > Int(bounds.w) || height > Int(bounds.h), driver != "dummy" {
            let scale = min(Double(bounds.w) / Double(width), Double(bounds.h) / Double(height))
            width = Int(Double(width) * scale)
            height = Int(Double(height) * scale)
        }
        var mode = SDL_DisplayMode()
        refreshRate = SDL_GetCurrentDisplayMode(0, &mode) == 0 && mode.refresh_rate > 0 ? Double(mode.refresh_rate) : 60
        let centered = Int32(bitPattern: 0x2FFF_0000)
        var flags = SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        if fullscreen { flags |= SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue }
        guard let window = SDL_CreateWindow(title, centered, centered, Int32(width), Int32(height), flags) else {
            throw PlaybackError(.noDisplay, "cannot open a window: \(SDL.lastError)")
        }
        SDL_SetYUVConversionMode(Self.conversion(for: video))
        guard let renderer = SDL_CreateRenderer(window, -1, 0) ?? SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue),
              let texture = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_IYUV.rawValue, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                                              Int32(video.width), Int32(video.height)) else {
            SDL_DestroyWindow(window)
            throw PlaybackError(.noDisplay, "cannot draw in a window: \(SDL.lastError)")
        }
        self.window = window
        self.renderer = renderer
        self.texture = texture
        self.fullscreen = fullscreen
        statusLine = StatusLine(renderer: renderer)
    }

    deinit {
        SDL_DestroyTexture(texture)
        SDL_DestroyRenderer(renderer)
        SDL_DestroyWindow(window)
    }

    /// Sets the title and the on-screen status line.
    func setStatus(title: String, line: String) {
        SDL_SetWindowTitle(window, title)
        statusLine.set(line)
    }

    func toggleFullscreen() {
        fullscreen.toggle()
        SDL_SetWindowFullscreen(window, fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue : 0)
    }

    /// Uploads `frame` (converted when it is not 8-bit 4:2:0) and presents it.
    func show(_ frame: Frame) throws {
        let picture = try displayable(frame)
        SDL_UpdateYUVTexture(texture, nil,
                             picture.planeData(0), Int32(picture.lineSize(plane: 0)),
                             picture.planeData(1), Int32(picture.lineSize(plane: 1)),
                             picture.planeData(2), Int32(picture.lineSize(plane: 2)))
        present()
    }

    /// Draws the last picture again (after a resize or an expose).
    func present() {
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
        SDL_RenderClear(renderer)
        var outputWidth: Int32 = 0, outputHeight: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &outputWidth, &outputHeight)
        let turned = abs(video.rotation) % 180 == 90
        let pictureWidth = Double(turned ? displayHeight : displayWidth), pictureHeight = Double(turned ? displayWidth : displayHeight)
        let scale = min(Double(outputWidth) / pictureWidth, Double(outputHeight) / pictureHeight)
        // The destination is the unrotated picture's rectangle, centred; SDL turns it about its centre,
        // clockwise, where the display matrix counts counterclockwise.
        let width = Double(displayWidth) * scale, height = Double(displayHeight) * scale
        var target = SDL_Rect(x: Int32(((Double(outputWidth) - width) / 2).rounded()),
                              y: Int32(((Double(outputHeight) - height) / 2).rounded()),
                              w: Int32(width.rounded()), h: Int32(height.rounded()))
        SDL_RenderCopyEx(renderer, texture, nil, &target, Double(-video.rotation), nil, SDL_FLIP_NONE)
        if showsStatus { statusLine.draw(outputHeight: outputHeight) }
        SDL_RenderPresent(renderer)
    }

    /// The matrix SDL turns the texture's YUV into RGB with: the picture's own (BT.709 once
    /// tone-mapped), else SDL's choice by height (BT.601 up to 576 lines, as FFmpeg assumes).
    private static func conversion(for video: VideoInfo) -> SDL_YUV_CONVERSION_MODE {
        if video.isHDR { return SDL_YUV_CONVERSION_BT709 }
        if video.color.range == "pc" { return SDL_YUV_CONVERSION_JPEG }
        switch video.color.matrix {
        case "bt709": return SDL_YUV_CONVERSION_BT709
        case "smpte170m", "bt470bg": return SDL_YUV_CONVERSION_BT601
        default: return SDL_YUV_CONVERSION_AUTOMATIC
        }
    }

    /// `frame` as 8-bit 4:2:0 BT.709-ish SDR at the texture's size.
    private func displayable(_ frame: Frame) throws -> Frame {
        if frame.pixelFormat == .yuv420p && !video.isHDR { return frame }
        if converter == nil {
            let chain = (video.isHDR ? video.toneMapToSDRFilter + "," : "") + "format=yuv420p"
            converter = try FilterGraph(video: .init(width: frame.width, height: frame.height, pixelFormat: frame.pixelFormat,
                                                     timeBase: frame.timeBase), description: chain)
        }
        guard let converted = try converter!.process(frame).last else {
            throw PlaybackError(.failed, "the picture converter returned no picture")
        }
        return converted
    }
}
