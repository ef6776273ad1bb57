import Foundation

/// A setting of an export or a recording that a library error is about, so that each front
/// end names it its own way: the library says `frame rate 0: …`, the command line `--cfr 0: …`.
public enum Setting: String, CaseIterable, Hashable, Sendable {
    case frameRate, size, profile, codec, crf, preset, bitRate, keyframeInterval, toneMapping
    case audioCodec, fragmentInterval, maximumDuration, maximumSize, minimumFreeSpace, scale, input
    /// Seconds a capture source may take to open, and may go without a sample.
    case openTimeout, stallTimeout
    /// Replacing an existing output file.
    case overwrite
    /// The time-pitch algorithm sound is rendered with.
    case audioAlgorithm
    /// Shutter emulation's angle and its interpolated samples (`Shutter`).
    case shutter, shutterSamples
    /// Settings only the library has (`MovieWriterSettings`).
    case timeBase, audioFormat

    /// The setting's name in prose: `frame rate`, `keyframe interval`.
    public var name: String {
        switch self {
        case .frameRate: "frame rate"
        case .bitRate: "bit rate"
        case .keyframeInterval: "keyframe interval"
        case .toneMapping: "tone mapping"
        case .audioCodec: "audio codec"
        case .fragmentInterval: "fragment interval"
        case .maximumDuration: "maximum duration"
        case .maximumSize: "maximum size"
        case .minimumFreeSpace: "minimum free space"
        case .audioAlgorithm: "audio algorithm"
        case .shutter: "shutter angle"
        case .shutterSamples: "shutter samples"
        case .openTimeout: "open timeout"
        case .stallTimeout: "stall timeout"
        case .timeBase: "time base"
        case .audioFormat: "audio format"
        default: rawValue
        }
    }
}

/// What is wrong with a setting's value, as data: the setting, the value as given, and the
/// rest of the sentence, in which `{codec}`-style names refer to other settings. `text(naming:)`
/// words it with the caller's names for settings.
public struct SettingIssue: Hashable, Sendable, CustomStringConvertible {
    /// The setting at fault.
    public var setting: Setting
    /// Its value as given, when the sentence names it.
    public var value: String?
    /// The rest of the sentence; `{setting}` placeholders (raw values) name other settings.
    public var problem: String
    /// What the sentence is about when it is not the setting itself (a file path).
    public var subject: String?
    /// The values a numeric setting accepts, in the unit the sentence uses, when the issue is
    /// that the value is outside them (`positive` for "must be positive").
    public var allowed: ClosedRange<Double>?

    /// Every number above zero.
    public static let positive: ClosedRange<Double> = Double.leastNonzeroMagnitude...Double.infinity

    /// An issue of `setting` with `value`; `problem` may name other settings as `{codec}`, and
    /// `allowed` is what the value should have been, when a range says it.
    public init(_ setting: Setting, _ value: String? = nil, _ problem: String, allowed: ClosedRange<Double>? = nil,
                subject: String? = nil) {
        self.setting = setting
        self.value = value
        self.problem = problem
        self.allowed = allowed
        self.subject = subject
    }

    /// The sentence with settings named by `name`: `"\(name(setting)) \(value): \(problem)"`.
    public func text(naming name: (Setting) -> String) -> String {
        "\(head(naming: name)): \(problem(naming: name))"
    }

    /// What the sentence is about: `subject`, else the setting and its value (`frame rate 0`).
    public func head(naming name: (Setting) -> String) -> String {
        subject ?? ([name(setting)] + (value.map { [$0] } ?? [])).joined(separator: " ")
    }

    /// The rest of the sentence alone, with settings named by `name`.
    public func problem(naming name: (Setting) -> String) -> String {
        var body = problem
        for other in Setting.allCases { body = body.replacingOccurrences(of: "{\(other.rawValue)}", with: name(other)) }
        return body
    }

    /// The sentence in prose (`frame rate 0: the frame rate must be positive`).
    public var description: String { text(naming: \.name) }
}
