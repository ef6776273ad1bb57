import Foundation
import SlomoCore

/// Writes a `Timeline` as MLT XML (`.mlt`), the project format of Shotcut and Kdenlive and the
/// input of `melt`: a profile at the timeline's frame rate and the first source's size, and a
/// playlist with one entry per event. An event at rate 1 plays an `avformat` producer; any other
/// rate a `timewarp` producer (`resource` = `SPEED:PATH`), a reversed event one at a negative
/// speed (`-SPEED:PATH`, played from the producer's `out` backwards), a freeze frame a `hold`
/// producer of the held frame; a timewarp's frame `n` shows source time
/// `n × SPEED / fps` (rounded to the nearest source frame, which entries compensate).
/// MLT counts whole frames: each event plays over its placed frames (`Timeline.Event.placed`).
public enum MLTWriter {
    /// The `.mlt` text of `timeline`.
    public static func text(_ timeline: Timeline) -> String {
        let fps = timeline.frameRate
        let first = timeline.media.first
        let width = max(first?.width ?? 0, 2), height = max(first?.height ?? 0, 2)
        let divisor = Int(Rational.gcd(Int64(width), Int64(height)))
        var producers: [String] = []
        var entries: [String] = []
        for (index, event) in timeline.events.enumerated() {
            let media = timeline.media[event.media]
            let startFrame = frame(event.placed.start, fps: fps)
            let length = frame(event.placed.end, fps: fps) - startFrame
            guard length > 0 else { continue }
            let speed = event.placedRate
            let id = "producer\(index)"
            let properties: [(String, String)]
            let inFrame: Int
            if event.hold != nil {
                // MLT's hold producer repeats one frame (counted at the profile's rate) for the entry.
                let held = Int((event.source.start.doubleSeconds * fps.doubleValue).rounded(.down))
                properties = [("resource", media.path), ("mlt_service", "hold"), ("frame", "\(held)")]
                inFrame = 0
            } else if event.reversed {
                // A negative timewarp plays from its producer's `out` backwards: the entry's frame n
                // (from in = 0) shows the source frame nearest to (out − n) × SPEED / fps. `out` is the
                // last position before the range's end less half a source frame, so frame 0 shows the
                // range's last frame and each later one the frame its time falls in.
                let halfFrame = MediaTime(seconds: (media.frameRate ?? fps).reciprocal / Rational(2))
                let out = lastPosition(before: event.source.end - halfFrame, speed: speed, fps: fps)
                let speedText = "-" + number(speed.doubleValue)
                properties = [("resource", "\(speedText):\(media.path)"), ("mlt_service", "timewarp"),
                              ("warp_speed", speedText), ("warp_resource", media.path),
                              ("length", "\(out + 1)"), ("out", "\(out)")]
                inFrame = 0
            } else {
                // timewarp shows the source frame nearest to n × SPEED, i.e. each frame from half a
                // frame before its time; entering half a source frame earlier puts it on its time.
                let sourceFrame = 1 / (media.frameRate ?? fps).doubleValue
                let lead = speed == Rational(1) ? 0 : sourceFrame / 2
                inFrame = max(0, Int(((event.source.start.doubleSeconds - lead) / speed.doubleValue * fps.doubleValue).rounded()))
                if speed == Rational(1) {
                    properties = [("resource", media.path), ("mlt_service", "avformat")]
                } else {
                    let speedText = number(speed.doubleValue)
                    properties = [("resource", "\(speedText):\(media.path)"), ("mlt_service", "timewarp"),
                                  ("warp_speed", speedText), ("warp_resource", media.path)]
                }
            }
            let body = properties.map { "    <property name=\"\($0)\">\(XMLText.escaped($1))</property>" }
            producers.append("  <producer id=\"\(id)\">\n" + body.joined(separator: "\n") + "\n  </producer>")
            entries.append("    <entry producer=\"\(id)\" in=\"\(inFrame)\" out=\"\(inFrame + length - 1)\"/>")
        }
        let total = frame(timeline.duration, fps: fps)
        return """
            <?xml version="1.0" encoding="utf-8"?>
            <mlt LC_NUMERIC="C" version="7.0.0" title="\(XMLText.escaped(timeline.name))" producer="tractor0">
              <profile description="slomo" width="\(width)" height="\(height)" progressive="1" sample_aspect_num="1" sample_aspect_den="1" display_aspect_num="\(width / divisor)" display_aspect_den="\(height / divisor)" frame_rate_num="\(fps.numerator)" frame_rate_den="\(fps.denominator)" colorspace="709"/>
            \(producers.joined(separator: "\n"))
              <playlist id="playlist0">
            \(entries.joined(separator: "\n"))
              </playlist>
              <tractor id="tractor0" in="0" out="\(total - 1)">
                <track producer="playlist0"/>
              </tractor>
            </mlt>

            """
    }

    /// The last position of a timewarp producer at `speed` whose source time (`n × speed / fps`)
    /// lies before `time`: exact where the quotient fits in 64 bits, else from doubles.
    static func lastPosition(before time: MediaTime, speed: Rational, fps: Rational) -> Int {
        let position = (try? time.divided(by: speed).ticks(in: fps.reciprocal, rounding: .up))
            ?? Int64((time.doubleSeconds / speed.doubleValue * fps.doubleValue).rounded(.up))
        return Int(position) - 1
    }

    /// The frame at `time`, rounded to nearest.
    static func frame(_ time: MediaTime, fps: Rational) -> Int {
        Int((time.doubleSeconds * fps.doubleValue).rounded())
    }

    /// A speed as MLT reads it: plain decimal, no exponent.
    static func number(_ value: Double) -> String {
        var text = String(format: "%.9f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
