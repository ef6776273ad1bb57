import Foundation
import Glibc
import SlomoConcurrency
import SlomoCore
import SlomoMedia
import Synchronization

/// Commands for a running recording through a named pipe, one a line (`CaptureCommand`):
/// `meta KEY=VALUE` adds a tag while recording (AVFoundation's late movie metadata), `still
/// PATH` writes the frame being recorded as a picture, `pause` and `resume` act as SIGUSR1 and
/// SIGUSR2 do. A bad line is reported and the recording goes on.
///
/// ```swift
/// let commands = try CaptureCommandFIFO(path: "/tmp/take.cmd", movie: take) { print($0) }
/// try commands.attach(to: session)     // before the session starts: stills need its frames
/// try session.startRunning()
/// commands.start()
/// // echo "meta location=Court 3" > /tmp/take.cmd
/// commands.stop()
/// ```
public final class CaptureCommandFIFO: Sendable {
    /// What became of one line.
    public struct Report: Hashable, Sendable, CustomStringConvertible {
        /// The line as read.
        public let line: String
        /// The command, when the line was one.
        public let command: CaptureCommand?
        /// True when it was carried out.
        public let succeeded: Bool
        /// What was done, or what went wrong.
        public let message: String
        /// For a still: which frame was written.
        public let frame: StillFrame?

        public var description: String { message }
    }

    /// The frame a `still` line wrote: when it was captured, on the session clock, and its
    /// sequence number among the frames the session delivered.
    public struct StillFrame: Hashable, Sendable {
        public let time: MediaTime
        public let sequenceNumber: Int
    }

    /// The pipe's path.
    public let path: String
    private let movie: MovieFileOutput
    private let report: @Sendable (Report) -> Void
    private let descriptor: Int32
    private let madeThePipe: Bool
    private let stopping = Atomic<Bool>(false)
    private let reader = PipelineWorker("slomo-commands")
    /// The newest frame the session delivered, for stills.
    private let latest = NewestFrame()
    private let frames: FrameOutput

    /// A frame output's newest frame, kept for the thread that writes stills.
    private final class NewestFrame: Sendable {
        private let frame = Guarded<CapturedFrame?>(nil)

        /// Keeps `newest` in place of the frame before (the frame output's thread).
        func keep(_ newest: sending CapturedFrame) { frame.withLock(moving: newest) { $0 = $1 } }

        /// A new reference to the newest frame (its buffers are not copied), nil before any.
        func reference() throws(FFmpegError) -> sending CapturedFrame? {
            try frame.withLock { held throws(FFmpegError) -> sending CapturedFrame? in
                guard let held else { return nil }
                return CapturedFrame(frame: try held.frame.clone(), time: held.time, sequenceNumber: held.sequenceNumber,
                                     input: held.input)
            }
        }
    }

    /// Makes the named pipe at `path` (or opens one that exists; any other file there is an
    /// error) for commands to `movie`; `report` hears about every line, on the reading thread.
    public init(path: String, movie: MovieFileOutput, report: @escaping @Sendable (Report) -> Void) throws(CaptureError) {
        self.path = path
        self.movie = movie
        self.report = report
        if let status = try? FileSystem.status(of: path) {
            guard status.st_mode & S_IFMT == S_IFIFO else {
                throw CaptureError(.invalidInput, "--command-fifo \(path): the file exists and is not a named pipe; "
                                   + "give a new path (slomo makes the pipe)")
            }
            madeThePipe = false
        } else {
            do throws(SystemError) { try SystemError.check("mkfifo") { mkfifo(path, 0o600) } } catch {
                throw CaptureError(.invalidInput, "--command-fifo \(path): cannot make a named pipe there (\(error.message))")
            }
            madeThePipe = true
        }
        // Read and write: the pipe stays open when a writer closes it, and opening never waits.
        do throws(SystemError) {
            descriptor = try SystemError.check("open") { open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC) }
        } catch {
            if madeThePipe { try? FileSystem.removeFile(at: path) }
            throw CaptureError(.invalidInput, "--command-fifo \(path): cannot open the pipe (\(error.message))")
        }
        let latest = self.latest
        frames = FrameOutput(alwaysDiscardsLateFrames: true) { frame in latest.keep(frame) }
    }

    deinit {
        close(descriptor)
        if madeThePipe { unlink(path) }
    }

    /// Adds what stills need (the session's newest frame) to `session`, before it starts.
    public func attach(to session: CaptureSession) throws(CaptureError) {
        try session.add(frames)
    }

    /// Starts reading lines (once the recording runs).
    public func start() {
        reader.start { [self] in readLines() }
    }

    /// Stops reading and waits for the line being carried out; the pipe slomo made is removed
    /// when this object goes.
    public func stop() {
        stopping.store(true, ordering: .relaxed)
        _ = reader.join()
    }

    /// Polls the pipe (so that `stop` is seen within 100 ms) and carries out each whole line.
    private func readLines() {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !stopping.load(ordering: .relaxed) {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { continue }
            pending += buffer[0..<count]
            while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                pending.removeSubrange(...end)
                if !line.isEmpty { report(carryOut(line)) }
            }
        }
    }

    /// Does what the line says; never throws: what went wrong is in the report.
    func carryOut(_ line: String) -> Report {
        let command: CaptureCommand
        do throws(CaptureError) { command = try CaptureCommand(parsing: line) } catch {
            return Report(line: line, command: nil, succeeded: false, message: error.description, frame: nil)
        }
        func done(_ message: String, frame: StillFrame? = nil) -> Report {
            Report(line: line, command: command, succeeded: true, message: message, frame: frame)
        }
        func failed(_ message: String) -> Report {
            Report(line: line, command: command, succeeded: false, message: "\(command): \(message)", frame: nil)
        }
        switch command {
        case .meta(let key, let value):
            do throws(CaptureError) { try movie.addMetadata(key: key, value: value) } catch { return failed(error.description) }
            return done("tag \(key)=\(value) added; in the file from the next fragment")
        case .pause:
            movie.pauseRecording()
            return done("paused")
        case .resume:
            movie.resumeRecording()
            return done("resumed")
        case .still(let path):
            do {
                guard let frame = try latest.reference() else { return failed("no frame has arrived yet") }
                let still = try StillImageWriter().write(frame.frame, to: path)
                return done("\(path): frame \(frame.sequenceNumber) at \(frame.time.formattedSeconds(fractionDigits: 3)) s, "
                            + "\(still.width)x\(still.height) \(still.bitDepth)-bit", frame: StillFrame(time: frame.time, sequenceNumber: frame.sequenceNumber))
            } catch {
                return failed("\(error)")
            }
        }
    }
}
