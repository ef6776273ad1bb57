import Foundation
import SlomoCore
import SlomoMedia

/// Records a session's inputs into a fragmented MOV/MP4 file.
///
/// Raw sources are encoded in real time (libx264 `ultrafast` + `zerolatency` by default);
/// compressed ones (MJPEG or H.264 cameras, streams) are copied. The file is written in place
/// under its own name, as an empty `moov` followed by `moof`+`mdat` fragments of about
/// `fragmentInterval`, each pushed to the kernel when it is complete: a crash or SIGKILL loses
/// at most the fragment being written, and what is on disk plays. (Writing to a temporary name
/// and renaming at the end, as exports do, would leave a crashed recording under a hidden name.)
///
/// A bounded queue sits between the capture threads and the writer thread: the capture side
/// never blocks, and every frame that does not fit is counted as dropped.
public final class MovieFileOutput: @unchecked Sendable {
    /// How the output records.
    public struct Settings: Sendable {
        public var path: String
        /// Length of a fragment, i.e. at most what a crash loses.
        public var fragmentInterval: MediaTime = .seconds(2)
        public var maxDuration: MediaTime?
        /// Stop before the file would grow past this many bytes.
        public var maxSize: Int64?
        /// Stop before the disk holding the file would have less than this many bytes free.
        public var minFreeSpace: Int64? = 64 << 20
        /// Encoder for raw video: `libx264` by default (`libx265`, `mjpeg`, `ffv1`, …).
        public var videoCodec = "libx264"
        /// Options of the video encoder; the default suits libx264 in real time.
        public var videoCodecOptions: [String: String] = VideoCodec.h264.realTimeOptions
        /// The pixel format raw video is encoded in.
        public var videoPixelFormat: PixelFormat = .yuv420p
        /// How raw sound is stored; nil picks AAC for `.mp4` and PCM for `.mov`.
        public var audioCodec: AudioCodec?
        /// Scale factor for encoded video (e.g. 0.5 halves a screen capture); nil keeps the size.
        public var scale: Double?
        /// The size of encoded video (like an export's output size); wins over `scale`; nil
        /// keeps the source's size (times `scale`).
        public var size: OutputSettings.Size?
        /// Container tags (`title`, `comment`, any key), written into the file; more can be
        /// added while recording (`addMetadata(key:value:)`).
        public var metadata: [String: String] = [:]
        /// Room left in the file's header for tags added while recording.
        public var headerReserveBytes = 16 * 1024
        public var overwrite = false
        /// Memory the queue of raw frames may take.
        public var queueBudgetBytes = 256 << 20

        public init(path: String) { self.path = path }

        /// Encodes raw video with `codec` (`--codec h264|hevc|prores|ffv1`), in its real-time
        /// settings and pixel format.
        public mutating func encodeRawVideo(with codec: VideoCodec) {
            videoCodec = codec.encoderName
            videoCodecOptions = codec.realTimeOptions
            videoPixelFormat = codec.recordingPixelFormat
        }
    }

    public let settings: Settings
    let state = NSLock()
    private var counters = OutputCounters()
    private var audioCounters = OutputCounters()
    private var timeline = RecordingTimeline()
    /// Inputs whose compressed video is copied: after a pause they resume at a keyframe (with
    /// MJPEG, every frame is one).
    private var copiedVideoInputs: Set<Int> = []
    private var lastVideoEnd: Int64 = 0
    private var lastAudioEnd: Int64 = 0
    private var bytesOnDisk: Int64 = 0
    private var stopReason: CaptureStopReason?
    private var finalResult: RecordingResult?
    /// Every container tag, the ones added while recording included (under `state`).
    var tags: [String: String] = [:]
    /// Bumped by every `addMetadata` (under `state`); the writer compares it with what is on disk.
    var tagsVersion = 0
    var tagsVersionOnDisk = 0
    /// Estimated bytes of the tags in the header as written by `writeHeader`.
    var headerTagBytes = 0
    var isFinished: Bool { finalResult != nil }

    private var queue = BoundedQueue<CapturedSample>(capacity: 1)
    private var muxer: Muxer?
    private var tracks: [Int: Track] = [:]
    private var hasVideo = false
    /// Called (once) when a limit or an error ends the recording from the writer's side.
    var onStop: (@Sendable (CaptureStopReason) -> Void)?

    public convenience init(_ path: String, fragmentInterval: MediaTime = .seconds(2), maxDuration: MediaTime? = nil,
                            maxSize: Int64? = nil, minFreeSpace: Int64? = 64 << 20) {
        var settings = Settings(path: path)
        settings.fragmentInterval = fragmentInterval
        settings.maxDuration = maxDuration
        settings.maxSize = maxSize
        settings.minFreeSpace = minFreeSpace
        self.init(settings: settings)
    }

    public init(settings: Settings) { self.settings = settings }

    /// The video counters now: received, written (`delivered`), dropped by reason, queued.
    public var videoCounters: OutputCounters { state.withLock { counters } }
    /// Bytes in the file so far.
    public var fileSize: Int64 { state.withLock { bytesOnDisk } }
    /// Seconds recorded so far.
    public var recordedSeconds: Double {
        state.withLock { Double(max(lastVideoEnd, lastAudioEnd)) / 1e9 }
    }
    /// The result, once the recording has finished.
    public var result: RecordingResult? { state.withLock { finalResult } }

    // MARK: Pause and resume (any thread)

    /// Leaves samples out of the file from the next one on, until `resumeRecording()`
    /// (AVCaptureFileOutput's `pauseRecording()`). They are counted as `skippedWhilePaused`,
    /// not as drops, and the recording's time line stands still meanwhile.
    public func pauseRecording() { state.withLock { timeline.pause() } }

    /// Records again from the next sample, continuing the time line where it paused: the
    /// first sample after the pause follows the last one before it by one sample interval.
    /// Copied inter-coded video resumes at its next keyframe.
    public func resumeRecording() { state.withLock { timeline.resume(keyframeInputs: copiedVideoInputs) } }

    /// True between `pauseRecording()` and `resumeRecording()`.
    public var isRecordingPaused: Bool { state.withLock { timeline.isPaused } }

    /// Seconds of capture left out of the file by pauses so far.
    public var pausedSeconds: Double { state.withLock { Double(timeline.pausedNanoseconds) / 1e9 } }

    // MARK: Set-up (session thread, before capture starts)

    /// One recorded stream: an encoder (raw sources) or a copy, and its timing state.
    private final class Track {
        let muxerStream: Int
        let isAudio: Bool
        /// The video encoder; nil for copied streams and sound.
        let encoder: Encoder?
        /// The encoder of raw sound.
        let sound: SoundEncoder?
        var scaler: Scaler?
        let encodedWidth: Int
        let encodedHeight: Int
        let encodedFormat: PixelFormat
        let timeBase: Rational
        var lastTicks: Int64?
        var nextAudioTicks: Int64?
        var lastKeyframeTime: Int64?
        var awaitingKeyframe = false
        var sourceTimeBase: Rational

        init(muxerStream: Int, isAudio: Bool, encoder: Encoder?, sound: SoundEncoder? = nil, width: Int = 0, height: Int = 0,
             format: PixelFormat = .yuv420p, timeBase: Rational, sourceTimeBase: Rational) {
            self.muxerStream = muxerStream
            self.isAudio = isAudio
            self.encoder = encoder
            self.sound = sound
            encodedWidth = width
            encodedHeight = height
            encodedFormat = format
            self.timeBase = timeBase
            self.sourceTimeBase = sourceTimeBase
        }
    }

    static let videoTimeBase = Rational(1, 90000)

    /// Checks the limits and that the target may be written, before any input is opened.
    func checkSettings() throws(CaptureError) {
        let interval = settings.fragmentInterval.doubleSeconds
        guard interval >= 0.1 && interval <= 60 else {
            throw CaptureError(.invalidLimit, SettingIssue(.fragmentInterval, settings.fragmentInterval.description, "must be between 0.1 and 60 seconds"))
        }
        if let limit = settings.maxDuration, limit.doubleSeconds <= 0 {
            throw CaptureError(.invalidLimit, SettingIssue(.maximumDuration, limit.description, "must be positive"))
        }
        if let limit = settings.maxSize, limit < 256 * 1024 {
            throw CaptureError(.invalidLimit, SettingIssue(.maximumSize, "\(limit)", "must be at least 256 KiB"))
        }
        if let limit = settings.minFreeSpace, limit < 0 {
            throw CaptureError(.invalidLimit, SettingIssue(.minimumFreeSpace, "\(limit)", "cannot be negative"))
        }
        if let size = settings.size,
           !(16...7680).contains(size.width) || !(16...4320).contains(size.height) || size.width % 2 != 0 || size.height % 2 != 0 {
            throw CaptureError(.invalidLimit, SettingIssue(.size, "\(size)", "must be even and between 16x16 and 7680x4320"))
        }
        if let scale = settings.scale, !(scale > 0 && scale <= 4) {
            throw CaptureError(.invalidLimit, SettingIssue(.scale, String(format: "%g", scale), "must be between 0 and 4"))
        }
        if let codec = settings.audioCodec, !Self.recordingAudioCodecs.contains(codec) {
            throw CaptureError(.invalidLimit, SettingIssue(.audioCodec, codec.rawValue, "recordings store sound as "
                                                           + Self.recordingAudioCodecs.map(\.rawValue).joined(separator: " or ")))
        }
        let ext = URL(fileURLWithPath: settings.path).pathExtension.lowercased()
        guard ["mov", "mp4", "m4v", "qt"].contains(ext) else {
            throw CaptureError(.outputProblem, "\(settings.path): recordings are fragmented MOV or MP4: name the file .mov or .mp4")
        }
        do { try OutputPath.checkWritable(settings.path, overwrite: settings.overwrite) } catch {
            throw CaptureError(.outputProblem, error.description)
        }
    }

    /// Checks the settings and the target, creates the file and its tracks, writes the header.
    func prepare(sources: [CaptureSource]) throws(CaptureError) {
        try checkSettings()
        let audioCodec = settings.audioCodec ?? Self.defaultAudioCodec(for: settings.path)
        if audioCodec == .pcm && !Self.isQuickTime(settings.path) && sources.contains(where: { $0.isAudio && $0.isRaw }) {
            throw CaptureError(.outputProblem, SettingIssue(.audioCodec, "pcm", "PCM sound only fits in .mov: name the file .mov "
                                                              + "or store the sound as AAC ({audioCodec} aac)", subject: settings.path))
        }
        let muxer: Muxer
        do { muxer = try Muxer(recordingTo: settings.path, overwrite: settings.overwrite) } catch {
            throw CaptureError(.outputProblem, error.description)
        }
        var queueCapacity = 0
        do throws(FFmpegError) {
            for source in sources {
                let track: Track
                if source.isRaw && !source.isAudio {
                    guard let video = source.stream.video else { throw FFmpegError(code: FFmpegError.invalidData.code, operation: "no picture size") }
                    let scale = settings.scale ?? 1
                    let width = settings.size?.width ?? max(2, Int((Double(video.width) * scale / 2).rounded()) * 2)
                    let height = settings.size?.height ?? max(2, Int((Double(video.height) * scale / 2).rounded()) * 2)
                    let rate = source.frameRate ?? Rational(30)
                    let gop = max(1, Int(rate.doubleValue * settings.fragmentInterval.doubleSeconds * 4))
                    let encoderSettings = VideoEncoderSettings(
                        codec: settings.videoCodec, width: width, height: height, pixelFormat: settings.videoPixelFormat,
                        timeBase: Self.videoTimeBase, frameRate: rate, gopSize: gop, options: settings.videoCodecOptions)
                    let encoder = try Encoder(video: encoderSettings, globalHeader: muxer.needsGlobalHeader)
                    let index = try muxer.addStream(for: encoder)
                    track = Track(muxerStream: index, isAudio: false, encoder: encoder, width: width, height: height,
                                  timeBase: Self.videoTimeBase, sourceTimeBase: source.stream.timeBase)
                    let frameBytes = max(1, video.width * video.height * 2)
                    queueCapacity += min(512, max(8, settings.queueBudgetBytes / frameBytes))
                } else if source.isRaw && source.isAudio {
                    guard let format = source.audioFormat else { throw FFmpegError(code: FFmpegError.invalidData.code, operation: "no audio format") }
                    let sound = try SoundEncoder(codec: audioCodec, source: format, globalHeader: muxer.needsGlobalHeader)
                    let index = try muxer.addStream(for: sound.encoder)
                    track = Track(muxerStream: index, isAudio: true, encoder: nil, sound: sound,
                                  timeBase: Rational(1, Int64(format.sampleRate)), sourceTimeBase: source.stream.timeBase)
                    queueCapacity += 512
                } else {
                    let index = try muxer.addStream(copying: source.streamIndex, of: source.demuxer)
                    if !source.isAudio {
                        muxer.setTimeBase(Self.videoTimeBase, stream: index)
                        copiedVideoInputs.insert(source.index)
                    }
                    track = Track(muxerStream: index, isAudio: source.isAudio, encoder: nil,
                                  timeBase: source.isAudio ? source.stream.timeBase : Self.videoTimeBase,
                                  sourceTimeBase: source.stream.timeBase)
                    queueCapacity += 512
                }
                tracks[source.index] = track
                if !source.isAudio { hasVideo = true }
            }
            var tags = settings.metadata
            if tags["creation_time"] == nil {
                let formatter = ISO8601DateFormatter()
                formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
                tags["creation_time"] = formatter.string(from: Date())
            }
            if tags["encoder"] == nil { tags["encoder"] = "slomo capture" }
            muxer.setMetadata(tags)
            try muxer.writeHeader(options: Self.headerOptions)
            try muxer.reserveHeaderSpace(settings.headerReserveBytes)
            state.withLock {
                self.tags = tags
                headerTagBytes = Self.tagBytes(tags)
            }
        } catch {
            muxer.abandon()
            unlink(settings.path)
            throw CaptureError(.outputProblem, "\(settings.path): cannot start the recording (\(error))")
        }
        self.muxer = muxer
        bytesOnDisk = muxer.bytesWritten
        queue = BoundedQueue(capacity: queueCapacity)
        if let minimum = settings.minFreeSpace, let free = Self.freeSpace(near: settings.path), free < minimum {
            stopReason = .minimumFreeSpace
            throw CaptureError(.noDiskSpace, SettingIssue(.minimumFreeSpace, nil, "only \(Self.megabytes(free)) free, less than the "
                                                         + "{minimumFreeSpace} of \(Self.megabytes(minimum))", subject: settings.path))
        }
    }

    // MARK: Capture side (capture threads; never blocks)

    /// Offers a sample. Returns false when the recording is over (a limit was reached).
    @discardableResult
    func offer(_ sample: CapturedSample, isAudio: Bool) -> Bool {
        var limitReached = false
        let accepted: Bool = state.withLock {
            if stopReason != nil { return false }
            // With video, the recording starts at its first frame: sound before it is left out,
            // so that `maxDuration` counts exactly in frames and both start together.
            if isAudio && hasVideo && timeline.start == nil { return true }
            guard let offset = timeline.place(sample.time, input: sample.input, isKeyframe: sample.isKeyframe) else {
                if isAudio { audioCounters.skippedWhilePaused += 1 } else { counters.skippedWhilePaused += 1 }
                return true
            }
            if let limit = settings.maxDuration, offset >= Self.nanoseconds(limit) {
                // With video, its first frame at the limit ends the recording: sound past the
                // limit is left out until then (a sound block could otherwise arrive first and
                // cut the last frames), unless the video stays away a second longer.
                if isAudio && hasVideo && offset < Self.nanoseconds(limit) + 1_000_000_000 { return true }
                stopReason = .maximumDuration
                limitReached = true
                return false
            }
            if isAudio { audioCounters.received += 1 } else { counters.received += 1 }
            guard queue.tryPush(CapturedSample(payload: sample.payload, input: sample.input, time: offset)) else {
                if isAudio { audioCounters.droppedBecauseQueueFull += 1 } else { counters.droppedBecauseQueueFull += 1 }
                return true
            }
            if isAudio { audioCounters.queued += 1 } else { counters.queued += 1 }
            return true
        }
        if limitReached { onStop?(.maximumDuration) }
        return accepted
    }

    /// No more samples come: the writer drains the queue and finishes the file.
    func close() { queue.close() }

    // MARK: Writer thread

    /// Writes queued samples until the queue is closed, then finishes the file.
    func runWriter() {
        while let sample = queue.pop() {
            let isAudio = tracks[sample.input]?.isAudio ?? false
            let stopped: Bool = state.withLock {
                if isAudio { audioCounters.queued -= 1 } else { counters.queued -= 1 }
                guard let reason = stopReason, reason != .maximumDuration, reason != .stopped, !Self.isSourceEnd(reason) else { return false }
                if isAudio { audioCounters.droppedAtStop += 1 } else { counters.droppedAtStop += 1 }
                return true
            }
            if stopped { continue }
            do throws(FFmpegError) {
                try write(sample)
            } catch {
                fail(.failed(error.description))
            }
        }
        finish()
    }

    private static func isSourceEnd(_ reason: CaptureStopReason) -> Bool {
        switch reason {
        case .sourceEnded, .deviceLost: true
        default: false
        }
    }

    /// Records the first reason to stop and tells the session.
    private func fail(_ reason: CaptureStopReason) {
        let first: Bool = state.withLock {
            guard stopReason == nil || stopReason == .stopped || Self.isSourceEnd(stopReason!) else { return false }
            if stopReason == nil || reason.isProblem || reason == .maximumSize || reason == .minimumFreeSpace {
                stopReason = reason
            }
            return true
        }
        if first { onStop?(reason) }
    }

    /// Marks the recording as stopped for `reason` from outside (the session).
    func noteStop(_ reason: CaptureStopReason) {
        state.withLock { if stopReason == nil { stopReason = reason } }
    }

    private func write(_ sample: CapturedSample) throws(FFmpegError) {
        guard let track = tracks[sample.input], let muxer else { return }
        let offset = sample.time
        switch sample.payload {
        case .frame(let frame):
            if let sound = track.sound {
                let computed = Self.ticks(offset, track.timeBase)
                var pts = track.nextAudioTicks ?? computed
                // Keep samples contiguous unless the source skipped (more than 50 ms off).
                if abs(computed - pts) > track.timeBase.denominator / 20 { pts = computed }
                frame.timeBase = track.timeBase
                frame.pts = pts
                track.nextAudioTicks = pts + Int64(frame.sampleCount)
                for packet in try sound.encode(frame) { try writePacket(packet, track: track, muxer: muxer) }
                state.withLock {
                    audioCounters.delivered += 1
                    lastAudioEnd = max(lastAudioEnd, offset + Int64(frame.sampleCount) * 1_000_000_000 / track.timeBase.denominator)
                }
            } else if let encoder = track.encoder {
                var picture = frame
                if frame.width != track.encodedWidth || frame.height != track.encodedHeight || frame.pixelFormat != track.encodedFormat {
                    if track.scaler == nil {
                        track.scaler = try Scaler(width: frame.width, height: frame.height, format: frame.pixelFormat,
                                                  toWidth: track.encodedWidth, height: track.encodedHeight, format: track.encodedFormat)
                    }
                    picture = try track.scaler!.scale(frame)
                }
                var ticks = Self.ticks(offset, track.timeBase)
                if let last = track.lastTicks, ticks <= last { ticks = last + 1 }
                track.lastTicks = ticks
                picture.timeBase = track.timeBase
                picture.pts = ticks
                let key = track.lastKeyframeTime.map { offset - $0 >= Self.nanoseconds(settings.fragmentInterval) } ?? true
                if key { track.lastKeyframeTime = offset }
                picture.requestKeyframe(key)
                for packet in try encoder.encode(picture) { try writePacket(packet, track: track, muxer: muxer) }
                noteVideoWritten(end: offset)
            }
        case .packet(let packet):
            if !track.isAudio {
                // After a drop, an inter-coded stream can only resume at a keyframe.
                if track.awaitingKeyframe && !packet.isKeyframe {
                    state.withLock { counters.droppedWaitingForKeyframe += 1 }
                    return
                }
                track.awaitingKeyframe = false
            }
            let delay = (packet.pts ?? 0) - (packet.dts ?? packet.pts ?? 0)
            var ticks = Self.ticks(offset, track.timeBase)
            if let last = track.lastTicks, ticks <= last { ticks = last + 1 }
            track.lastTicks = ticks
            let delayTicks = MediaTime(ticks: delay, timeBase: packet.timeBase)
            packet.pts = ticks
            packet.dts = ticks - ((try? delayTicks.ticks(in: track.timeBase)) ?? 0)
            packet.duration = 0
            packet.timeBase = track.timeBase
            try writePacket(packet, track: track, muxer: muxer)
            if track.isAudio { state.withLock { audioCounters.delivered += 1; lastAudioEnd = max(lastAudioEnd, offset) } } else {
                noteVideoWritten(end: offset)
            }
        }
    }

    private func noteVideoWritten(end offset: Int64) {
        state.withLock {
            counters.delivered += 1
            lastVideoEnd = max(lastVideoEnd, offset)
        }
    }

    // Fragment and limit bookkeeping (writer thread only).
    private var fragmentStart: Int64 = 0
    private var pendingBytes: Int64 = 0
    private var pendingSamples: Int64 = 0
    private var lastFreeSpaceCheck: Int64 = 0
    private var freeSpace: Int64 = .max

    private struct LimitReached: Error { let reason: CaptureStopReason }

    private func writePacket(_ packet: Packet, track: Track, muxer: Muxer) throws(FFmpegError) {
        let time = MediaTime(ticks: packet.pts ?? 0, timeBase: packet.timeBase)
        let nanos = Self.nanoseconds(time)
        let cutsHere = hasVideo ? (!track.isAudio && packet.isKeyframe) : true
        if cutsHere && pendingSamples > 0 && nanos - fragmentStart >= Self.nanoseconds(settings.fragmentInterval) - 1_000_000 {
            try muxer.flushFragment()
            try writeAddedTags(to: muxer)
            fragmentStart = nanos
            pendingBytes = 0
            pendingSamples = 0
            lastFreeSpaceCheck = 0
        }
        let size = Int64(packet.size)  // the muxer empties the packet
        if let reason = limitReached(adding: size) {
            fail(reason)
            return
        }
        try muxer.write(packet, stream: track.muxerStream)
        pendingBytes += size
        pendingSamples += 1
        let onDisk = muxer.bytesWritten
        state.withLock { bytesOnDisk = onDisk + pendingBytes }
    }

    /// The limit that writing `size` more bytes would cross, if any. The projection counts the
    /// fragment still held in memory, its index (`moof`, about 16 bytes a sample) and a
    /// reserve for the trailer.
    private func limitReached(adding size: Int64) -> CaptureStopReason? {
        guard let muxer else { return nil }
        let overhead = 16 * 1024 + 24 * (pendingSamples + 1)
        let projected = muxer.bytesWritten + pendingBytes + size + overhead
        if let maximum = settings.maxSize, projected > maximum { return .maximumSize }
        if let minimum = settings.minFreeSpace {
            let now = SessionClock.monotonicNanoseconds()
            if lastFreeSpaceCheck == 0 || now - lastFreeSpaceCheck > 100_000_000 {
                freeSpace = Self.freeSpace(near: settings.path) ?? .max
                lastFreeSpaceCheck = now
            }
            // What the kernel has not got yet still has to fit.
            let unwritten = pendingBytes + size + overhead
            if freeSpace - unwritten < minimum { return .minimumFreeSpace }
        }
        return nil
    }

    private func finish() {
        // Whatever is still queued after a limit has been dropped above; count leftovers.
        for sample in queue.removeAll() {
            let isAudio = tracks[sample.input]?.isAudio ?? false
            state.withLock {
                if isAudio { audioCounters.queued -= 1; audioCounters.droppedAtStop += 1 } else {
                    counters.queued -= 1
                    counters.droppedAtStop += 1
                }
            }
        }
        var problem: String?
        if let muxer {
            do throws(FFmpegError) {
                if state.withLock({ stopReason.map { !$0.isProblem || Self.isSourceEnd($0) } ?? true }) {
                    for (_, track) in tracks.sorted(by: { $0.key < $1.key }) {
                        var held: [Packet] = []
                        if let encoder = track.encoder { held = try encoder.encode(nil) }
                        if let sound = track.sound { held = try sound.encode(nil) }
                        for packet in held {
                            let size = Int64(packet.size)
                            if limitReached(adding: size) != nil { break }
                            try muxer.write(packet, stream: track.muxerStream)
                            pendingBytes += size
                        }
                    }
                }
            } catch {
                problem = error.description
            }
            do throws(FFmpegError) {
                try muxer.finish()
                try writeAddedTags(to: muxer)
            } catch {
                problem = problem ?? error.description
                muxer.abandon()
            }
        }
        self.muxer = nil
        tracks.removeAll()
        var size: Int64 = 0
        var info = stat()
        if stat(settings.path, &info) == 0 { size = Int64(info.st_size) }
        state.withLock {
            let written = counters.delivered + audioCounters.delivered
            var reason = stopReason ?? .stopped
            if let problem, !reason.isProblem { reason = .failed(problem) }
            let wroteSomething = written > 0
            if !wroteSomething { unlink(settings.path) }
            let ok = problem == nil && wroteSomething && {
                if case .failed = reason { return false }
                return true
            }()
            let frameDuration: Int64 = counters.delivered > 1 && lastVideoEnd > 0
                ? lastVideoEnd / Int64(counters.delivered - 1) : 0
            finalResult = RecordingResult(
                path: settings.path, reason: reason, finishedSuccessfully: ok,
                duration: Double(max(lastVideoEnd + frameDuration, lastAudioEnd)) / 1e9,
                videoFrames: counters.delivered, counters: counters, fileSize: wroteSomething ? size : 0,
                pausedSeconds: Double(timeline.pausedNanoseconds) / 1e9,
                finishingProblem: problem ?? (wroteSomething ? nil : "nothing was recorded"))
            bytesOnDisk = wroteSomething ? size : 0
        }
    }

    // MARK: Helpers

    static func nanoseconds(_ time: MediaTime) -> Int64 {
        (try? time.ticks(in: Rational(1, 1_000_000_000))) ?? Int64(time.doubleSeconds * 1e9)
    }

    /// Nanoseconds as ticks of `timeBase`, rounded to nearest.
    static func ticks(_ nanoseconds: Int64, _ timeBase: Rational) -> Int64 {
        (try? MediaTime(value: nanoseconds, timescale: 1_000_000_000).ticks(in: timeBase)) ?? 0
    }

    /// Bytes available to unprivileged writers on the file system that holds `path`'s folder.
    static func freeSpace(near path: String) -> Int64? {
        var info = statvfs()
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard statvfs(folder, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// True for a `.mov` (or `.qt`) path, false for `.mp4`/`.m4v`.
    static func isQuickTime(_ path: String) -> Bool {
        ["mov", "qt"].contains(URL(fileURLWithPath: path).pathExtension.lowercased())
    }

    static func megabytes(_ bytes: Int64) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }
}
