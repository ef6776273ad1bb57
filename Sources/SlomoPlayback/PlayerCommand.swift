import CSDL2

/// What a key asks the player to do; the keys follow mpv's.
public enum PlayerCommand: Sendable, Equatable {
    /// Space: pause or play.
    case togglePause
    /// `[` `]` multiply the rate by 1/1.1 or 1.1, `{` `}` by 1/2 or 2.
    case multiplyRate(Double)
    /// Backspace: back to rate 1.
    case resetRate
    /// `,` `.`: one frame back or forward (pauses).
    case step(Int)
    /// ← →: seek by seconds of output time.
    case seek(by: Double)
    /// `r`: play backwards, or forwards again (mpv's `play-dir`, on a key).
    case toggleDirection
    /// `-` `=` (or `+`): the pitch a semitone down or up, the speed kept.
    case shiftPitch(Double)
    /// `0`: the pitch back to the source's.
    case resetPitch
    /// `a`: the next audio algorithm.
    case nextAlgorithm
    /// `f`: fullscreen on or off.
    case toggleFullscreen
    /// `q`, Esc, closing the window.
    case quit

    /// The keys and what they do, for help texts.
    public static let keyHelp: [(key: String, action: String)] = [
        ("space", "pause / play"), ("[ ]", "rate −/+ 10 %"), ("{ }", "halve / double the rate"),
        ("backspace", "rate back to 1"), (", .", "one frame back / forward (paused)"), ("← →", "seek 5 s"),
        ("r", "play backwards / forwards"), ("- =", "pitch −/+ a semitone"), ("0", "pitch back to the source's"),
        ("a", "next audio algorithm"), ("f", "fullscreen"), ("q, Esc", "quit"),
    ]

    /// The command of an SDL key or text event, if any.
    static func of(_ event: SDL_Event) -> PlayerCommand? {
        switch SDL_EventType(event.type) {
        case SDL_QUIT:
            return .quit
        case SDL_KEYDOWN:
            switch Int(event.key.keysym.sym) {
            case Int(SDLK_SPACE.rawValue): return .togglePause
            case Int(SDLK_BACKSPACE.rawValue): return .resetRate
            case Int(SDLK_LEFT.rawValue): return .seek(by: -5)
            case Int(SDLK_RIGHT.rawValue): return .seek(by: 5)
            case Int(SDLK_ESCAPE.rawValue): return .quit
            default: return nil
            }
        case SDL_TEXTINPUT:
            let text = withUnsafeBytes(of: event.text.text) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return of(text: text)
        default:
            return nil
        }
    }

    /// The command of a typed character (the layout decides which key gives `{`).
    static func of(text: String) -> PlayerCommand? {
        switch text {
        case "[": return .multiplyRate(1 / 1.1)
        case "]": return .multiplyRate(1.1)
        case "{": return .multiplyRate(0.5)
        case "}": return .multiplyRate(2)
        case ",": return .step(-1)
        case ".": return .step(1)
        case "r", "R": return .toggleDirection
        case "-": return .shiftPitch(-1)
        case "=", "+": return .shiftPitch(1)
        case "0": return .resetPitch
        case "a", "A": return .nextAlgorithm
        case "f", "F": return .toggleFullscreen
        case "q", "Q": return .quit
        default: return nil
        }
    }
}
