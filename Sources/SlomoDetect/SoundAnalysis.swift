import Foundation
import SlomoCore
import SlomoMedia

/// A file's first audio stream reduced to its envelope (RMS over 1 ms, every quarter of a
/// millisecond, in dBFS, channels mixed), and the sharp onsets found in it: where the envelope
/// rises by `minimumRise` dB or more within 20 ms above a floor of −50 dBFS. Streams the sound:
/// only the envelope is kept (16 kB a second).
struct SoundAnalysis {
    /// Envelope values a second.
    static let envelopeRate = 4000
    /// The shortest rise that counts as an onset, in dB, and how quickly it must happen.
    static let minimumRise = 15.0
    static let riseWindow = 0.020
    /// Quieter than this is silence.
    static let floor = -50.0

    var envelope: [Float] = []
    var onsets: [SoundOnset] = []

    /// Analyses `file`'s first audio stream; nothing for a file without sound.
    init(of file: MediaFile, interrupt: () throws -> Void = {}) throws {
        guard let audio = file.audioStreams.first else { return }
        let reader = try FrameReader(path: file.path, stream: audio.index)
        var resampler: Resampler?
        var hop = 0, window = 0
        var history: [Float] = []            // squared samples of the last window
        var sum: Float = 0, filled = 0, sinceLast = 0
        // Times are the clip's (from the video's start), as sections and frames are.
        let origin = file.clipOrigin
        var startTime: MediaTime?
        while let frame = try reader.next() {
            try interrupt()
            if resampler == nil {
                let rate = frame.sampleRate
                resampler = try Resampler(from: frame.audioFormat, to: AudioFormat(sampleRate: rate, layout: .mono))
                hop = max(1, rate / Self.envelopeRate)
                window = max(hop, rate / 1000)
                history = [Float](repeating: 0, count: window)
                startTime = frame.presentationTime.map { $0 - origin } ?? .zero
            }
            let mono = try resampler!.convert(frame)
            guard mono.sampleCount > 0 else { continue }
            for sample in mono.floatChannels()[0] {
                let square = sample * sample
                sum += square - history[filled % window]
                history[filled % window] = square
                filled += 1
                sinceLast += 1
                if sinceLast == hop {
                    sinceLast = 0
                    envelope.append(10 * log10(max(sum, 0) / Float(window) + 1e-12))
                }
            }
        }
        if let startTime, let rate = resampler?.output.sampleRate {
            onsets = Self.onsets(in: envelope, start: startTime, samplesPerValue: hop, sampleRate: rate)
        }
    }

    /// The onsets of `envelope` (a value every `samplesPerValue` samples from `start`, each over
    /// the millisecond that ends there): each rise of `minimumRise` dB within `riseWindow` over
    /// the quietest point before it, timed where the envelope first passes 20 dB below the peak
    /// that follows, and at least 50 ms apart.
    static func onsets(in envelope: [Float], start: MediaTime, samplesPerValue: Int, sampleRate: Int) -> [SoundOnset] {
        let window = Int(riseWindow * Double(envelopeRate))
        var found: [SoundOnset] = []
        var index = window
        while index < envelope.count {
            let before = envelope[(index - window)..<index].min()!
            let value = envelope[index]
            guard Double(value) > floor, Double(value - before) >= minimumRise else {
                index += 1
                continue
            }
            let peakRange = index..<min(envelope.count, index + window)
            let peak = envelope[peakRange].max()!
            // Back to where the envelope first rose above 20 dB below the peak.
            var onset = index
            while onset > index - window && envelope[onset - 1] >= peak - 20 { onset -= 1 }
            while onset < index && envelope[onset] < peak - 20 { onset += 1 }
            // A trailing window reaches 20 dB below a sudden sound's level once a hundredth of
            // it holds the sound: the onset lies within the last hop before that value.
            let sample = onset * samplesPerValue + samplesPerValue / 2
            let time = start + MediaTime(value: Int64(sample), timescale: Int64(sampleRate))
            found.append(SoundOnset(time: time, rise: Double(peak - before), peak: Double(peak)))
            index = peakRange.upperBound + Int(0.030 * Double(envelopeRate))
        }
        return found
    }
}
