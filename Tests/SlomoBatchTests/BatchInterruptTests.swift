import Foundation
import SlomoBatch
import SlomoMedia
import SlomoTestSupport
import Testing

/// A batch stopped part-way (Ctrl-C on the local engine, `slomo batch cancel` of a running
/// Slurm array) leaves every output whole or absent and no stray file, and resuming finishes it.
@Suite struct BatchInterruptTests {
    /// A workspace with `count` copies of the 10 s 720p 240 fps clip (a retime of one takes
    /// long enough to be caught running), planned into `run`.
    static func plannedWorkspace(_ label: String, count: Int) throws -> BatchWorkspace {
        let workspace = try BatchWorkspace(label)
        for number in 1...count {
            guard link(try Fixture.hfr240.path, workspace.path("clips/long-\(number).mov")) == 0 else {
                throw CommandFailure(description: "cannot link the hfr240 fixture")
            }
        }
        let planned = try workspace.slomo(["batch", "plan", "clips/long-*.mov", "--section", "2-4x0.25", "-o", "out/{stem}-slow.mov",
                                           "--run", "run"])
        try #require(planned.status == 0, "\(planned.standardError)")
        return workspace
    }

    /// Every file in `out/` is a done job's output with its recorded SHA-256, nothing is
    /// hidden or partial there, and every result belongs to a done job; returns how many are done.
    static func checkNothingHalfWritten(_ workspace: BatchWorkspace) throws -> Int {
        let folder = RunFolder(workspace.run)
        let plan = try folder.plan()
        let outputs = (try? FileManager.default.contentsOfDirectory(atPath: workspace.path("out"))) ?? []
        let done = plan.jobs.filter { folder.result(of: $0)?.status == .done }
        #expect(Set(outputs) == Set(done.map { URL(fileURLWithPath: $0.output).lastPathComponent }), "out/ holds \(outputs)")
        for job in done {
            #expect(try FileDigest.sha256(of: job.output) == folder.result(of: job)?.output?.sha256)
        }
        let results = try FileManager.default.contentsOfDirectory(atPath: folder.resultsFolder)
        #expect(results.count == done.count, "results: \(results)")
        return done.count
    }

    @Test func ctrlCStopsTheLocalEngineCleanlyAndRunningAgainFinishes() throws {
        let workspace = try Self.plannedWorkspace("batch-sigint", count: 4)
        let run = try BackgroundCommand("/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", workspace.folder.path, try Slomo.executable,
                                                    "batch", "run", "run", "--jobs", "2", "--progress", "json"])
        #expect(run.waitForError(containing: "\"running\":2"), "\(run.standardError)")
        Thread.sleep(forTimeInterval: 0.5)
        run.process.interrupt()
        let (status, errors) = run.wait()
        #expect(status == 130, "\(errors)")
        let done = try Self.checkNothingHalfWritten(workspace)
        print("batch-sigint: \(done) of 4 jobs done before Ctrl-C")
        #expect(done < 4)
        let resumed = try workspace.slomo(["batch", "run", "run"])
        #expect(resumed.status == 0, "\(resumed.standardError)")
        #expect(try Self.checkNothingHalfWritten(workspace) == 4)
    }
}

extension SlurmEngineTests {
    @Test func cancellingARunningArrayLeavesNothingHalfWritten() throws {
        let cluster = try SlurmCluster()
        let workspace = try BatchInterruptTests.plannedWorkspace("batch-scancel", count: 3)
        let submitted = try workspace.slomo(["batch", "run", "run", "--engine", "slurm", "--max-parallel", "1"], environment: cluster.environment)
        try #require(submitted.status == 0, "\(submitted.standardError)")
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, !(try cluster.run("squeue", ["-h", "-t", "RUNNING"]).standardOutput.contains("slomo")) {
            Thread.sleep(forTimeInterval: 0.1)
        }
        Thread.sleep(forTimeInterval: 0.5)
        let cancelled = try workspace.slomo(["batch", "cancel", "run"], environment: cluster.environment)
        #expect(cancelled.status == 0 && cancelled.standardOutput.contains("cancelled"), "\(cancelled.standardError)")
        #expect(try cluster.waitUntilIdle())
        let done = try BatchInterruptTests.checkNothingHalfWritten(workspace)
        print("batch-scancel: \(done) of 3 jobs done before scancel")
        #expect(done < 3)
        let logs = try FileManager.default.contentsOfDirectory(atPath: RunFolder(workspace.run).logsFolder)
        let stopped = try logs.filter { try String(contentsOfFile: RunFolder(workspace.run).logsFolder + "/" + $0, encoding: .utf8)
            .contains("stopped by signal 15") }
        #expect(stopped.count == 1, "the running task was stopped by SIGTERM and said so: \(logs)")
        let resumed = try workspace.slomo(["batch", "run", "run", "--engine", "slurm", "--wait"], environment: cluster.environment)
        #expect(resumed.status == 0, "\(resumed.standardError)")
        #expect(try BatchInterruptTests.checkNothingHalfWritten(workspace) == 3)
    }
}
