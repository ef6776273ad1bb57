import Foundation

/// Clips made by ffmpeg with known ground truth, 320x480 at 240 fps: white squares that fall
/// and land (each stopping dead on the floor at its landing time), over a plain or a textured
/// background that may pan or cut to another, with a click at each landing or not.
public struct SyntheticClip: Sendable {
    /// A square of `size` pixels at column `x` that falls for 1.2 s and lands at `landing`
    /// seconds (the frame at exactly that time is the first at rest), with a click of
    /// `click` amplitude (0: silent) starting then.
    public struct Fall: Sendable {
        public var x = 150
        public var size = 24
        public var landing = 1.2
        public var click = 0.8

        public init(x: Int = 150, size: Int = 24, landing: Double = 1.2, click: Double = 0.8) {
            self.x = x
            self.size = size
            self.landing = landing
            self.click = click
        }
    }

    public enum Background: Sendable {
        case plain
        /// A still texture seen by a camera panning 150 px/s.
        case panning
        /// One texture, then at `at` seconds another.
        case cut(at: Double)
    }

    public var falls: [Fall]
    public var background: Background
    public var duration: Double
    public var sound: Bool
    /// Encoded with B-frames (x264 veryfast, 3 of them), as cameras and phones do; without,
    /// every picture is a reference.
    public var bFrames: Bool

    public init(falls: [Fall] = [Fall()], background: Background = .plain, duration: Double = 2, sound: Bool = true,
                bFrames: Bool = false) {
        self.falls = falls
        self.background = background
        self.duration = duration
        self.sound = sound
        self.bFrames = bFrames
    }

    public static let rate = 240
    static let floorY = 439

    /// Writes the clip to `folder/name.mov` (H.264, PCM sound when `sound`).
    public func write(named name: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("\(name).mov")
        let frames = Int(duration * Double(Self.rate))
        var inputs = ["-f", "lavfi", "-i", backgroundSource(frames: frames)]
        var graph = "[0]format=rgb24[b0]"
        for (index, fall) in falls.enumerated() {
            inputs += ["-f", "lavfi", "-i", "color=c=white:s=\(fall.size)x\(fall.size):r=\(Self.rate):d=\(duration),format=rgb24"]
            let start = fall.landing - 1.2
            let top = 10.0, bottom = Double(Self.floorY + 24 - fall.size)
            let g = (bottom - top) / (1.2 * 1.2)
            let y = "if(lt(t,\(start)),\(top),if(lt(t,\(fall.landing)),\(top)+\(g)*(t-\(start))*(t-\(start)),\(bottom)))"
            graph += ";[b\(index)][\(index + 1)]overlay=x=\(fall.x):y='\(y)':eval=frame:format=rgb[b\(index + 1)]"
        }
        graph += ";[b\(falls.count)]format=yuv420p[v]"
        var maps = ["-map", "[v]"]
        if sound {
            let clicks = falls.filter { $0.click > 0 }.map {
                "if(gte(t,\($0.landing))*lt(t,\($0.landing + 0.05)),\($0.click)*sin(2*PI*2000*(t-\($0.landing)))*exp(-(t-\($0.landing))*80),0)"
            }
            inputs += ["-f", "lavfi", "-i", "aevalsrc='\(clicks.isEmpty ? "0" : clicks.joined(separator: "+"))':s=48000:d=\(duration)"]
            maps += ["-map", "\(falls.count + 1)", "-c:a", "pcm_s16le"]
        }
        try runChecked("ffmpeg", ["-v", "error", "-nostdin", "-y"] + inputs + ["-filter_complex", graph] + maps
                       + ["-frames:v", "\(frames)", "-c:v", "libx264"] + (bFrames ? ["-preset", "veryfast", "-bf", "3"] : ["-preset", "ultrafast"])
                       + ["-crf", "18", url.path])
        return url
    }

    private func backgroundSource(frames: Int) -> String {
        let still = "nullsrc=s=800x480:r=\(Self.rate),geq=lum='%@':cb=128:cr=128,trim=end_frame=1,loop=loop=\(frames):size=1,setpts=N/\(Self.rate)/TB"
        let texture = "128+50*sin(X/5.3)*cos(Y/7.1)+40*sin((X+Y)/11)"
        switch background {
        case .plain:
            return "color=c=gray:s=320x480:r=\(Self.rate):d=\(duration)"
        case .panning:
            return String(format: still, texture) + ",crop=320:480:x='t*150'"
        case .cut(let at):
            let other = "128+60*cos(X/3.1+Y/4.7)"
            return "nullsrc=s=320x480:r=\(Self.rate):d=\(duration),geq=lum='if(lt(T,\(at)),\(texture),\(other))':cb=128:cr=128"
        }
    }
}
