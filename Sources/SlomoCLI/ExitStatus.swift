import ArgumentParser
import Foundation
import SlomoAudio
import SlomoBatch
import SlomoCapture
import SlomoComposition
import SlomoCore
import SlomoExport
import SlomoMedia

/// slomo's one rule for exit statuses, the same for every command: 0 done, 1 failed, 64 usage
/// (any bad option or value, including sections and settings the library refuses), 130
/// interrupted by SIGINT and 143 by SIGTERM (128 + the signal), 3 capture source lost, 2 damage
/// found by `inspect --verify`.
enum ExitStatus {
    static let failed: Int32 = 1
    static let damaged: Int32 = 2
    static let usage: Int32 = 64
    static let sourceLost: Int32 = 3

    /// The text every `--help` ends with.
    static let help = "Exit status: 0 done, 1 failed, 64 usage (a bad option or value), 130 interrupted (143 on SIGTERM)."

    /// The status of a command that stopped with `error`.
    static func of(_ error: Error) -> Int32 {
        switch error {
        case is CommandError:
            return usage
        case let error as TimeModelError:
            // A section typed as syntax is a usage mistake; an edit script's or a timeline's
            // section is the file's content, not usage.
            if error.section?.isTyped == true { return usage }
            return failed
        case let error as AudioError:
            return [.invalidRate, .rateOutOfRange, .unknownAlgorithm].contains(error.kind) ? usage : failed
        case let error as ExportError:
            return [.invalidPlan, .unsupportedCodec, .unsupportedContainer, .outputIsInput].contains(error.kind) ? usage : failed
        case let error as CaptureError:
            return [.invalidInput, .invalidLimit, .invalidControl].contains(error.kind) ? usage : failed
        case let error as BatchError:
            return [.invalidPlan, .invalidRunFolder, .invalidIndex].contains(error.kind) ? usage : failed
        default:
            return failed
        }
    }

    /// Prints `error` the way ArgumentParser prints its own (`Error: …`) and exits with its
    /// status; ArgumentParser's own errors, `--help` and `ExitCode` keep theirs. A library
    /// error about a setting is worded with the option's name (`--cfr 0: …`).
    static func exit(with error: Error) -> Never {
        if error is CommandError || error is TimeModelError || error is SettingError || error is BatchError || error is CompositionError {
            FileHandle.standardError.write(Data("Error: \(message(error))\n".utf8))
            Foundation.exit(of(error))
        }
        Slomo.exit(withError: error)
    }

    /// The error's text for the command line: settings named by their options.
    static func message(_ error: Error) -> String {
        if let error = error as? BatchError { return error.text(hinting: words) }
        return (error as? SettingError)?.message(naming: optionName, hinting: words) ?? "\(error)"
    }

    /// The hint in the command line's words: the command that does it.
    static func words(_ hint: Hint) -> String {
        switch hint {
        case .stretchSoundAlone: "use `slomo stretch` for audio"
        case .giveFrameRate: "give it with --cfr FPS, e.g. --cfr 30; for passthrough use `slomo retime`"
        case .exportAtScriptedFrameRate: "export it with `slomo export`, or give --cfr FPS"
        case .listDevices: "run `slomo devices` to list them"
        case .listControls: "`slomo devices --controls` lists them"
        case .resumeRun: "to go on with that run, give it to `slomo batch run`"
        case .planRun: "make one there with `slomo batch plan MANIFEST -o` and this folder"
        default: hint.prose
        }
    }

    /// The option that sets `setting`.
    static func optionName(_ setting: Setting) -> String {
        switch setting {
        case .frameRate: "--cfr"
        case .size: "--size"
        case .profile: "--profile"
        case .codec: "--codec"
        case .crf: "--crf"
        case .preset: "--preset"
        case .bitRate: "--bitrate"
        case .keyframeInterval: "--gop"
        case .toneMapping: "--tone-map"
        case .audioCodec: "--audio-codec"
        case .fragmentInterval: "--fragment"
        case .maximumDuration: "--duration"
        case .maximumSize: "--max-size"
        case .minimumFreeSpace: "--min-free"
        case .scale: "--scale"
        case .input: "--input"
        case .overwrite: "--overwrite"
        case .audioAlgorithm: "--audio"
        case .shutter: "--shutter"
        case .shutterSamples: "--shutter-samples"
        case .openTimeout: "--timeout"
        default: setting.name // no command sets it (the writer's time base, a capture's stall timeout)
        }
    }
}

/// A mistake in the command line found while running (a bad option value, options that do not
/// go together): printed as one line, exit status 64.
struct CommandError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The value of `--flag`, parsed by the library: its errors become usage errors.
func optionValue<T>(_ parse: () throws -> T) throws -> T {
    do { return try parse() } catch { throw CommandError("\(error)") }
}
