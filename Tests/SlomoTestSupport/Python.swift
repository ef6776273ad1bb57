import Foundation

/// Python programs as independent judges (the `opentimelineio` library and its adapters,
/// installed by `scripts/setup`).
public enum Python {
    /// Runs `program` with `python3 -c`, passing `arguments` as `sys.argv[1...]`; throws when
    /// it exits non-zero, with its stderr.
    public static func run(_ program: String, _ arguments: [String] = []) throws -> String {
        let result = try runCommand("python3", ["-c", program] + arguments)
        guard result.status == 0 else {
            throw CommandFailure(description: "python3 exited \(result.status): \(result.standardError)")
        }
        return result.standardOutput
    }

    /// `run` whose standard output is one JSON document.
    public static func json(_ program: String, _ arguments: [String] = []) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(try run(program, arguments).utf8))
    }
}
