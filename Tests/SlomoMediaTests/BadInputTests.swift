import SlomoMedia
import SlomoTestSupport
import Testing

/// Every bad input fails with a one-line `MediaError` that names the file.
@Suite struct BadInputTests {
    @Test(arguments: BadInput.allCases)
    func badInputIsAClearError(_ input: BadInput) throws {
        let folder = try FixtureCache.shared.scratchFolder("bad-\(input.rawValue)")
        let path = try input.make(in: folder)
        let expected: MediaError.Kind = switch input {
        case .missing: .notFound
        case .directory: .notAFile
        case .empty: .empty
        case .truncated, .randomBytes: .unreadable
        case .noStreams: .noStreams
        }
        let error = try #require(throws: MediaError.self) { try MediaFile(path: path) }
        #expect(error.kind == expected)
        #expect(error.description.hasPrefix(path + ": "))
        #expect(!error.description.contains("\n"))
    }

    @Test func damagedContainerQuotesFFmpeg() throws {
        let folder = try FixtureCache.shared.scratchFolder("bad-quote")
        let path = try BadInput.truncated.make(in: folder)
        let error = try #require(throws: MediaError.self) { try MediaFile(path: path) }
        #expect(error.detail.contains("moov atom not found"))
    }
}
