import Foundation

/// Inputs that no command may crash or hang on, made fresh in a scratch folder.
public enum BadInput: String, CaseIterable, Sendable {
    case missing, directory, empty, truncated, randomBytes, noStreams

    /// Creates the bad input inside `folder` and returns its path.
    public func make(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent(fileName).path
        switch self {
        case .missing:
            break
        case .directory:
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        case .empty:
            _ = FileManager.default.createFile(atPath: path, contents: Data())
        case .truncated:
            let whole = try Data(contentsOf: URL(fileURLWithPath: try Fixture.ntsc.path))
            _ = FileManager.default.createFile(atPath: path, contents: whole.prefix(whole.count / 2))
        case .randomBytes:
            // Seeded: unseeded bytes now and then probe as raw H.263 (a CI run opened one).
            var random = Seeded(state: 16)
            _ = FileManager.default.createFile(atPath: path, contents: Data((0..<65536).map { _ in UInt8(random.next(256)) }))
        case .noStreams:
            // An FFmpeg metadata file: FFmpeg opens it and finds no streams in it.
            _ = FileManager.default.createFile(atPath: path, contents: Data(";FFMETADATA1\ntitle=nothing here\n".utf8))
        }
        return path
    }

    private var fileName: String {
        switch self {
        case .missing: "does-not-exist.mov"
        case .directory: "a-folder.mov"
        case .empty: "empty.mov"
        case .truncated: "cut-in-half.mp4"
        case .randomBytes: "random.mov"
        case .noStreams: "no-streams.mov"
        }
    }
}
