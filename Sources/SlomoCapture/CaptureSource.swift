import Foundation
import SlomoConcurrency
import SlomoCore
import SlomoMedia

/// An opened input of a running session: its demuxer, the stream recorded from it, a decoder
/// when its samples must be decoded, and the re-stamping onto the session clock.
///
/// One of the `@unchecked Sendable` types that docs/architecture.md lists, checked at run time:
/// every thread reads what describes the input (its `let`s), but the demuxer, the decoder, the
/// re-stamping and the test pattern's cycle, C state moved from thread to thread by design,
/// belong to one thread at a time. The session's thread owns them while it starts (opening, the
/// decoder, the pattern, a movie output copying the stream), `handOn()` gives them up, and the
/// reader thread `claim()`s them before it reads. Every use of them checks (`ThreadOwnership`).
final class CaptureSource: @unchecked Sendable {
    let index: Int
    let input: CaptureInput
    let streamIndex: Int
    let stream: StreamInfo
    let interrupt: InterruptFlag
    /// True for raw pictures or PCM, which outputs receive decoded; false for compressed data.
    let isRaw: Bool
    var isAudio: Bool { stream.kind == .audio }
    /// The rate the source really delivers (read back after opening: drivers round).
    let frameRate: Rational?
    /// Which thread may use the reader's state below.
    private let ownership = ThreadOwnership()
    private let ownedDemuxer: Demuxer
    private var ownedDecoder: Decoder?
    private var ownedRestamper: SourceRestamper
    private var ownedAudioFormat: AudioFormat?

    /// The input's demuxer (the owning thread only).
    var demuxer: Demuxer {
        checkOwner()
        return ownedDemuxer
    }
    /// The decoder, when its samples are decoded (the owning thread only).
    var decoder: Decoder? {
        checkOwner()
        return ownedDecoder
    }
    /// The re-stamping onto the session clock (the owning thread only).
    var restamper: SourceRestamper {
        get {
            checkOwner()
            return ownedRestamper
        }
        set {
            checkOwner()
            ownedRestamper = newValue
        }
    }
    /// The audio format of decoded frames (the owning thread only).
    var audioFormat: AudioFormat? {
        checkOwner()
        return ownedAudioFormat
    }

    /// Opens the input; `openTimeout` bounds how long a silent URL or device may take.
    init(index: Int, input: CaptureInput, openTimeout: Double) throws(CaptureError) {
        self.index = index
        self.input = input
        interrupt = InterruptFlag()
        interrupt.setDeadline(afterSeconds: openTimeout)
        do {
            ownedDemuxer = try Demuxer(input: input.mediaInput, interrupt: interrupt)
        } catch {
            throw CaptureSource.explain(error, input: input, timeout: openTimeout)
        }
        interrupt.setDeadline(afterSeconds: nil)
        let streams = ownedDemuxer.file.streams
        let wanted: StreamInfo.Kind = input.isAudio ? .audio : .video
        guard let chosen = streams.first(where: { $0.kind == wanted && !$0.isAttachedPicture })
                ?? (input.kind == .url ? streams.first(where: { $0.kind == .audio }) : nil) else {
            throw CaptureError(.invalidInput, "\(input.label): has no \(wanted.rawValue) stream")
        }
        stream = chosen
        streamIndex = chosen.index
        ownedDemuxer.select(streams: [chosen.index])
        let codec = chosen.codec.name
        isRaw = codec == "rawvideo" || codec == "wrapped_avframe" || codec.hasPrefix("pcm_")
        frameRate = chosen.video?.averageFrameRate ?? chosen.video?.nominalFrameRate
        ownedRestamper = SourceRestamper(timeBase: chosen.timeBase)
    }

    /// Gives the reader's state up (the session's thread, once it has started everything),
    /// for the reader thread to `claim()`.
    func handOn() { ownership.release() }

    /// Takes the reader's state (the reader thread, before it reads).
    func claim() { ownership.claim() }

    private func checkOwner() { ownership.check("\(input.label)'s demuxer, decoder or re-stamping") }

    /// Creates the decoder (raw sources always; compressed ones when a frame output or meter
    /// needs pictures or samples).
    func makeDecoder() throws(CaptureError) {
        guard decoder == nil else { return }
        do {
            let decoder = try Decoder(demuxer: demuxer, stream: streamIndex, threads: 1)
            ownedDecoder = decoder
            if isAudio { ownedAudioFormat = decoder.audioFormat }
        } catch {
            throw CaptureError(.unsupportedFormat, "\(input.label): cannot decode \(stream.codec.name) (\(error))")
        }
    }

    private var ownedCycle: [Frame] = []
    private var ownedCycleStep: Int64 = 1

    /// The test pattern's pictures, drawn once (`prerender()`) and released over and over (the
    /// owning thread only).
    var cycle: [Frame] {
        checkOwner()
        return ownedCycle
    }
    /// Ticks of the stream's time base between two pictures of the cycle.
    var cycleStep: Int64 {
        checkOwner()
        return ownedCycleStep
    }

    /// Decodes the whole of a finite source (the test pattern's cycle) into `cycle`.
    func prerender() throws(CaptureError) {
        try makeDecoder()
        guard let decoder else { return }
        var cycle: [Frame] = []
        do throws(FFmpegError) {
            while let packet = try demuxer.read() {
                if packet.streamIndex == streamIndex { cycle += try decoder.decode(packet) }
            }
            cycle += try decoder.decode(nil)
        } catch {
            throw CaptureError(.invalidInput, "\(input.label): cannot draw the pattern (\(error))")
        }
        guard cycle.count >= 2, let first = cycle[0].pts, let second = cycle[1].pts, second > first else {
            throw CaptureError(.invalidInput, "\(input.label): the pattern has fewer than two pictures")
        }
        ownedCycle = cycle
        ownedCycleStep = second - first
    }

    /// A one-line, actionable reason why the input did not open.
    static func explain(_ error: MediaError, input: CaptureInput, timeout: Double) -> CaptureError {
        let detail = error.detail
        switch input.kind {
        case .camera:
            if error.kind == .notFound || detail.contains("No such file") {
                return CaptureError(.deviceNotFound, "\(input.label): no such device", hint: .listDevices)
            }
            if detail.contains("busy") {
                return CaptureError(.deviceBusy, "\(input.label): the device is busy; close the program that uses it")
            }
        case .screen:
            return CaptureError(.deviceNotFound, "\(input.label): cannot open the X display (\(detail)); is DISPLAY right and the X server running?")
        case .url:
            if detail.contains("timed out") || detail.contains("Immediate exit") || detail.contains("no answer") {
                return CaptureError(.unreachable, "\(input.label): no answer within \(Int(timeout)) s (timed out); check the address and that the sender is running")
            }
            if error.kind == .notFound {
                return CaptureError(.deviceNotFound, "\(input.label): no such file, pipe or address")
            }
            return CaptureError(.unreachable, "\(input.label): cannot open (\(detail))")
        case .pulse, .alsa:
            return CaptureError(.deviceNotFound, "\(input.label): cannot open the audio source (\(detail))", hint: .listDevices)
        default:
            break
        }
        return CaptureError(.invalidInput, "\(input.label): cannot open (\(detail))")
    }
}
