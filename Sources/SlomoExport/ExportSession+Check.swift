import SlomoAudio
import SlomoCore
import SlomoMedia

extension ExportSession {
    /// Checks, without writing anything, what the export would refuse before it starts
    /// writing: the output path (its folder, an existing file without `overwrite`, the input
    /// itself), the video settings of a constant-frame-rate export, a passthrough of a trimmed
    /// clip or of a reversed section of long-GOP video, and the rates each audio
    /// track's algorithm must play. A dry run that passes this check describes an export that
    /// starts; `run` makes the same check first.
    public func check() throws {
        try OutputPath.checkWritable(outputPath, overwrite: settings.overwrite)
        for clip in composition.clips where OutputPath.sameFile(clip.source, outputPath) {
            throw ExportError(.outputIsInput, "\(outputPath): is the input \(clip.source); choose another output path")
        }
        switch settings.mode {
        case .constantFrameRate(let frameRate): try video.validate(frameRate: frameRate)
        case .passthrough:
            guard video.shutter.isInstant else {
                throw ExportError(.invalidPlan, SettingIssue(.shutter, nil, "blurs frames as they are rendered, and passthrough copies "
                                                             + "the pictures as they are: export at a constant frame rate ({frameRate})"))
            }
            if composition.clips.count == 1 {
                let clip = composition.clips[0]
                try PassthroughExport.checkUntrimmed(clip)
                if let video = try MediaFile(path: clip.source).videoStream, AudioOutputFormat(path: outputPath)?.isMovie != false {
                    try PassthroughExport.checkContainer(outputPath, holds: video)
                    try ReversedPacketOrder.check(clip.source, map: try clip.timeMap())
                }
            }
        }
        if settings.pitch != 0 {
            guard abs(settings.pitch) <= PitchShift.maximumSemitones else {
                throw ExportError(.invalidPlan, "a pitch of \(settings.pitch) semitones is beyond the −24 … 24 slomo shifts")
            }
            let varispeed = settings.audioAlgorithm == .varispeed
                || composition.clips.contains { $0.sections.contains { $0.audio == .varispeed } }
            guard !varispeed else {
                throw ExportError(.invalidPlan, "varispeed's pitch follows its rate, so it cannot be shifted on its own; "
                                  + "shift it with spectral, time-domain or low-latency audio")
            }
        }
        if let depth = settings.audioDepth, let first = composition.clips.first {
            let input = try MediaFile(path: first.source)
            let audioOnly = composition.clips.count == 1 && AudioOnlyExport.applies(to: self, input: input)
            let codec = audioOnly ? try AudioOnlyExport(session: self).codec : settings.audioCodec
            try AudioTrackExport.check(depth, codec: codec)
        }
        if settings.strict {
            for source in Set(composition.clips.map(\.source)) {
                if let damage = try MediaFile(path: source).damage {
                    throw ExportError(.damagedInput, "\(source): " + damage.map(\.message).joined(separator: "; ")
                                      + "; refused in strict mode")
                }
            }
        }
        let map = try composition.timeMap()
        for entry in map.entries where try !MediaFile(path: entry.clip.source).audioStreams.isEmpty {
            for (index, segment) in entry.map.segments.enumerated() {
                let algorithm = segment.audio ?? settings.audioAlgorithm
                let rates: [Rate]
                switch segment.shape {
                case .constant(let rate): rates = rate == .normal ? [] : [rate]
                case .reversed(let rate): rates = [rate]
                case .ramp(let from, let to), .eased(let from, let to, _): rates = [from, to]
                case .hold: rates = []
                }
                for rate in rates {
                    do {
                        _ = try algorithm.validatedRate(rate.doubleValue)
                    } catch let error as AudioError {
                        throw error.about("segment \(index + 1) (source \(segment.source))")
                    }
                }
            }
        }
    }

    /// Takes what decoding `source` found damaged: an error in strict mode (so nothing is
    /// written), else a line of the result's `damage`.
    func found(_ damage: Damage, in source: String, keptIn log: ExportWarnings) throws {
        let line = "\(source): \(damage.message)"
        if settings.strict { throw ExportError(.damagedInput, line + "; refused in strict mode") }
        log.add(line)
    }
}
