import Foundation
import SlomoMedia
import Synchronization

/// Audio level meters like AVCaptureAudioChannel's: per channel, the average power (RMS, in
/// dBFS, over the last `window` seconds) and the peak held for `peakHold` seconds. A full-scale
/// square wave reads 0 dBFS; a sine of amplitude 0.5 reads −6.02 dBFS peak and −9.03 dBFS
/// average. Fed by the capture thread, polled from anywhere.
public final class AudioLevelMeter: Sendable {
    /// The levels of one channel.
    public struct ChannelLevel: Hashable, Sendable, Codable {
        public var averagePower: Double
        public var peakHold: Double
    }

    /// The lowest level reported, for silence.
    public static let floor = -160.0

    public let window: Double
    public let peakHold: Double
    /// The window's blocks and the held peaks; reachable only inside `measured`'s lock.
    private struct Measured {
        /// Per channel: (sum of squares, sample count) of each block in the window.
        var blocks: [[(squares: Double, count: Int)]] = []
        var blockTimes: [Double] = []
        var peaks: [(value: Double, time: Double)] = []
        /// Seconds of sound measured.
        var clock: Double = 0
    }

    private let measured = Mutex(Measured())

    public init(window: Double = 0.3, peakHold: Double = 2) {
        self.window = window
        self.peakHold = peakHold
    }

    /// The levels now, one per channel (empty before any sound arrived).
    public var levels: [ChannelLevel] {
        measured.withLock { measured in
            measured.blocks.indices.map { channel in
                let squares = measured.blocks[channel].reduce(0) { $0 + $1.squares }
                let count = measured.blocks[channel].reduce(0) { $0 + $1.count }
                let rms = count > 0 ? (squares / Double(count)).squareRoot() : 0
                return ChannelLevel(averagePower: Self.decibels(rms), peakHold: Self.decibels(measured.peaks[channel].value))
            }
        }
    }

    static func decibels(_ amplitude: Double) -> Double {
        amplitude > 0 ? max(floor, 20 * log10(amplitude)) : floor
    }

    /// Measures one block of samples (any packed or planar integer or float format).
    func process(_ frame: Frame) {
        let channels = frame.channelCount, count = frame.sampleCount
        guard channels > 0, count > 0, frame.sampleRate > 0 else { return }
        var squares = [Double](repeating: 0, count: channels)
        var maxima = [Double](repeating: 0, count: channels)
        let format = frame.sampleFormat
        let planar = format.isPlanar
        let name = format.name.hasSuffix("p") && planar ? String(format.name.dropLast()) : format.name
        for channel in 0..<channels {
            guard let base = frame.planeData(planar ? channel : 0) else { continue }
            let stride = planar ? 1 : channels
            let offset = planar ? 0 : channel
            var sum = 0.0, peak = 0.0
            for index in 0..<count {
                let position = index * stride + offset
                let value: Double
                switch name {
                case "s16": value = Double(UnsafeRawPointer(base).load(fromByteOffset: position * 2, as: Int16.self)) / 32768
                case "s32": value = Double(UnsafeRawPointer(base).load(fromByteOffset: position * 4, as: Int32.self)) / 2147483648
                case "flt": value = Double(UnsafeRawPointer(base).load(fromByteOffset: position * 4, as: Float.self))
                case "dbl": value = UnsafeRawPointer(base).load(fromByteOffset: position * 8, as: Double.self)
                case "u8": value = (Double(base[position]) - 128) / 128
                default: return
                }
                sum += value * value
                peak = max(peak, abs(value))
            }
            squares[channel] = sum
            maxima[channel] = peak
        }
        let duration = Double(count) / Double(frame.sampleRate)
        measured.withLock { m in
            if m.blocks.count != channels {
                m.blocks = Array(repeating: [], count: channels)
                m.peaks = Array(repeating: (0, 0), count: channels)
                m.blockTimes = []
            }
            m.clock += duration
            m.blockTimes.append(m.clock)
            for channel in 0..<channels {
                m.blocks[channel].append((squares[channel], count))
                if maxima[channel] >= m.peaks[channel].value || m.clock - m.peaks[channel].time > peakHold {
                    m.peaks[channel] = (maxima[channel], m.clock)
                }
            }
            while let first = m.blockTimes.first, m.clock - first >= window, m.blockTimes.count > 1 {
                m.blockTimes.removeFirst()
                for channel in 0..<channels { m.blocks[channel].removeFirst() }
            }
        }
    }
}
