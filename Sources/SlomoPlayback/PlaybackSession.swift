import CSDL2
import Foundation
import SlomoAudio
import SlomoCore
import SlomoMedia

/// One run of a player: the devices, the feeds and the refresh loop, on the playing thread.
///
/// Playing backwards plays the item's reversal (`Composition.reversed`) forwards: `item` is
/// then that, and every time the player says or is told (status, seeks, the presentation
/// log) is the forward item's, `duration − t`.
struct PlaybackSession {
    let player: Player
    /// What plays now: the player's item, or its reversal when playing backwards.
    var item: PlayerItem
    /// The player's item played backwards, once asked for, and the original clip of each of its clips.
    var backward: (item: PlayerItem, originalClips: [Int])?
    var reversed = false
    var window: VideoWindow?
    var audio: AudioDevice?
    var audioFeed: AudioFeed?
    var videoFeed: VideoFeed?
    var log: PresentationLog?
    /// What the feeds' decoders met damaged, sent as notices from the refresh loop.
    let damage = DamageNotices()
    var clock: ItemClock
    var statistics = PlaybackStatistics()
    var rate: Rate
    var algorithm: TimePitchAlgorithm
    /// Semitones the player asks the sound to move by (heard with any algorithm but varispeed).
    var pitch: Double
    var paused: Bool
    /// The picture on screen.
    var current: Picture?
    /// The item time at the previous refresh, to tell late pictures from skipped ones.
    var previousRefresh: MediaTime?
    /// When a picture last arrived late (seconds since start): the decoder skips
    /// non-reference pictures for a second after it.
    var lastLate = 0.0
    /// When the observer is called next (seconds since start; 0: at the next refresh).
    var nextObservation = 0.0
    /// When a key or command last changed something (seconds since start): the status line
    /// shows for `statusSeconds` after it.
    var lastCommand = -Double.infinity
    static let statusSeconds = 3.0
    let start = MonotonicClock.nanoseconds()

    init(player: Player) throws {
        self.player = player
        item = player.item
        let options = player.options
        let control = player.takeControl()
        rate = control.rate
        algorithm = control.algorithm
        pitch = control.pitch
        paused = control.paused
        if control.reversed {
            backward = try Self.reversal(of: item)
            item = backward!.item
            reversed = true
        }
        let startTime = Self.itemTime(min(max(options.start, .zero), item.duration), in: item, reversed: reversed)
        clock = ItemClock(time: startTime.doubleSeconds, rate: rate.value.doubleValue)
        if options.video, let video = item.video {
            window = try VideoWindow(video: video, title: options.title, fullscreen: options.fullscreen)
        }
        if options.audio, let format = item.audioFormat {
            do {
                audio = try AudioDevice(sampleRate: format.sampleRate, channelCount: format.channels,
                                        startTime: startTime.doubleSeconds)
            } catch let error as PlaybackError where error.kind == .noSoundDevice {
                player.send(.notice("no sound device (\(error.problem)): playing without sound"))
            }
        }
        guard window != nil || audio != nil else {
            throw PlaybackError(.nothingToPlay, item.video == nil && !item.hasAudio
                                ? "\(item.files[0].path): has neither video nor audio to play"
                                : "nothing left to play: video and sound are both off")
        }
        if let path = options.presentationLog { log = try PresentationLog(path: path) }
        rate = allowed(rate, algorithm, pitch: pitch)
        let playing = rate
        player.update { $0.rate = playing }
        if let audio {
            audioFeed = AudioFeed(item: item, ring: audio.ring, start: startTime, settings: settings, damage: damage)
        }
        if window != nil {
            videoFeed = VideoFeed(item: item, start: startTime, damage: damage)
            sizeVideoFeed()
        }
        log?.write(PresentationLog.Start(sampleRate: audio?.ring.sampleRate, audioDriver: audio?.driver,
                                         audioLatency: audio?.latency, videoDriver: window?.driver,
                                         refreshRate: window?.refreshRate, rate: rate.value.doubleValue,
                                         algorithm: algorithm.rawValue, pitch: heardPitch))
    }

    /// `item` played backwards: its composition's reversal.
    static func reversal(of item: PlayerItem) throws -> (item: PlayerItem, originalClips: [Int]) {
        let reversal = try item.composition.reversed()
        return (try PlayerItem(reversal.composition), reversal.originalClips)
    }

    /// The time of `item` that plays at `time` of the forward item (and back: the mirror is its own inverse).
    static func itemTime(_ time: MediaTime, in item: PlayerItem, reversed: Bool) -> MediaTime {
        reversed ? item.duration - time : time
    }

    /// `time` of `item` as a time of the forward item.
    func forwardTime(_ time: Double) -> Double { reversed ? item.duration.doubleSeconds - time : time }

    var settings: AudioFeed.Settings {
        AudioFeed.Settings(rate: rate, algorithm: algorithm, spectralEngine: player.options.spectralEngine, pitch: heardPitch)
    }

    /// The pitch the sound is rendered at: varispeed's follows its rate, so none of its own.
    var heardPitch: Double { algorithm == .varispeed ? 0 : pitch
    }

    /// The item time playing now: the sound device's, else the monotonic clock's.
    func now() -> Double { audio?.ring.now().itemTime ?? clock.time() }

    mutating func run() throws -> PlaybackStatistics {
        defer { stop() }
        if let window, let first = videoFeed?.takeNext(timeout: 5) {
            try show(first, in: window)
        }
        if !paused { setPaused(false) }
        let refresh = 1 / (window?.refreshRate ?? 100)
        var nextRefresh = MonotonicClock.nanoseconds()
        while true {
            try pollEvents()
            let control = player.takeControl()
            if control.quit { break }
            try apply(control)
            try checkFeeds()
            noteUnderruns()
            let time = now()
            // A picture shows at the refresh nearest its time: due half a refresh ahead.
            if !paused { try presentDue(at: time + refresh / 2 * rate.value.doubleValue) }
            let wall = seconds(since: start)
            if wall >= nextObservation {
                nextObservation = wall + player.interval
                publish(at: time)
            }
            if !paused && isAtEnd(time) {
                if player.options.loop {
                    seek(to: .zero)
                } else {
                    noteUnderruns()
                    sayDamage()
                    publish(at: time)
                    player.send(.ended(statistics))
                    break
                }
            }
            nextRefresh += Int64(refresh * 1e9)
            let now = MonotonicClock.nanoseconds()
            if nextRefresh > now { usleep(UInt32((nextRefresh - now) / 1000)) } else { nextRefresh = now }
        }
        noteUnderruns()
        let audioFrames = stop()
        log?.write(PresentationLog.End(statistics: statistics, audioFrames: audioFrames))
        return statistics
    }

    /// Stops the feeds and closes the sound device, once; returns the frames the device was
    /// handed (nothing plays after this).
    @discardableResult
    private mutating func stop() -> Int? {
        audioFeed?.stop()
        audioFeed = nil
        videoFeed?.stop()
        videoFeed = nil
        return audio?.close()
    }

    // MARK: Refreshes

    /// Shows the latest picture due at `time`; counts the ones it passes over.
    private mutating func presentDue(at seconds: Double) throws {
        guard let window, let feed = videoFeed else { return }
        let time = MediaTime(value: Int64((seconds * 1e9).rounded(.down)), timescale: 1_000_000_000)
        statistics.slots += 1
        let (latest, superseded) = feed.takeDue(at: time)
        let late = previousRefresh.map { previous in superseded.filter { $0 <= previous }.count } ?? 0
        statistics.dropped += late
        statistics.skipped += superseded.count - late
        if late > 0 { lastLate = seconds }
        feed.setBehind(seconds - lastLate < 1 && lastLate > 0)
        previousRefresh = time
        if let latest {
            statistics.slotsWithNewPicture += 1
            try show(latest, in: window)
        }
    }

    private mutating func show(_ picture: Picture, in window: VideoWindow) throws {
        try window.show(picture.frame)
        statistics.shown += 1
        let clipChanged = picture.clip != current?.clip
        current = picture
        if clipChanged { sizeVideoFeed() }
        let heard = audio?.ring.now()
        log?.write(PresentationLog.Shown(clip: reversed ? backward!.originalClips[picture.clip] : picture.clip,
                                         sourceTime: picture.sourceTime.doubleSeconds,
                                         outputTime: forwardTime(picture.itemTime.doubleSeconds),
                                         wallTime: seconds(since: start), audioFrame: heard?.deviceFrame,
                                         rate: rate.value.doubleValue, dropped: statistics.dropped,
                                         skipped: statistics.skipped))
    }

    /// Gives the decode queue room for two refreshes' worth of pictures of the clip on screen
    /// at the player's rate (after a new feed, a rate change or a new clip).
    private func sizeVideoFeed() {
        guard let window, let feed = videoFeed,
              let fps = item.files[current?.clip ?? 0].videoStream?.video?.averageFrameRate else { return }
        feed.setPicturesPerRefresh(fps.doubleValue * rate.value.doubleValue / window.refreshRate)
    }

    private func isAtEnd(_ time: Double) -> Bool {
        let videoDone = videoFeed?.isFinished ?? true
        return videoDone && time >= item.duration.doubleSeconds - 0.001
    }

    /// Counts the device's underruns and logs each new one.
    private mutating func noteUnderruns() {
        let count = audio?.ring.underruns ?? 0
        guard count > statistics.underruns else { return }
        statistics.underruns = count
        log?.write(PresentationLog.Underrun(wallTime: seconds(since: start), outputTime: now(), underruns: count))
    }

    /// Throws what stopped a feed; sends the damage the feeds met as notices.
    private func checkFeeds() throws {
        if let error = videoFeed?.failure ?? audioFeed?.failure { throw error }
        sayDamage()
    }

    private func sayDamage() {
        for line in damage.take() { player.send(.notice(line)) }
    }

    private mutating func pollEvents() throws {
        guard window != nil else { return }
        var event = SDL_Event()
        while SDL_PollEvent(&event) != 0 {
            if SDL_EventType(event.type) == SDL_WINDOWEVENT { window?.present() }
            if let command = PlayerCommand.of(event) { player.perform(command) }
        }
    }

    // MARK: Commands

    private mutating func apply(_ control: Player.Control) throws {
        if !control.commands.isEmpty || control.seekTarget != nil || control.stepCount != 0 || control.settingsChanged {
            lastCommand = seconds(since: start)
            nextObservation = 0
        }
        for command in control.commands { try perform(command) }
        if let target = control.seekTarget { seek(to: Self.itemTime(target, in: item, reversed: reversed)) }
        if control.stepCount != 0 { try step(control.stepCount) }
        if control.settingsChanged { change(rate: control.rate, algorithm: control.algorithm, pitch: control.pitch) }
        if control.reversed != reversed { try play(reversed: control.reversed) }
        if control.paused != paused { setPaused(control.paused) }
    }

    private mutating func perform(_ command: PlayerCommand) throws {
        switch command {
        case .togglePause: player.update { $0.paused.toggle() }
        case .multiplyRate(let factor):
            let value = (rate.value.doubleValue * factor * 1000).rounded() / 1000
            change(rate: (try? Rate(Rational(Int64(value * 1000), 1000))) ?? rate, algorithm: algorithm, pitch: pitch)
        case .resetRate: change(rate: .normal, algorithm: algorithm, pitch: pitch)
        case .shiftPitch(let semitones):
            let wanted = min(max(pitch + semitones, -PitchShift.maximumSemitones), PitchShift.maximumSemitones)
            change(rate: rate, algorithm: algorithm, pitch: wanted)
        case .resetPitch: change(rate: rate, algorithm: algorithm, pitch: 0)
        case .step(let count): player.update { $0.paused = true }; setPaused(true); try step(count)
        case .seek(let offset): seek(to: Self.itemTime(MediaTime.seconds(forwardTime(now()) + offset), in: item, reversed: reversed))
        case .toggleDirection: player.update { $0.reversed.toggle() }
        case .nextAlgorithm:
            let all = TimePitchAlgorithm.allCases
            change(rate: rate, algorithm: all[(all.firstIndex(of: algorithm)! + 1) % all.count], pitch: pitch)
        case .toggleFullscreen: window?.toggleFullscreen()
        case .quit: player.quit()
        }
    }

    /// The nearest rate `algorithm` can play every segment of the item at, with a notice
    /// when it is not `wanted`. A pitch shift renders every segment `ratio` times longer (at a
    /// sample rate `ratio` times lower: `JoinedAudio`), which narrows the rates by as much.
    private func allowed(_ wanted: Rate, _ algorithm: TimePitchAlgorithm, pitch: Double) -> Rate {
        guard audio != nil else { return wanted }
        let segments = item.segmentRates
        let ratio = algorithm == .varispeed ? 1 : PitchShift.ratio(semitones: pitch)
        let lowest = algorithm.minimumRate * ratio / segments.lowerBound, highest = algorithm.maximumRate * ratio / segments.upperBound
        let value = wanted.value.doubleValue
        guard value < lowest - 1e-9 || value > highest + 1e-9 else { return wanted }
        let nearest = min(max(value, lowest), highest)
        let rate = (try? Rate(Rational(Int64((nearest * 1000).rounded(value < lowest ? .up : .down)), 1000))) ?? .normal
        player.send(.notice("rate \(wanted) is outside what \(algorithm.rawValue) can play here; playing at \(rate)"))
        return rate
    }

    private mutating func change(rate wanted: Rate, algorithm newAlgorithm: TimePitchAlgorithm, pitch newPitch: Double) {
        let newRate = allowed(wanted, newAlgorithm, pitch: newPitch)
        player.update { $0.rate = newRate; $0.algorithm = newAlgorithm; $0.pitch = newPitch }
        if newPitch != 0, newAlgorithm == .varispeed, newPitch != pitch || newAlgorithm != algorithm {
            player.send(.notice("varispeed's pitch follows its rate: a pitch of \(PlayerTitle.semitones(newPitch)) is heard "
                                + "with spectral, time-domain or low-latency (press a)"))
        }
        guard newRate != rate || newAlgorithm != algorithm || newPitch != pitch else { return }
        clock.rebase(rate: newRate.value.doubleValue)
        rate = newRate
        algorithm = newAlgorithm
        pitch = newPitch
        audioFeed?.change(settings)
        sizeVideoFeed()
        log?.write(PresentationLog.RateChange(wallTime: seconds(since: start), outputTime: now(),
                                              rate: rate.value.doubleValue, algorithm: algorithm.rawValue, pitch: heardPitch))
    }

    private mutating func setPaused(_ value: Bool) {
        paused = value
        audio?.setPaused(value)
        clock.setPaused(value)
        player.update { $0.paused = value }
    }

    /// Plays on from where the player is, backwards or forwards again: the other item, from the
    /// mirrored time.
    private mutating func play(reversed backwards: Bool) throws {
        let forward = forwardTime(now())
        if backwards, backward == nil { backward = try Self.reversal(of: player.item) }
        reversed = backwards
        item = backwards ? backward!.item : player.item
        let target = Self.itemTime(MediaTime.seconds(forward), in: item, reversed: reversed)
        audioFeed?.stop()
        audioFeed = nil
        seek(to: target)
        if let audio { audioFeed = AudioFeed(item: item, ring: audio.ring, start: target, settings: settings, damage: damage) }
        log?.write(PresentationLog.RateChange(wallTime: seconds(since: start), outputTime: forward,
                                              rate: (backwards ? -1 : 1) * rate.value.doubleValue, algorithm: algorithm.rawValue,
                                              pitch: heardPitch))
    }

    /// Restarts both feeds at `target` and shows the picture there at once.
    private mutating func seek(to target: MediaTime) {
        let time = min(max(target, .zero), item.duration)
        audioFeed?.seek(to: time, settings: settings)
        clock.set(time.doubleSeconds)
        previousRefresh = nil
        guard window != nil else { return }
        videoFeed?.stop()
        videoFeed = VideoFeed(item: item, start: time, damage: damage)
        sizeVideoFeed()
        if let first = videoFeed?.takeNext(timeout: 5), let window {
            try? show(first, in: window)
        }
    }

    /// Shows the picture `count` frames on (or back) from the one on screen, paused.
    private mutating func step(_ count: Int) throws {
        guard let window, let feed = videoFeed else { return }
        if count > 0 {
            var picture: Picture?
            for _ in 0..<count { picture = feed.takeNext() ?? picture }
            if let picture { try show(picture, in: window) }
        } else if let current {
            var target = current.itemTime
            for _ in 0..<(-count) {
                seek(to: target - MediaTime(value: 1, timescale: 1_000_000_000))
                target = self.current?.itemTime ?? target
            }
        }
        if let shown = self.current {
            audioFeed?.seek(to: shown.itemTime, settings: settings)
            clock.set(shown.itemTime.doubleSeconds)
        }
    }

    private func publish(at itemTime: Double) {
        let time = forwardTime(itemTime)
        let item = player.item
        let (clip, source) = item.map.source(atOutput: MediaTime.seconds(time))
        let entry = item.map.entries[clip]
        let segment = entry.map.segments[entry.map.segmentIndex(containingSource: source)]
        let fps = entry.clip.frameRate.map { segment.effectiveFrameRate(sourceFrameRate: $0).doubleValue * rate.value.doubleValue }
        let status = PlayerStatus(time: time, clip: clip, sourceTime: source.doubleSeconds,
                                  rate: (reversed ? -1 : 1) * rate.value.doubleValue,
                                  effectiveFrameRate: fps, algorithm: algorithm.rawValue, pitch: heardPitch, paused: paused,
                                  statistics: statistics)
        player.update { $0.status = status }
        window?.setStatus(title: PlayerTitle.text(player.options.title, status, duration: item.duration.doubleSeconds),
                          line: PlayerTitle.line(status, duration: item.duration.doubleSeconds))
        let showsStatus = paused || seconds(since: start) < lastCommand + Self.statusSeconds
        if let window, showsStatus || window.showsStatus {
            window.showsStatus = showsStatus
            if paused { window.present() }
        }
        player.send(.time(status))
    }

    private func seconds(since start: Int64) -> Double { Double(MonotonicClock.nanoseconds() - start) * 1e-9 }
}
