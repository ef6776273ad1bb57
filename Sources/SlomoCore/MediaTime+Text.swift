/// Printing and parsing of media times: decimal seconds (`2.5`), timecode (`00:01:02.250`)
/// and frame numbers at a frame rate (`f480` at 240 fps = 2 s).
extension MediaTime {
    /// Seconds as a decimal: exact when the time has a finite decimal expansion of at most nine
    /// fraction digits (`2.5`, `2`, `0.001`), otherwise rounded to nine digits (`0.333333333`).
    public var description: String {
        MediaTime.decimal(seconds, fractionDigits: 9, trimZeros: true)
    }

    /// Seconds, always exact: a decimal (`2.5`) when there is a finite one, otherwise a
    /// fraction (`1/3`). `init(parsing:)` reads both back to the same time.
    public var exactDescription: String {
        Rational.exactDecimal(seconds) ?? seconds.description
    }

    /// Seconds with exactly `fractionDigits` decimals, rounded to nearest: `"16.000"`.
    public func formattedSeconds(fractionDigits: Int = 3) -> String {
        MediaTime.decimal(seconds, fractionDigits: fractionDigits, trimZeros: false)
    }

    /// `hh:mm:ss.fff` (hours at least two digits), rounded to nearest at `fractionDigits`
    /// decimals; negative times get a leading `-`. `62.25 s` → `"00:01:02.250"`.
    public func timecode(fractionDigits: Int = 3) -> String {
        let scale = Int128(tenToThe(fractionDigits))
        let units = Wide.divide(Int128(value.magnitude) * scale, Int128(timescale), rounding: .nearest)
        let fraction = units % scale
        let whole = units / scale
        let (hours, minutes, secs) = (whole / 3600, whole / 60 % 60, whole % 60)
        var text = value < 0 ? "-" : ""
        text += pad(hours, 2) + ":" + pad(minutes, 2) + ":" + pad(secs, 2)
        if fractionDigits > 0 { text += "." + pad(fraction, fractionDigits) }
        return text
    }

    /// Parses decimal seconds (`2.5`, `-1`), a fraction of seconds (`1/3`), seconds with a unit
    /// (`1.5s`, `1500ms`, `2m`, `1h`), a timecode (`00:01:02.250`, `1:02.25`) or a frame number
    /// (`f480`, which needs `frameRate`: the time is `480 / frameRate`).
    /// Throws `TimeModelError.Kind.unparseable` (or `.invalidValue` for a frame number without a
    /// frame rate) with the text as subject.
    public init(parsing text: String, frameRate: Rational? = nil) throws {
        let trimmed = text.trimmingSpaces
        if trimmed.first == "f" {
            guard let frameRate, frameRate.numerator > 0 else {
                throw TimeModelError(.invalidValue,
                                     "a frame number needs the source frame rate, which is unknown",
                                     subject: "'\(text)'")
            }
            guard let frame = Int64(trimmed.dropFirst()), frame >= 0 else {
                throw TimeModelError(.unparseable, "expected a frame number such as f480",
                                     subject: "'\(text)'")
            }
            self = try MediaTime(value: frame, timescale: 1).divided(by: frameRate)
            return
        }
        if trimmed.contains(":") {
            self = try MediaTime.parseTimecode(trimmed, original: text)
            return
        }
        let (number, unit) = MediaTime.unit(of: trimmed)
        guard number.last?.isNumber == true, let value = Rational(decimal: number),
              let seconds = value.multipliedReportingOverflow(by: unit) else {
            throw TimeModelError(.unparseable, "expected seconds (2.5, 1.5s, 1500ms, 2m), a timecode (00:00:02.500) "
                                 + "or a frame (f480)", subject: "'\(text)'")
        }
        self.init(seconds: seconds)
    }

    /// The number and the seconds per unit of `1500ms`, `1.5s`, `2m`, `1h` (plain seconds
    /// without a unit).
    private static func unit(of text: String) -> (String, Rational) {
        for (suffix, seconds) in [("ms", Rational(1, 1000)), ("s", Rational(1)), ("m", Rational(60)), ("h", Rational(3600))]
        where text.hasSuffix(suffix) {
            return (String(text.dropLast(suffix.count)), seconds)
        }
        return (text, Rational(1))
    }

    private static func parseTimecode(_ text: String, original: String) throws -> MediaTime {
        let fail = TimeModelError(.unparseable, "expected a timecode such as 00:01:02.250",
                                  subject: "'\(original)'")
        var negative = false
        var body = Substring(text)
        if body.first == "-" { negative = true; body = body.dropFirst() }
        let fields = body.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2 || fields.count == 3 else { throw fail }
        var total = Rational(0)
        for (index, field) in fields.enumerated() {
            let isLast = index == fields.count - 1
            guard !field.isEmpty, field.first != "-", field.first != "+",
                  let number = isLast ? Rational(decimal: String(field)) : Int64(field).map({ Rational($0) })
            else { throw fail }
            // Minutes and seconds fields are below 60; the leading field is unbounded.
            if index > 0 && number >= Rational(60) { throw fail }
            guard let scaled = total.multipliedReportingOverflow(by: Rational(60)),
                  let sum = scaled.addingReportingOverflow(number) else {
                throw TimeModelError(.overflow, "timecode is too large", subject: "'\(original)'")
            }
            total = sum
        }
        let time = MediaTime(seconds: total)
        return negative ? -time : time
    }

    static func decimal(_ seconds: Rational, fractionDigits: Int, trimZeros: Bool) -> String {
        let scale = Int128(tenToThe(fractionDigits))
        let units = Wide.divide(Int128(seconds.numerator.magnitude) * scale,
                                Int128(seconds.denominator), rounding: .nearest)
        var text = seconds.numerator < 0 && units != 0 ? "-" : ""
        text += String(units / scale)
        guard fractionDigits > 0 else { return text }
        var fraction = pad(units % scale, fractionDigits)
        if trimZeros {
            while fraction.last == "0" { fraction.removeLast() }
            if fraction.isEmpty { return text }
        }
        return text + "." + fraction
    }
}

private func tenToThe(_ exponent: Int) -> Int64 {
    precondition((0...18).contains(exponent), "at most 18 fraction digits")
    var result: Int64 = 1
    for _ in 0..<exponent { result *= 10 }
    return result
}

private func pad(_ number: Int128, _ width: Int) -> String {
    let digits = String(number)
    return String(repeating: "0", count: Swift.max(0, width - digits.count)) + digits
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }),
              let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
