import Foundation
import SlomoTestSupport
import Testing

/// Runs `slomo arguments…` (an export writing into `folder`), presses Ctrl-C once it reports
/// progress, and checks that it stops with status 1, says it was cancelled and leaves the
/// folder empty: no output, no temporary file.
func expectInterruptLeavesNothing(_ arguments: [String], in folder: URL) throws {
    let slomo = try BackgroundCommand(try Slomo.executable, arguments + ["--progress", "json"])
    slomo.waitForError(containing: "fraction")
    slomo.process.interrupt()
    let (status, message) = slomo.wait()
    #expect(status == 1)
    #expect(message.contains("cancelled"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
}
