/// The window title and the on-screen line: output time, source time, rate, effective frame
/// rate, algorithm and pitch.
enum PlayerTitle {
    /// `prefix — ` and the status.
    static func text(_ prefix: String, _ status: PlayerStatus, duration: Double) -> String {
        "\(prefix) — " + line(status, duration: duration)
    }

    /// `0:03.250 / 0:12.000 · source 2.812 s · rate 0.5x · 120 fps · spectral`.
    static func line(_ status: PlayerStatus, duration: Double) -> String {
        var parts = ["\(clock(status.time)) / \(clock(duration))", "source \(String(format: "%.3f", status.sourceTime)) s",
                     "rate \(number(status.rate))x"]
        if let fps = status.effectiveFrameRate { parts.append("\(number(fps)) fps") }
        parts.append(status.algorithm)
        if status.pitch != 0 { parts.append("pitch \(semitones(status.pitch))") }
        if status.paused { parts.append("paused") }
        return parts.joined(separator: " · ")
    }

    /// `+3 semitones`, `-0.5 semitones`.
    static func semitones(_ value: Double) -> String {
        (value > 0 ? "+" : "") + number(value) + " semitone" + (abs(value) == 1 ? "" : "s")
    }

    /// `1:02.500`.
    static func clock(_ seconds: Double) -> String {
        let total = max(seconds, 0)
        let minutes = Int(total / 60)
        return String(format: "%d:%06.3f", minutes, total - Double(minutes) * 60)
    }

    /// `0.5`, `2`, `59.94`.
    static func number(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
