import SlomoCore

/// A camera setting asked for before a recording: a control by its name, or one of the
/// common settings in the camera's own terms (`--exposure 1/500`, `--focus locked`), which
/// `CameraSetup` maps to whatever controls the camera has for it.
public enum CameraControlRequest: Hashable, Sendable, CustomStringConvertible {
    /// Focus: locked where it is, continuous autofocus, or a fixed position in the camera's units.
    public enum Focus: Hashable, Sendable { case locked, auto, distance(Int64) }
    /// White balance: locked where it is, automatic, or a colour temperature in kelvin.
    public enum WhiteBalance: Hashable, Sendable { case locked, auto, kelvin(Int64) }
    /// Anti-flicker for the mains frequency of the lights, or none.
    public enum Flicker: Hashable, Sendable { case off, hz50, hz60 }

    /// `NAME=VALUE`: a control by the name the camera's control listing gives; the value is a
    /// number, `on`/`off` for a switch, or a menu entry's name.
    case control(name: String, value: String)
    /// A fixed exposure time in seconds (automatic exposure off).
    case exposure(Rational)
    case focus(Focus)
    case whiteBalance(WhiteBalance)
    case flicker(Flicker)
    case torch(Bool)

    /// The option that asks for it, for messages.
    public var option: String {
        switch self {
        case .control: "--control"
        case .exposure: "--exposure"
        case .focus: "--focus"
        case .whiteBalance: "--white-balance"
        case .flicker: "--flicker"
        case .torch: "--torch"
        }
    }

    /// The request as it is typed: `--exposure 1/500`.
    public var description: String {
        switch self {
        case .control(let name, let value): "--control \(name)=\(value)"
        case .exposure(let seconds): "--exposure \(seconds.numerator == 1 && seconds.denominator > 1 ? "1/\(seconds.denominator)" : MediaTime(seconds: seconds).exactDescription)"
        case .focus(.locked): "--focus locked"
        case .focus(.auto): "--focus auto"
        case .focus(.distance(let value)): "--focus \(value)"
        case .whiteBalance(.locked): "--white-balance locked"
        case .whiteBalance(.auto): "--white-balance auto"
        case .whiteBalance(.kelvin(let kelvin)): "--white-balance \(kelvin)"
        case .flicker(.off): "--flicker off"
        case .flicker(.hz50): "--flicker 50"
        case .flicker(.hz60): "--flicker 60"
        case .torch(let on): "--torch \(on ? "on" : "off")"
        }
    }

    /// `--control NAME=VALUE`.
    public static func parsingControl(_ text: String) throws(CaptureError) -> CameraControlRequest {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw invalid("--control", text, "expected NAME=VALUE, e.g. --control exposure_time_absolute=20", hint: .listControls)
        }
        return .control(name: String(parts[0]), value: String(parts[1]))
    }

    /// `--exposure 1/500`, `0.002`, `2ms`, `500us`: a time longer than zero.
    public static func parsingExposure(_ text: String) throws(CaptureError) -> CameraControlRequest {
        var trimmed = text.trimmingCharacters(in: .whitespaces)
        var scale = Rational(1)
        if trimmed.hasSuffix("us") || trimmed.hasSuffix("µs") {
            trimmed = String(trimmed.dropLast(2))
            scale = Rational(1, 1_000_000)
        }
        guard let time = try? MediaTime(parsing: trimmed), time.seconds > Rational(0) else {
            throw invalid("--exposure", text, "expected an exposure time such as 1/500, 0.002, 2ms or 500us")
        }
        return .exposure(time.seconds * scale)
    }

    /// `--focus locked|auto|DISTANCE`.
    public static func parsingFocus(_ text: String) throws(CaptureError) -> CameraControlRequest {
        switch text.lowercased() {
        case "locked", "lock", "manual": return .focus(.locked)
        case "auto", "continuous": return .focus(.auto)
        default:
            guard let value = Int64(text) else {
                throw invalid("--focus", text, "expected locked, auto or a focus position in the camera's units", hint: .listControls)
            }
            return .focus(.distance(value))
        }
    }

    /// `--white-balance locked|auto|KELVIN` (`5600`, `5600K`).
    public static func parsingWhiteBalance(_ text: String) throws(CaptureError) -> CameraControlRequest {
        switch text.lowercased() {
        case "locked", "lock", "manual": return .whiteBalance(.locked)
        case "auto": return .whiteBalance(.auto)
        default:
            let digits = text.uppercased().hasSuffix("K") ? String(text.dropLast()) : text
            guard let kelvin = Int64(digits), kelvin > 0 else {
                throw invalid("--white-balance", text, "expected locked, auto or a colour temperature in kelvin such as 5600")
            }
            return .whiteBalance(.kelvin(kelvin))
        }
    }

    /// `--flicker 50|60|off`.
    public static func parsingFlicker(_ text: String) throws(CaptureError) -> CameraControlRequest {
        switch text.lowercased() {
        case "50", "50hz": return .flicker(.hz50)
        case "60", "60hz": return .flicker(.hz60)
        case "off", "0", "none": return .flicker(.off)
        default: throw invalid("--flicker", text, "expected 50, 60 or off (the mains frequency of the lights)")
        }
    }

    /// `--torch on|off`.
    public static func parsingTorch(_ text: String) throws(CaptureError) -> CameraControlRequest {
        switch text.lowercased() {
        case "on", "1", "true": return .torch(true)
        case "off", "0", "false": return .torch(false)
        default: throw invalid("--torch", text, "expected on or off")
        }
    }

    private static func invalid(_ option: String, _ value: String, _ problem: String, hint: Hint? = nil) -> CaptureError {
        CaptureError(.invalidControl, "\(option) \(value): \(problem)", hint: hint)
    }
}
