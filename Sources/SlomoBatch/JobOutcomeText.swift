/// Reads what a slomo command printed: its `Error:` line and its `warning:` lines, the parts a
/// job's result keeps (the rest stays in the job's log).
enum JobOutcomeText {
    /// The last `Error: …` line's message (ArgumentParser's own usage errors included), nil
    /// when there is none.
    static func error(in text: String) -> String? {
        text.split(separator: "\n").last { $0.hasPrefix("Error: ") }.map { String($0.dropFirst("Error: ".count)) }
    }

    /// Every `warning: …` line's message, in order.
    static func warnings(in text: String) -> [String] {
        text.split(separator: "\n").filter { $0.hasPrefix("warning: ") }.map { String($0.dropFirst("warning: ".count)) }
    }
}
