import Synchronization
import SlomoAudio
import SlomoCore

/// Plays a `PlayerItem` at any rate, in a window and through the sound device (SDL).
///
/// The model is AVFoundation's `AVPlayer`: `rate` plays the item faster or slower on top of
/// its own sections, and `audioAlgorithm` decides how the sound follows. The sound device's
/// clock is the master: audio is rendered ahead by the export's renderer (`PlaybackAudio`),
/// and each picture is shown at the first screen refresh at or after its output time as the
/// device plays it; pictures that missed their refresh are dropped and counted. Without audio
/// a monotonic clock drives the pictures.
///
/// `run()` plays on the calling thread (SDL wants its window on the main thread) until the
/// item ends or `quit`; `play()`, `pause()`, `seek(to:)`, `step(frames:)`, `setRate(_:)`,
/// `setReversed(_:)` and `setAudioAlgorithm(_:)` may be called from any thread (an observer, another task) and take
/// effect at the next refresh.
public final class Player: Sendable {
    /// How the player runs.
    public struct Options: Sendable {
        /// Show pictures in a window (false: sound only, no display needed).
        public var video = true
        /// Play sound (false, or no sound device: pictures only, a monotonic clock).
        public var audio = true
        public var fullscreen = false
        /// Start again at the beginning when the item ends.
        public var loop = false
        /// Where playing starts, in output time.
        public var start: MediaTime = .zero
        /// Play backwards from `start` (AVPlayer's negative rate): the composition's output
        /// timeline mirrored (`Composition.reversed`), pictures and sound backwards.
        public var reversed = false
        /// Start paused (the first picture shows).
        public var startsPaused = false
        /// `--presentation-log`: JSON lines of every picture shown (see `PresentationLog`).
        public var presentationLog: String?
        /// The engine of spectral audio.
        public var spectralEngine: SpectralEngine = .defaultEngine
        /// What the window title starts with.
        public var title = "slomo"

        public init() {}
    }

    /// What happens while playing, for the caller.
    public enum Event: Sendable {
        /// The periodic time observer's tick.
        case time(PlayerStatus)
        /// A rate was outside the algorithm's range and the nearest allowed one plays instead,
        /// the sound device is missing, or a decoder met damage in a file (`clip.mov: audio: 1
        /// packet could not be decoded cleanly at 3.20 s (file damaged?)`; its sound plays as
        /// silence): said once, playing goes on.
        case notice(String)
        /// The item played to its end (not sent when looping).
        case ended(PlaybackStatistics)
        /// Playing stopped on an error (decoding, rendering); `run()` throws it too.
        case failed(PlaybackError)
    }

    struct Control {
        var commands: [PlayerCommand] = []
        var seekTarget: MediaTime?
        var stepCount = 0
        var rate: Rate
        var algorithm: TimePitchAlgorithm
        /// Semitones the sound is moved by (0: the source's pitch).
        var pitch: Double
        var paused: Bool
        var reversed: Bool
        var settingsChanged = false
        var quit = false
        var status: PlayerStatus?
    }

    public let item: PlayerItem
    public let options: Options
    private let control: Mutex<Control>
    private let observerInterval: Double
    private let events: @Sendable (Event) -> Void

    /// A player of `item` at `rate` with `algorithm`, its sound moved by `pitch` semitones;
    /// `events` is called on the playing thread, with a `.time` event every `observerInterval`
    /// seconds. The rate is checked against the algorithm at once (nearest allowed rate, with a
    /// notice).
    public init(item: PlayerItem, rate: Rate = .normal, audioAlgorithm: TimePitchAlgorithm = .spectral, pitch: Double = 0,
                options: Options = Options(), observerInterval: Double = 0.5,
                events: @escaping @Sendable (Event) -> Void = { _ in }) {
        self.item = item
        self.options = options
        self.observerInterval = observerInterval
        self.events = events
        control = Mutex(Control(rate: rate, algorithm: audioAlgorithm, pitch: pitch, paused: options.startsPaused,
                                reversed: options.reversed))
    }

    // MARK: Control, from any thread

    /// Plays from where the player is.
    public func play() { control.withLock { $0.paused = false } }
    /// Pauses; the picture and the sound stop where they are.
    public func pause() { control.withLock { $0.paused = true } }
    /// Plays from output time `time` (clamped into the item).
    public func seek(to time: MediaTime) { control.withLock { $0.seekTarget = time } }
    /// Shows the picture `count` frames later (or earlier, when negative) in output order, paused.
    public func step(frames count: Int) { control.withLock { $0.stepCount += count; $0.paused = true } }
    /// Changes the rate while playing (the nearest rate the algorithm allows, with a notice).
    public func setRate(_ rate: Rate) { control.withLock { $0.rate = rate; $0.settingsChanged = true } }
    /// Changes the time-pitch algorithm the sound is rendered with, while playing (a rate it
    /// cannot play falls back to its nearest allowed rate, with a notice).
    public func setAudioAlgorithm(_ algorithm: TimePitchAlgorithm) {
        control.withLock { $0.algorithm = algorithm; $0.settingsChanged = true }
    }
    /// Moves the sound's pitch by `semitones` (−24…24; 0: the source's pitch), its speed kept,
    /// while playing. Varispeed cannot: its pitch follows its rate (a notice says so).
    public func setPitch(semitones: Double) {
        control.withLock { $0.pitch = min(max(semitones, -PitchShift.maximumSemitones), PitchShift.maximumSemitones); $0.settingsChanged = true }
    }
    /// Plays backwards (true) or forwards from where the player is.
    public func setReversed(_ reversed: Bool) { control.withLock { $0.reversed = reversed } }
    /// Does what a key asks.
    public func perform(_ command: PlayerCommand) { control.withLock { $0.commands.append(command) } }
    /// Stops playing: `run()` returns.
    public func quit() { control.withLock { $0.quit = true } }

    /// The player's rate and algorithm now, and whether it plays backwards.
    public var rate: Rate { control.withLock { $0.rate } }
    public var isReversed: Bool { control.withLock { $0.reversed } }
    public var audioAlgorithm: TimePitchAlgorithm { control.withLock { $0.algorithm } }
    /// Semitones the sound is moved by.
    public var pitch: Double { control.withLock { $0.pitch } }
    /// The last status the playing thread published.
    public var status: PlayerStatus? { control.withLock { $0.status } }

    /// Plays until the item ends (unless looping) or `quit()`; returns what was counted.
    /// Throws `PlaybackError` (`.noDisplay`, `.nothingToPlay`, `.failed`) and decoding errors.
    public func run() throws -> PlaybackStatistics {
        var session = try PlaybackSession(player: self)
        do {
            return try session.run()
        } catch {
            send(.failed(error as? PlaybackError ?? PlaybackError(.failed, "\(error)")))
            throw error
        }
    }

    // MARK: For the session (`PlaybackSession`)

    func takeControl() -> Control {
        control.withLock { state in
            let taken = state
            state.commands = []
            state.seekTarget = nil
            state.stepCount = 0
            state.settingsChanged = false
            return taken
        }
    }

    func update(_ body: (inout Control) -> Void) { control.withLock { body(&$0) } }
    func send(_ event: Event) { events(event) }
    var interval: Double { observerInterval }
}
