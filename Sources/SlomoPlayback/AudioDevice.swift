import CSDL2

/// The sound device, through SDL: opened for 32-bit float at the item's sample rate and
/// channel count (SDL converts when the hardware wants something else), pulling its frames
/// from an `AudioRing` on SDL's audio thread.
final class AudioDevice {
    let ring: AudioRing
    /// The SDL driver playing ("pulseaudio", "alsa", "disk"…).
    let driver: String
    private let id: SDL_AudioDeviceID
    private let context: Unmanaged<AudioRing>
    private var isOpen = true

    /// Frames a device buffer holds: 1024 (21 ms at 48 kHz). 512 was tried: SDL's disk driver
    /// then sleeps a whole 10 ms for each 10.7 ms buffer and plays 6 % fast, which the tests'
    /// judge (its file) cannot tell from the player's own drift.
    static let requestedBufferFrames = 1024

    /// Opens the default device; throws `PlaybackError(.noSoundDevice)` when there is none.
    init(sampleRate: Int, channelCount: Int, startTime: Double) throws {
        try SDLSubsystem.start(SDL_INIT_AUDIO)
        driver = SDL_GetCurrentAudioDriver().map { String(cString: $0) } ?? "unknown"
        // SDL hands a buffer over one period before it is heard; the disk driver writes it at once.
        let latency = driver == "disk" || driver == "dummy" ? 0 : Self.requestedBufferFrames
        let ring = AudioRing(channelCount: channelCount, sampleRate: sampleRate, latencyFrames: latency,
                             primingFrames: Int(AudioFeed.lead / 2 * Double(sampleRate)), startTime: startTime)
        let context = Unmanaged.passRetained(ring)
        var desired = SDL_AudioSpec()
        desired.freq = Int32(sampleRate)
        desired.format = SDL_AudioFormat(AUDIO_F32SYS)
        desired.channels = UInt8(channelCount)
        desired.samples = UInt16(Self.requestedBufferFrames)
        desired.userdata = context.toOpaque()
        desired.callback = { userdata, stream, length in
            let ring = Unmanaged<AudioRing>.fromOpaque(userdata!).takeUnretainedValue()
            let frames = Int(length) / (MemoryLayout<Float>.size * ring.channelCount)
            stream!.withMemoryRebound(to: Float.self, capacity: frames * ring.channelCount) {
                ring.render(into: $0, frames: frames)
            }
        }
        // No changes allowed: SDL converts to whatever the hardware wants.
        let id = SDL_OpenAudioDevice(nil, 0, &desired, nil, 0)
        guard id != 0 else {
            context.release()
            throw PlaybackError(.noSoundDevice, "no sound device: \(SDL.lastError)")
        }
        self.id = id
        self.ring = ring
        self.context = context
        SDL_PauseAudioDevice(id, 0)
    }

    deinit {
        close()
        context.release()
    }

    /// Closes the device (SDL joins its audio thread: no callback runs after this) and
    /// returns the frames it was handed.
    @discardableResult
    func close() -> Int {
        if isOpen { SDL_CloseAudioDevice(id) }
        isOpen = false
        return ring.deviceFrames
    }

    /// Seconds between a frame leaving the ring and being heard, as this model counts it.
    var latency: Double { Double(ring.latencyFrames) / Double(ring.sampleRate) }

    /// Pauses or resumes the sound: the device keeps running and plays silence while paused.
    func setPaused(_ paused: Bool) { ring.setPaused(paused) }
}
