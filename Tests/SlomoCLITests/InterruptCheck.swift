import Foundation
import SlomoTestSupport
import Testing

/// Runs `slomo arguments…` (an export writing into `folder`), sends `signal` (Ctrl-C's SIGINT
/// by default) once it reports progress, and checks that it stops with 128 + the signal (130,
/// or 143 for SIGTERM), says it was cancelled and leaves the folder empty: no output, no
/// temporary file.
func expectInterruptLeavesNothing(_ arguments: [String], in folder: URL, signal: Int32 = SIGINT) throws {
    let slomo = try BackgroundCommand(try Slomo.executable, arguments + ["--progress", "json"])
    slomo.waitForError(containing: "fraction")
    kill(slomo.process.processIdentifier, signal)
    let (status, message) = slomo.wait()
    #expect(status == 128 + signal)
    #expect(message.contains("cancelled"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
}
