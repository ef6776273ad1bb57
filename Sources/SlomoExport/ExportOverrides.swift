import SlomoCore
import SlomoMedia

/// A front end's choices for an export, over what the edit's own output settings ask (an edit
/// script's `output:`, a phone's 30 fps): each one left nil leaves the edit's choice, else
/// slomo's default, in force. `ExportSettings(edit:overriding:video:for:)` resolves them.
public struct ExportOverrides: Sendable, Hashable {
    /// Passthrough or a constant frame rate; nil for the edit's own mode.
    public var mode: ExportSettings.Mode?
    /// Whether settings of a constant-frame-rate video were chosen (codec, size, frame choice…):
    /// the edit's passthrough then gives way to a frame rate, which must be given.
    public var choosesVideo = false
    public var audioAlgorithm: TimePitchAlgorithm?
    public var spectralEngine: SpectralEngine?
    public var audioCodec: AudioCodec?
    public var audioDepth: SampleDepth?
    public var gain = 0.0
    public var pitch = 0.0
    public var limiter = true
    public var overwrite = false
    public var strict = false
    public var verify = false
    public var part: ExportPart?

    public init() {}
}

extension ExportSettings {
    /// The export of `composition` its edit asks for in `output` (an edit script's `output:`,
    /// or what a movie or timeline brings: a phone's frame rate, else nothing), with
    /// `overrides` over it. The policy every front end shares:
    /// - The mode is the override's, else a constant frame rate the output names, else, for an
    ///   edit script (`isEditScript`), passthrough, its default — unless video settings were
    ///   chosen. Anything else needs a frame rate. A passthrough override of an edit script
    ///   that names a constant frame rate is refused, not silently dropped.
    /// - The audio algorithm, spectral engine and codec are the override's, else the output's,
    ///   else slomo's (spectral, phase-gradient, and `defaultAudioCodec` for `video` and the
    ///   sound: PCM into ProRes from PCM, else AAC).
    /// - Throws: `ExportError(.invalidPlan)` with the hint `.giveFrameRate` when no frame rate is
    ///   known, or `.exportAtScriptedFrameRate` when passthrough would drop an edit script's;
    ///   `TimeModelError` for the output's own mistakes (a `cfr` mode without `fps`).
    public init(edit output: OutputSettings, isEditScript: Bool, overriding overrides: ExportOverrides,
                video: VideoExportSettings, for composition: Composition) throws {
        var asked = output
        if case .constantFrameRate(let rate)? = overrides.mode {
            asked.mode = .cfr
            asked.fps = rate
        }
        let scripted = try asked.exportSettings()
        let namesFrameRate = output.mode == .cfr || (output.mode == nil && output.fps != nil)
        let mode: Mode
        switch overrides.mode {
        case let chosen?:
            if chosen == .passthrough, isEditScript, namesFrameRate {
                throw ExportError(.invalidPlan, "the edit script's output asks for a constant frame rate (output.mode: cfr), "
                                  + "which a passthrough export would drop", hint: .exportAtScriptedFrameRate)
            }
            mode = chosen
        case nil where namesFrameRate || (isEditScript && !overrides.choosesVideo):
            mode = scripted.mode
        case nil:
            throw ExportError(.invalidPlan, "a constant-frame-rate export needs its frame rate", hint: .giveFrameRate)
        }
        let codec = overrides.audioCodec ?? (output.audioCodec == nil ? nil : scripted.audioCodec)
            ?? Self.defaultAudioCodec(video: mode == .passthrough ? nil : video, composition: composition)
        self.init(mode: mode, audioAlgorithm: overrides.audioAlgorithm ?? scripted.audioAlgorithm,
                  spectralEngine: overrides.spectralEngine ?? scripted.spectralEngine, audioCodec: codec,
                  audioDepth: overrides.audioDepth, gain: overrides.gain, pitch: overrides.pitch, limiter: overrides.limiter,
                  overwrite: overrides.overwrite, strict: overrides.strict, verify: overrides.verify, part: overrides.part)
    }
}

extension Hint {
    /// An export at a constant frame rate with none given: give one (`--cfr 30`), or copy the
    /// video as it is (a passthrough retime).
    public static let giveFrameRate = Hint("giveFrameRate", prose: "give a frame rate such as 30, or export passthrough")
}

extension Hint {
    /// A passthrough export of an edit script that asks for a constant frame rate: export it at
    /// that rate (`slomo export`), or give one.
    public static let exportAtScriptedFrameRate = Hint("exportAtScriptedFrameRate",
                                                       prose: "export it at its frame rate, or give one")
}
