import Foundation
import SlomoBatch
import SlomoTestSupport
import Testing

/// The issue's batch on one engine: 8 clips, two failing on purpose; outputs identical to the
/// commands run by hand; failures recorded with their messages; a second run that changes
/// nothing; a deleted output and a deleted result that make exactly those two jobs run again.
enum BatchScenario {
    static func run(engine arguments: [String], environment: [String: String] = [:], label: String,
                    beforeRunning: (BatchWorkspace) throws -> Void = { _ in }) throws {
        let workspace = try BatchWorkspace(label)
        let planned = try workspace.slomo(["batch", "plan", "batch.yaml", "-o", "run"])
        try #require(planned.status == 0, "\(planned.standardError)")
        let plan = try workspace.plan()
        #expect(plan.jobs.count == 8)
        try workspace.breakInputs()
        try beforeRunning(workspace)

        let started = Date()
        let first = try workspace.slomo(["batch", "run", "run"] + arguments, environment: environment)
        print("\(label): 8 jobs in \(String(format: "%.2f", Date().timeIntervalSince(started))) s")
        #expect(first.status == 1, "a failed job makes the run exit 1: \(first.standardError)")
        let folder = RunFolder(workspace.run)
        let results = plan.jobs.map { folder.result(of: $0) }
        for (job, result) in zip(plan.jobs, results) {
            print("\(label): job \(job.index) \(URL(fileURLWithPath: job.input).lastPathComponent): \(result?.status.rawValue ?? "none")"
                  + " in \(result?.wallSeconds ?? 0) s, \(result?.cpuSeconds ?? 0) s CPU, peak \((result?.peakMemoryBytes ?? 0) >> 20) MiB"
                  + (result?.message.map { ": \($0)" } ?? ""))
        }
        for result in results.prefix(6) {
            #expect(result?.status == .done && result?.exitStatus == 0 && result?.output?.sha256.count == 64)
            #expect(result?.engine == (arguments.contains("slurm") ? "slurm" : "local"))
        }
        if arguments.contains("slurm") { #expect(results[0]?.engineJobIds["SLURM_ARRAY_JOB_ID"] != nil) }
        #expect(results[6]?.status == .failed && results[6]?.message?.contains("gone.mov") == true, "\(String(describing: results[6]))")
        #expect(results[7]?.status == .failed && results[7]?.exitStatus == 1 && results[7]?.message?.contains("cut.mov") == true,
                "\(String(describing: results[7]))")
        #expect(results[7]?.warnings.contains { $0.contains("changed since the batch was planned") } == true)

        let status = try workspace.slomo(["batch", "status", "run", "--json"], environment: environment)
        #expect(status.status == 1)
        let counts = (try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [String: Any])?["counts"] as? [String: Int]
        #expect(counts?["done"] == 6 && counts?["failed"] == 2, "\(status.standardOutput)")

        let byHand = try workspace.handMadeOutputs()
        for number in 1...6 {
            let made = try BatchWorkspace.fingerprint(workspace.path("out/good-\(number)-slow.mov"))
            let reference = try BatchWorkspace.fingerprint(byHand["good-\(number)"]!)
            #expect(made.video == reference.video && made.audio == reference.audio, "good-\(number): not what the command makes by hand")
            #expect(!made.video.isEmpty && !made.audio.isEmpty)
        }

        // Again: nothing runs, no file changes (Slurm's scripts folder aside: nothing new is submitted either).
        let before = try workspace.snapshot()
        let again = try workspace.slomo(["batch", "run", "run"] + arguments, environment: environment)
        #expect(again.status == 1)
        #expect(try workspace.snapshot() == before, "a second run changed files")

        // One output and one result deleted: exactly those two jobs run again.
        let (lostOutput, lostResult) = (plan.jobs[0], plan.jobs[1])
        try FileManager.default.removeItem(atPath: lostOutput.output)
        try FileManager.default.removeItem(atPath: folder.resultPath(of: lostResult))
        let resumed = try workspace.slomo(["batch", "run", "run"] + arguments, environment: environment)
        #expect(resumed.status == 1)
        let after = try workspace.snapshot()
        let touched = Set([lostOutput.output, lostResult.output, folder.resultPath(of: lostOutput), folder.resultPath(of: lostResult),
                           folder.logPath(of: lostOutput), folder.logPath(of: lostResult)].map { workspace.relative($0) })
        let changed = Set(after.keys.filter { after[$0] != before[$0] && !$0.hasPrefix("run/slurm/") })
        #expect(changed == touched, "changed: \(changed.sorted()), expected: \(touched.sorted())")
        #expect(folder.result(of: lostOutput)?.attempt == 2 && folder.result(of: lostResult)?.attempt == 1)
        for number in 1...2 {
            let made = try BatchWorkspace.fingerprint(workspace.path("out/good-\(number)-slow.mov"))
            let reference = try BatchWorkspace.fingerprint(byHand["good-\(number)"]!)
            #expect(made.video == reference.video && made.audio == reference.audio)
        }
    }
}

extension BatchWorkspace {
    /// `path` relative to the workspace, as `snapshot()` names files.
    func relative(_ path: String) -> String {
        let base = URL(fileURLWithPath: folder.path).standardizedFileURL.path + "/"
        let full = URL(fileURLWithPath: path).standardizedFileURL.path
        return full.hasPrefix(base) ? String(full.dropFirst(base.count)) : full
    }
}

@Suite struct LocalEngineTests {
    @Test func eightClipsTwoFailingResumeExactly() throws {
        try BatchScenario.run(engine: ["--jobs", "2"], label: "batch-local")
    }
}

/// Every Slurm test starts its own throwaway cluster; they run one at a time so that two
/// clusters never share the 2 cores.
@Suite(.serialized) struct SlurmEngineTests {
    /// On a cluster whose `MaxArraySize` is 5, so that the 8 jobs need two arrays.
    @Test func eightClipsTwoFailingResumeExactly() throws {
        let cluster = try SlurmCluster(maxArraySize: 5)
        try BatchScenario.run(engine: ["--engine", "slurm", "--wait", "--progress", "none"], environment: cluster.environment,
                              label: "batch-slurm") { workspace in
            // --emit-only writes the scripts a site would submit by hand, and submits nothing.
            let emitted = try workspace.slomo(["batch", "run", "run", "--engine", "slurm", "--emit-only", "--max-parallel", "3",
                                               "--sbatch-arg=--time=00:10:00"], environment: cluster.environment)
            #expect(emitted.status == 0 && emitted.standardOutput.contains("submit it with: sbatch"), "\(emitted.standardError)")
            let slurm = RunFolder(workspace.run).slurmFolder
            let first = try String(contentsOfFile: slurm + "/array-1.sh", encoding: .utf8)
            let second = try String(contentsOfFile: slurm + "/array-2.sh", encoding: .utf8)
            #expect(first.contains("#SBATCH --array=0-4%3") && first.contains("#SBATCH --time=00:10:00"), "\(first)")
            #expect(second.contains("#SBATCH --array=0-2%3") && second.contains("$((SLURM_ARRAY_TASK_ID + 5))"), "\(second)")
            #expect(SlurmEngine.submissions(in: RunFolder(workspace.run)).isEmpty)
            #expect(try cluster.run("squeue", ["-h"]).standardOutput.isEmpty)
        }
    }
}
