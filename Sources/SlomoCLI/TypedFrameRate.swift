import ArgumentParser
import SlomoCore

extension OutputFrameRate {
    /// The rate typed for `option` (`--cfr`) resolved for `composition`: usage errors naming the option.
    static func typed(_ text: String, option: String, for composition: Composition) throws -> Rational {
        do {
            return try OutputFrameRate(parsing: text).resolved(for: composition)
        } catch let error as TimeModelError {
            throw CommandError(error.about(option).description)
        }
    }

    /// Checks the text typed for `option` in a command's `validate()`: a validation error
    /// naming the option.
    static func validate(_ text: String, option: String) throws {
        do {
            _ = try OutputFrameRate(parsing: text)
        } catch let error as TimeModelError {
            throw ValidationError(error.about(option).description)
        }
    }
}
