import Foundation
import SlomoAudio
import SlomoCore
import SlomoMedia

/// Writes a movie from pictures a program draws itself, and optionally a sound track from
/// sample buffers: the pictures (`PixelBuffer`, RGBA/BGRA or YUV) are converted, scaled and
/// encoded like a constant-frame-rate export's, at their given time or one frame period after
/// the previous one. The file appears at `path` only when `finish()` succeeds; `cancel()`, an
/// error or dropping the writer unfinished leaves no file (an existing one is kept).
///
///     let writer = try MovieWriter(path: "ball.mp4", settings: MovieWriterSettings(width: 640, height: 360, frameRate: Rational(60)))
///     for n in 0..<120 { try writer.append(picture(n)) }
///     try writer.finish()
///
/// Encoding runs on the calling thread (the encoders use their own threads). One thread at a time.
public final class MovieWriter {
    /// The file written.
    public let path: String
    public let settings: MovieWriterSettings
    private let muxer: Muxer
    private let encoding: VideoEncoding
    private let picture: OutputPicture
    private let video: (encoder: Encoder, stream: Int)
    private let sound: (encoder: AudioBlockEncoder, stream: Int)?
    private let timeBase: Rational
    private var conversion: (layout: PixelBuffer.Layout, graph: FilterGraph)?
    private var lastTime: MediaTime?
    private var frames = 0
    private var isOpen = true

    /// Opens the encoders and starts the file. Throws `ExportError` for settings out of range,
    /// a codec the container cannot hold or an encoder that will not open, and `MediaError`
    /// when the file cannot be written (or exists and `overwrite` is off).
    public init(path: String, settings: MovieWriterSettings) throws {
        try settings.validate()
        let fileExtension = (path as NSString).pathExtension.lowercased()
        guard ConstantFrameRateExport.containers.contains(fileExtension) else {
            throw ExportError(.unsupportedContainer, "\(path): a movie is written as .mov, .mp4, .m4v or .mkv")
        }
        self.path = path
        self.settings = settings
        timeBase = settings.timeBase ?? settings.frameRate.reciprocal
        encoding = VideoEncoding(drawn: settings.video)
        picture = OutputPicture(sourceWidth: settings.width, sourceHeight: settings.height, size: settings.video.size,
                                scaling: settings.video.scaling)
        let muxer = try Muxer(path: path, overwrite: settings.overwrite)
        do {
            video = try encoding.addStream(to: muxer, width: picture.width, height: picture.height,
                                           frameRate: settings.frameRate, hdr: HDRMetadata(), timeBase: timeBase)
            sound = try settings.audio.map { try Self.addSound($0, to: muxer) }
            try muxer.writeHeader()
        } catch {
            muxer.abandon()
            throw error
        }
        self.muxer = muxer
    }

    /// Opens the audio encoder (the container's default codec unless one is named) and adds its stream.
    private static func addSound(_ audio: MovieWriterSettings.Audio, to muxer: Muxer) throws -> (encoder: AudioBlockEncoder, stream: Int) {
        let codec = try AudioOutputFormat(path: muxer.path)?.codec(audio.codec, for: muxer.path) ?? audio.codec ?? .aac
        guard codec.sampleRate(for: audio.sampleRate) == audio.sampleRate else {
            throw ExportError(.unsupportedCodec, SettingIssue(.audioFormat, "\(audio.sampleRate) Hz", "\(codec) does not take "
                              + "this rate; use \(codec.sampleRate(for: audio.sampleRate)) Hz or another {audioCodec}"))
        }
        let format = AudioFormat(sampleRate: audio.sampleRate, layout: ChannelLayout(channelCount: audio.channelCount))
        let encoder = try AudioBlockEncoder(codec: codec, depth: nil, format: format, globalHeader: muxer.needsGlobalHeader)
        return (encoder, try muxer.addStream(for: encoder.encoder))
    }

    deinit {
        if isOpen { muxer.abandon() }
    }

    /// Encodes `buffer` as the picture shown from `time` (nil: one frame period after the
    /// previous picture, 0 for the first). Times must increase and fall on the time base.
    /// Pictures are `settings.width`×`settings.height`; layouts may change between pictures.
    public func append(_ buffer: PixelBuffer, at time: MediaTime? = nil) throws {
        try whileOpen {
            guard buffer.width == settings.width, buffer.height == settings.height else {
                throw ExportError(.invalidPlan, SettingIssue(.size, "\(buffer.width)x\(buffer.height)", "the picture differs from "
                                  + "the writer's \(settings.width)x\(settings.height); draw every picture at that size"))
            }
            let time = time ?? nextTime
            if let lastTime, time <= lastTime {
                throw ExportError(.invalidPlan, SettingIssue(.timeBase, nil, "picture \(frames) at \(time) s does not come after "
                                  + "the previous one at \(lastTime) s; give increasing times"))
            }
            let ticks = try time.ticks(in: timeBase, rounding: .down)
            guard MediaTime(ticks: ticks, timeBase: timeBase) == time, time >= .zero else {
                throw ExportError(.invalidPlan, SettingIssue(.timeBase, "\(timeBase)", "picture \(frames) at \(time) s is not "
                                  + "a whole number of ticks; set a finer time base (e.g. 1/90000) or append without a time"))
            }
            lastTime = time
            frames += 1
            try encode(try convert(Frame(copying: buffer, pts: ticks, timeBase: timeBase), layout: buffer.layout))
        }
    }

    /// Encodes `samples` after the ones appended before; they must have the track's channel
    /// count. Throws when the settings have no audio track.
    public func append(audio samples: AudioBuffer) throws {
        try whileOpen {
            guard let sound else {
                throw ExportError(.noAudio, "\(path): the writer has no audio track; set MovieWriterSettings.audio to append sound")
            }
            guard samples.channelCount == sound.encoder.format.channelCount else {
                throw ExportError(.invalidPlan, SettingIssue(.audioFormat, "\(samples.channelCount) channels",
                                                             "the track has \(sound.encoder.format.channelCount)"))
            }
            try write(sound: try sound.encoder.encode(samples.channels))
        }
    }

    /// How far the movie has come: the end of the last picture, the pictures written, and the
    /// expected duration (the time so far when none was given).
    public var progress: ExportProgress {
        ExportProgress(outputTime: nextTime, outputDuration: settings.expectedDuration ?? nextTime, videoFrames: frames,
                       phase: "encoding \(settings.video.codec.rawValue)")
    }

    /// Where the last picture ends (one frame period after it starts): the next picture's time
    /// unless it is given one; zero before the first.
    private var nextTime: MediaTime {
        lastTime.map { $0 + MediaTime(seconds: settings.frameRate.reciprocal) } ?? .zero
    }

    /// Drains the encoders and renames the complete file onto `path`. Throws, leaving no file,
    /// when no picture was appended or writing fails.
    @discardableResult
    public func finish() throws -> ExportResult {
        try whileOpen {
            guard frames > 0 else { throw ExportError(.invalidPlan, "\(path): no pictures were appended; nothing to write") }
            try encode(try conversion?.graph.process(nil) ?? [])
            try write(video: try video.encoder.encode(nil))
            if let sound { try write(sound: try sound.encoder.finish()) }
            try muxer.finish()
            isOpen = false
        }
        return ExportResult(outputPath: path, outputDuration: progress.outputTime, videoFrames: frames,
                            audioTracks: sound == nil ? 0 : 1, nudgedPackets: 0)
    }

    /// Abandons the movie: nothing is left at `path` (an existing file is kept).
    public func cancel() {
        guard isOpen else { return }
        isOpen = false
        muxer.abandon()
    }

    /// Runs `body` while the writer is open; an error abandons the file.
    private func whileOpen(_ body: () throws -> Void) throws {
        guard isOpen else { throw ExportError(.cancelled, "\(path): the writer was finished, cancelled or failed") }
        do { try body() } catch {
            cancel()
            throw error
        }
    }

    /// The picture, laid out as `layout`, in the encoder's size, format and colour (a graph
    /// built on the first picture of each layout).
    private func convert(_ frame: Frame, layout: PixelBuffer.Layout) throws -> [Frame] {
        if conversion?.layout != layout {
            let drained = try conversion?.graph.process(nil) ?? []
            var steps = layout == .yuv420p ? [] : ["scale=out_color_matrix=bt709:out_range=tv", "format=yuv420p"]
            let geometry = picture.filter(sourceWidth: settings.width, sourceHeight: settings.height)
            if !geometry.isEmpty { steps.append(geometry) }
            steps += ["format=\(encoding.pixelFormat.name)", "setsar=1"]
            let graph = try FilterGraph(video: .init(width: settings.width, height: settings.height, pixelFormat: frame.pixelFormat,
                                                     timeBase: timeBase, sampleAspectRatio: Rational(1),
                                                     frameRate: settings.frameRate),
                                        description: steps.joined(separator: ","))
            conversion = (layout, graph)
            return drained + (try graph.process(frame))
        }
        return try conversion!.graph.process(frame)
    }

    /// Encodes converted pictures, tagged with the output's time base and colour.
    private func encode(_ pictures: [Frame]) throws {
        for picture in pictures {
            picture.timeBase = timeBase
            picture.color = encoding.color
            try write(video: try video.encoder.encode(picture))
        }
    }

    private func write(video packets: [Packet]) throws {
        for packet in packets {
            VideoEncoding.lastOneFramePeriod(packet, frameRate: settings.frameRate)
            try muxer.write(packet, stream: video.stream)
        }
    }

    private func write(sound packets: [Packet]) throws {
        for packet in packets { try muxer.write(packet, stream: sound!.stream) }
    }
}
