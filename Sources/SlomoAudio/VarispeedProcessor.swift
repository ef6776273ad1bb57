import SlomoCore
import CSampleRate

/// `TimePitchAlgorithm.varispeed`: band-limited sinc resampling with libsamplerate; the pitch
/// follows the speed, like tape. The ratio handed to libsamplerate is output/input = 1/rate,
/// and when the rate changes between pushes, libsamplerate glides to the new ratio across the
/// block (ramps are smooth, not stepped). Never uses libsamplerate's linear or hold modes.
public final class VarispeedProcessor: EngineProcessor {
    /// libsamplerate's sinc converters.
    public enum Quality: Sendable {
        /// `SRC_SINC_BEST_QUALITY`: ≈ 145 dB SNR, slowest.
        case best
        /// `SRC_SINC_MEDIUM_QUALITY`: ≈ 121 dB SNR, the default.
        case medium
        /// `SRC_SINC_FASTEST`: ≈ 97 dB SNR.
        case fastest
    }

    public init(rate: Double, sampleRate: Int, channelCount: Int, compensatesLatency: Bool = true,
                quality: Quality = .medium) throws {
        try super.init(.varispeed, rate: rate, sampleRate: sampleRate, channelCount: channelCount,
                       compensatesLatency: compensatesLatency) { validated in
            try SampleRateEngine(channelCount: channelCount, rate: validated, quality: quality)
        }
    }
}

final class SampleRateEngine: StretchEngine {
    let channelCount: Int
    private let state: OpaquePointer
    /// libsamplerate's output is time-aligned with its input: nothing to drop.
    let startDelay = 0
    private var ratio: Double
    /// The ratio libsamplerate last used (it glides from it to `ratio` over the output
    /// frames requested in one call, so a ramp step is requested over the expected output).
    private var lastRatio: Double
    private let chunk = 4096
    private let inBuf: UnsafeMutablePointer<Float>
    private let outBuf: UnsafeMutablePointer<Float>
    private let outCapacity = 16384

    init(channelCount: Int, rate: Double, quality: VarispeedProcessor.Quality) throws {
        self.channelCount = channelCount
        ratio = 1 / rate
        lastRatio = ratio
        let type: Int32
        switch quality {
        case .best: type = Int32(SRC_SINC_BEST_QUALITY)
        case .medium: type = Int32(SRC_SINC_MEDIUM_QUALITY)
        case .fastest: type = Int32(SRC_SINC_FASTEST)
        }
        var error: Int32 = 0
        guard let s = src_new(type, Int32(channelCount), &error) else {
            throw AudioError(.engineFailure, "libsamplerate: \(String(cString: src_strerror(error)))")
        }
        state = s
        inBuf = .allocate(capacity: chunk * channelCount)
        outBuf = .allocate(capacity: outCapacity * channelCount)
        src_set_ratio(s, ratio)
    }

    deinit {
        src_delete(state)
        inBuf.deallocate()
        outBuf.deallocate()
    }

    /// Takes effect gradually over the next push (libsamplerate interpolates the ratio).
    func setRate(_ rate: Double) { ratio = 1 / rate }

    func reset() {
        src_reset(state)
        lastRatio = ratio
        src_set_ratio(state, ratio)
    }

    /// Runs `frames` interleaved frames from `inBuf` through the converter.
    private func run(frames: Int, endOfInput: Bool, into output: inout PlanarFIFO) {
        var offset = 0
        var idle = 0
        while true {
            var data = SRC_DATA()
            data.data_in = UnsafePointer(inBuf + offset * channelCount)
            data.input_frames = frames - offset
            data.data_out = outBuf
            // libsamplerate glides the ratio over `output_frames` (the capacity, not what it
            // produces): when the ratio changes, ask for no more than this block yields, so the
            // glide completes within it instead of lagging behind the schedule.
            if lastRatio != ratio && frames > offset {
                let expected = Double(frames - offset) * (lastRatio + ratio) / 2
                data.output_frames = max(1, min(outCapacity, Int(expected.rounded(.down))))
            } else {
                data.output_frames = outCapacity
            }
            data.end_of_input = endOfInput ? 1 : 0
            data.src_ratio = ratio
            let err = src_process(state, &data)
            precondition(err == 0, "libsamplerate: \(String(cString: src_strerror(err)))")
            offset += data.input_frames_used
            if data.output_frames_gen > 0 { lastRatio = ratio }
            output.append(interleaved: outBuf, frames: data.output_frames_gen)
            if data.output_frames_gen == 0 && data.input_frames_used == 0 {
                idle += 1
                if idle > 2 { return }
            } else {
                idle = 0
            }
            if offset >= frames && (!endOfInput ? data.output_frames_gen < data.output_frames : data.output_frames_gen == 0) {
                return
            }
        }
    }

    func push(_ input: AudioBuffer, into output: inout PlanarFIFO) {
        var start = 0
        while start < input.frameCount {
            let n = min(chunk, input.frameCount - start)
            input.interleave(from: start, count: n, into: inBuf)
            run(frames: n, endOfInput: false, into: &output)
            start += n
        }
    }

    func finish(into output: inout PlanarFIFO) {
        run(frames: 0, endOfInput: true, into: &output)
    }
}
