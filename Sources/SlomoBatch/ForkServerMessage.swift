import Foundation
import Glibc
import SlomoMedia

/// What a batch and its fork server say to each other over a socket pair, a JSON object a line: the
/// batch asks for a command, the server answers once it has forked it and again when it ended.
enum ForkServerMessage {
    /// Run `slomo arguments…` with what it prints appended to `outputPath`.
    struct Request: Codable {
        let arguments: [String]
        let outputPath: String
    }

    /// The command's process, or why there is none.
    struct Started: Codable {
        let pid: pid_t?
        let failure: String?
    }

    /// How the command's process ended (`wait4`'s status) and what it used.
    struct Ended: Codable {
        let waitStatus: Int32
        let usage: CommandExit.Usage
    }

    /// Sends `message` and a newline on the socket `descriptor`; a peer that is gone is an
    /// EPIPE error, not a SIGPIPE.
    static func write(_ message: some Encodable, to descriptor: Int32) throws(SystemError) {
        var bytes = [UInt8]((try? JSONEncoder().encode(message)) ?? Data())
        bytes.append(UInt8(ascii: "\n"))
        var written = 0
        while written < bytes.count {
            let from = written
            written += try SystemError.check("send") {
                bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + from, $0.count - from, Int32(MSG_NOSIGNAL)) }
            }
        }
    }

    /// The next line of `descriptor` as a `Message`; nil at its end, on a read error, or when the
    /// line is not one. Reads a byte at a time, so that nothing after the line is taken.
    static func read<Message: Decodable>(_ type: Message.Type, from descriptor: Int32) -> Message? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            guard let count = try? SystemError.check("read", { Glibc.read(descriptor, &byte, 1) }), count == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { break }
            line.append(byte)
        }
        return try? JSONDecoder().decode(type, from: Data(line))
    }
}
