import Foundation
import CSDL2
import SlomoCapture
import SlomoConcurrency
import SlomoCore
import SlomoMedia
import Synchronization

/// A live preview of what a capture session records, in an SDL window
/// (AVCaptureVideoPreviewLayer): the newest frame is shown, scaled to the window, with the
/// status in the title. It never slows the recording: its frames come from a `FrameOutput`
/// that holds one frame and replaces it when a newer one arrives, so under load preview frames
/// are skipped (counted in `skippedFrames`), never recorded ones. Any number of previews may
/// watch one session. Closing the window ends the preview, not the recording.
///
/// ```swift
/// let preview = try CapturePreview(session: session, title: "take.mov")
/// try session.startRunning()
/// preview.setStatus("● 2.5 s, 240.0 fps, 0 dropped")
/// ```
public final class CapturePreview: Sendable {
    private let output: FrameOutput
    private let state: PreviewState

    /// Adds a preview to `session` (before it starts); its window opens with the first frame.
    /// `presentationLog` writes a JSON line for every frame shown (docs/capture.md).
    public init(session: CaptureSession, title: String, presentationLog: String? = nil) throws(CaptureError) {
        let log: PresentationLog?
        do { log = try presentationLog.map { try PresentationLog(path: $0) } } catch {
            throw CaptureError(.invalidInput, "\(presentationLog ?? ""): cannot write the preview log")
        }
        let state = PreviewState(screen: PreviewScreen(title: title, log: log), session: session)
        self.state = state
        output = FrameOutput(alwaysDiscardsLateFrames: true) { frame in state.show(frame) }
        try session.add(output)
    }

    /// The status shown in the window's title after its name.
    public func setStatus(_ text: String) { state.status.withLock { $0 = text } }

    /// Frames shown so far.
    public var shownFrames: Int { state.shown.load(ordering: .relaxed) }

    /// Frames the preview skipped because a newer one had arrived before it could show them
    /// (the recording has them all).
    public var skippedFrames: Int { output.counters.droppedAsLate }

    /// Why the window could not open or went away, if it did: the recording goes on.
    public var problem: String? { state.screen.withLock { $0.problem } }
}

/// What the preview's delivery thread and its owner share.
private final class PreviewState: Sendable {
    let screen: Guarded<PreviewScreen>
    let status = Mutex<String>("")
    let shown = Atomic<Int>(0)
    let session: CaptureSession

    init(screen: sending PreviewScreen, session: CaptureSession) {
        self.screen = Guarded(screen)
        self.session = session
    }

    /// Delivery thread: shows the frame with the status in the title.
    func show(_ frame: sending CapturedFrame) {
        let title = status.withLock { $0 }
        let clock = session.clock
        let didShow = screen.withLock(moving: frame) { $0.show($1, status: title, clock: clock) }
        if didShow { shown.add(1, ordering: .relaxed) }
    }
}

/// The window and what is drawn in it; lives on the preview's delivery thread.
struct PreviewScreen {
    let title: String
    let log: PresentationLog?
    var window: VideoWindow?
    var problem: String?
    var closed = false
    var shownTitle = ""

    /// A line of the preview's log: the frame shown, when it was captured and when shown
    /// (session seconds), and how to map the session clock to the system clocks.
    struct Shown: Encodable {
        let event = "preview"
        let sequence: Int
        let captured: Double
        let shown: Double
        /// CLOCK_MONOTONIC seconds at the session's time zero.
        let origin: Double
        /// CLOCK_REALTIME minus CLOCK_MONOTONIC, seconds (to place wall-clock timestamps).
        let realtimeOffset: Double
    }

    /// Shows `frame`; false when there is no window (none could open, or it was closed).
    mutating func show(_ frame: CapturedFrame, status: String, clock: SessionClock) -> Bool {
        guard !closed else { return false }
        do {
            if window == nil { window = try VideoWindow(video: VideoInfo(picture: frame.frame), title: title, fullscreen: false) }
            guard let window else { return false }
            var event = SDL_Event()
            while SDL_PollEvent(&event) != 0 {
                let type = SDL_EventType(event.type)
                if type == SDL_QUIT || (type == SDL_WINDOWEVENT && SDL_WindowEventID(UInt32(event.window.event)) == SDL_WINDOWEVENT_CLOSE) {
                    closed = true
                    self.window = nil
                    problem = "the preview window was closed"
                    return false
                }
            }
            let wanted = status.isEmpty ? title : "\(title) — \(status)"
            if wanted != shownTitle {
                window.setStatus(title: wanted, line: "")
                shownTitle = wanted
            }
            try window.show(frame.frame)
            log?.write(Shown(sequence: frame.sequenceNumber, captured: Double(frame.time.nanoseconds) / 1e9,
                             shown: Double(clock.now()) / 1e9, origin: Double(clock.origin) / 1e9,
                             realtimeOffset: MonotonicClock.realtimeOffset()))
            return true
        } catch {
            closed = true
            window = nil
            problem = "\(error)"
            return false
        }
    }
}
