import SlomoCore
/// Reading an edit script from YAML or JSON text (schema in docs/edit-script.md).
extension EditScript {
    /// Parses and validates a script. Errors have the path inside the document as subject
    /// (`clips[1].sections[0].rate`): `.unknownKey`, `.missingKey`, `.wrongType`,
    /// `.unsupportedVersion`, `.invalidValue`, and the section errors (`.emptyRange`,
    /// `.rateOutOfRange`, `.rampTooLong`, `.overlap`, …) that can be found without the sources.
    public init(parsing text: String, baseDirectory: String? = nil) throws {
        let root = try DocumentNode(parsing: text)
        let keys = try root.mapping(allowed: ["slomo", "clips", "output"], required: ["slomo", "clips"])
        let version = try keys["slomo"]!.integer()
        guard version == EditScript.version else {
            throw TimeModelError(.unsupportedVersion, "version \(version) is not supported; "
                                 + "this slomo reads version \(EditScript.version)", subject: "slomo")
        }
        let clipNodes = try keys["clips"]!.sequence()
        guard !clipNodes.isEmpty else { throw TimeModelError(.emptyRange, "the script has no clips", subject: "clips") }
        self.init(clips: try clipNodes.map(EditScript.clip), output: try keys["output"].map(EditScript.output) ?? OutputSettings(),
                  baseDirectory: baseDirectory)
    }

    private static func clip(_ node: DocumentNode) throws -> Clip {
        let keys = try node.mapping(allowed: ["source", "start", "end", "sections", "freeze"], required: ["source"])
        var clip = Clip(source: try keys["source"]!.string("a file path"))
        if let start = keys["start"] { clip.start = try start.position() }
        if let end = keys["end"] { clip.end = try end.position() }
        var sectionNodes: [DocumentNode] = []
        for node in try keys["sections"]?.sequence() ?? [] {
            if node.isString, case let text = try node.text("a section"), AutoSection.isAuto(text) {
                do {
                    clip.autoSections.append(try AutoSection(parsing: text))
                } catch let error as TimeModelError {
                    throw error.inDocument(node.path)
                }
            } else {
                sectionNodes.append(node)
            }
        }
        clip.sections = try sectionNodes.map(section)
        if let freeze = keys["freeze"] {
            clip.freezes = try (freeze.isSequence ? try freeze.sequence() : [freeze]).map(Self.freeze)
        }
        // Sections whose edges are both times can be checked against each other now.
        let timed = try zip(clip.sections, sectionNodes).compactMap { spec, node -> Section? in
            guard case .time(let start) = spec.start, case .time(let end) = spec.end else { return nil }
            return try spec.resolved(in: TimeRange(start: start, end: .max(start, end)), frameRate: nil,
                                     origin: .document(node.path))
        }
        if let first = timed.map(\.range.start).min(), let last = timed.map(\.range.end).max() {
            _ = try Section.validated(timed, in: TimeRange(start: first, end: last))
        }
        return clip
    }

    /// `{at: 3, for: 2, audio: freeze}`.
    private static func freeze(_ node: DocumentNode) throws -> FreezeSpec {
        let keys = try node.mapping(allowed: ["at", "for", "audio"], required: ["at", "for"])
        var spec = FreezeSpec(at: try keys["at"]!.position(), duration: try keys["for"]!.duration())
        if let audio = keys["audio"] { spec.audio = try audio.choice(Freeze.Audio.self) }
        if case .time(let at) = spec.at {
            _ = try spec.resolved(in: TimeRange(start: at, end: at), frameRate: nil, origin: .document(node.path))
        }
        return spec
    }

    private static func section(_ node: DocumentNode) throws -> SectionSpec {
        if node.isString {
            let text = try node.text("a section")
            do {
                return try SectionSpec(parsing: text)
            } catch let error as TimeModelError {
                throw error.inDocument(node.path)
            }
        }
        let keys = try node.mapping(allowed: ["start", "end", "rate", "ramp", "ramp-in", "ramp-out", "ease", "audio", "pitch", "frames"],
                                    required: ["start", "end", "rate"])
        let (rate, reversed) = try keys["rate"]!.directedRate()
        var spec = SectionSpec(start: try keys["start"]!.position(), end: try keys["end"]!.position(), rate: rate, reversed: reversed)
        if let ramp = keys["ramp"] {
            if keys["ramp-in"] != nil || keys["ramp-out"] != nil {
                throw TimeModelError(.invalidValue, "give either ramp or ramp-in/ramp-out", subject: ramp.path)
            }
            spec.rampIn = try ramp.duration()
            spec.rampOut = spec.rampIn
        }
        if let rampIn = keys["ramp-in"] { spec.rampIn = try rampIn.duration() }
        if let rampOut = keys["ramp-out"] { spec.rampOut = try rampOut.duration() }
        if let ease = keys["ease"] {
            let text = try ease.string("an ease such as smooth or cubic-bezier(0.25,0.1,0.25,1)")
            spec.ease = try TimeModelError.located(ease.path) { try Ease(parsing: text) }
        }
        if let audio = keys["audio"] { spec.audio = try audio.choice(TimePitchAlgorithm.self) }
        if let pitch = keys["pitch"] { spec.pitch = try pitch.semitones() }
        if let frames = keys["frames"] { spec.frames = try frames.choice(FrameChoice.self) }
        if case .time(let start) = spec.start, case .time(let end) = spec.end {
            _ = try spec.resolved(in: TimeRange(start: start, end: .max(start, end)), frameRate: nil,
                                  origin: .document(node.path))
        }
        return spec
    }

    private static func output(_ node: DocumentNode) throws -> OutputSettings {
        let keys = try node.mapping(allowed: ["mode", "fps", "codec", "frames", "interpolation", "shutter", "shutter-samples", "size",
                                              "scaling", "audio"])
        var output = OutputSettings()
        output.mode = try keys["mode"]?.choice(OutputSettings.Mode.self)
        output.fps = try keys["fps"]?.frameRate()
        output.codec = try keys["codec"]?.string("a codec name such as h264")
        output.frames = try keys["frames"]?.choice(FrameChoice.self)
        output.interpolation = try keys["interpolation"]?.choice(InterpolationPreset.self)
        if keys["shutter"] != nil || keys["shutter-samples"] != nil {
            output.shutter = Shutter(angle: try keys["shutter"]?.angle() ?? Rational(0), samples: try keys["shutter-samples"]?.integer() ?? 1)
        }
        if let size = keys["size"] {
            guard let parsed = OutputSettings.Size(parsing: try size.string("a size such as 1280x720")) else {
                throw size.wrongType("a size such as 1280x720")
            }
            output.size = parsed
        }
        output.scaling = try keys["scaling"]?.choice(OutputSettings.Scaling.self)
        if let audio = keys["audio"] {
            let audioKeys = try audio.mapping(allowed: ["algorithm", "codec", "spectral-engine"])
            output.audio = try audioKeys["algorithm"]?.choice(TimePitchAlgorithm.self)
            output.spectralEngine = try audioKeys["spectral-engine"]?.choice(SpectralEngine.self)
            output.audioCodec = try audioKeys["codec"]?.string("a codec name such as aac")
        }
        return output
    }
}
