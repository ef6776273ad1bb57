import Foundation
import Testing

/// `--progress json` output: every line of `text` as a JSON object, each required to be one.
func jsonLines(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map { line in
        try #require(try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON: \(line)")
    }
}
