import Testing
import SlomoMedia

/// `FFmpegError` works like swift-system's `Errno`: named constants match in `catch` clauses
/// whatever the operation and path.
@Suite struct FFmpegErrorTests {
    static func write() throws { throw FFmpegError(code: FFmpegError.noSpace.code, operation: "write packet", path: "/full/out.mov") }

    @Test func catchClausesMatchNamedCodes() {
        var caught = ""
        do {
            try Self.write()
        } catch FFmpegError.tryAgain {
            caught = "tryAgain"
        } catch FFmpegError.noSpace {
            caught = "noSpace"
        } catch {
            caught = "other: \(error)"
        }
        #expect(caught == "noSpace")
        #expect(!(FFmpegError.noSpace ~= CancellationErrorLike()))
    }

    struct CancellationErrorLike: Error {}
}
