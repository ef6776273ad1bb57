import Foundation

/// Text inside XML attributes and elements, as the FCPXML and MLT writers put it.
enum XMLText {
    /// `text` with `&`, `<`, `>` and `"` escaped.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
