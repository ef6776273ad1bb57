// Draws an animation into pixel buffers — a ball bouncing across the frame and a frame
// counter — and writes it as a 60 fps movie with a click on every whole second, the way a
// script renders its own pictures with slomo's encoders.
//
//   swift run FrameWriterExample ball.mp4
import Foundation
import Slomo

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    print("usage: FrameWriterExample OUTPUT.mp4")
    exit(64)
}

let (width, height, fps, seconds) = (640, 360, 60, 3)
let sampleRate = 48_000

/// Paints `value` as seven-segment digits, `size` pixels tall, with its top-left corner at (x, y).
func drawNumber(_ value: Int, x: Int, y: Int, size: Int, into picture: inout PixelBuffer) {
    // Segments a–g of each digit: top, top right, bottom right, bottom, bottom left, top left, middle.
    let segments: [[Bool]] = ["1111110", "0110000", "1101101", "1111001", "0110011",
                              "1011011", "1011111", "1110000", "1111111", "1111011"].map { $0.map { $0 == "1" } }
    let (w, t) = (size / 2, max(2, size / 10))
    let yellow = PixelBuffer.Color(red: 255, green: 210, blue: 0)
    for (index, digit) in String(value).compactMap(\.wholeNumberValue).enumerated() {
        let left = x + index * (w + 2 * t)
        let bars = [(left, y, w, t), (left + w - t, y, t, size / 2), (left + w - t, y + size / 2, t, size / 2),
                    (left, y + size - t, w, t), (left, y + size / 2, t, size / 2), (left, y, t, size / 2),
                    (left, y + size / 2 - t / 2, w, t)]
        for (bar, on) in zip(bars, segments[digit]) where on {
            picture.fill(x: bar.0, y: bar.1, width: bar.2, height: bar.3, with: yellow)
        }
    }
}

/// Frame `n`: a dark blue background, a ball bouncing off the edges, the frame number.
func drawFrame(_ n: Int) -> PixelBuffer {
    var picture = PixelBuffer(.bgra, width: width, height: height, color: PixelBuffer.Color(red: 10, green: 20, blue: 60))
    let radius = 30
    func bounce(_ position: Int, _ span: Int) -> Int { let p = position % (2 * span); return p < span ? p : 2 * span - p }
    let (cx, cy) = (radius + bounce(n * 7, width - 2 * radius), radius + bounce(n * 4, height - 2 * radius))
    for dy in -radius...radius {
        let half = Int(Double(radius * radius - dy * dy).squareRoot())
        picture.fill(x: cx - half, y: cy + dy, width: 2 * half + 1, height: 1, with: .white)
    }
    drawNumber(n, x: 20, y: 20, size: 40, into: &picture)
    return picture
}

/// The sound that goes with frame `n`: a 20 ms 1 kHz click at the start of every second.
func soundOfFrame(_ n: Int) -> AudioBuffer {
    let count = sampleRate / fps
    let samples = (0..<count).map { k -> Float in
        let t = Double(n % fps * count + k) / Double(sampleRate)
        return t < 0.02 ? Float(0.5 * sin(2 * Double.pi * 1000 * t)) : 0
    }
    return AudioBuffer(planar: [samples])
}

do {
    let frames = fps * seconds
    let settings = MovieWriterSettings(width: width, height: height, frameRate: Rational(Int64(fps)),
                                       video: VideoExportSettings(codec: .h264, crf: 18),
                                       audio: .init(sampleRate: sampleRate, channelCount: 1),
                                       expectedDuration: MediaTime(seconds: Rational(Int64(seconds))), overwrite: true)
    let writer = try MovieWriter(path: arguments[1], settings: settings)
    for n in 0..<frames {
        try writer.append(drawFrame(n))
        try writer.append(audio: soundOfFrame(n))
        if (n + 1) % 30 == 0 {
            let progress = writer.progress
            print("frame \(progress.videoFrames) of \(frames), \(Int(progress.fraction * 100)) %")
        }
    }
    let result = try writer.finish()
    print("wrote \(result.outputPath): \(result.videoFrames) frames, \(result.outputDuration.doubleSeconds) s")
} catch {
    print("error: \(error)")
    exit(1)
}
