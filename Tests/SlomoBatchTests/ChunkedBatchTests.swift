import Foundation
import SlomoBatch
import SlomoCore
import SlomoTestSupport
import Testing

/// A batch job with `chunks:`: planned as a job a chunk, one for its audio and a join that waits
/// for them, so that the engine spreads the chunks like any other jobs (here two at a time, on
/// Slurm as array tasks and a join that waits for exactly those tasks). The joined output is
/// the single pass's to the bit (FFV1, PCM); a failed chunk fails the join by name; pieces
/// removed after the join are neither needed nor made again.
@Suite(.serialized) struct ChunkedBatchTests {
    /// The chunked job's options: an interpolated 0.1x section and an eased ramp (frames that
    /// depend on pictures across chunk edges), lossless so that frames compare to the bit.
    static let exportOptions = ["--section", "1-1.5x0.1", "--section", "2.5-3.5x0.25:ramp=0.3", "--cfr", "30",
                                "--codec", "ffv1", "--audio-codec", "pcm"]

    static func manifest(take: String, extraOptions: String = "") -> String {
        """
        slomo-batch: 1
        jobs:
          - input: clip.mov
            output: out/clip-slow.mov
            options: {section: [0.2-0.6x0.5]}
          - input: \(take)
            command: export
            output: out/take.mkv
            options: {section: [1-1.5x0.1, "2.5-3.5x0.25:ramp=0.3"], cfr: 30, codec: ffv1, audio-codec: pcm, chunks: 3\(extraOptions)}
        """
    }

    /// 4 s of 640x360 at 240 fps (H.264 with B-frames, one keyframe) with a tone.
    static var take: String {
        get throws { try ChunkedExportTests.take(named: "chunked-batch-take", size: "640x360", seconds: 4, keyframeInterval: 960) }
    }

    /// A folder with the take and a short clip (linked) and the manifest.
    struct Workspace {
        let folder: URL

        init(_ label: String, manifest: String = ChunkedBatchTests.manifest(take: "take.mov")) throws {
            folder = try FixtureCache.shared.scratchFolder(label)
            let take = try ChunkedBatchTests.take
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("take.mov").path, withDestinationPath: take)
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("clip.mov").path,
                                                       withDestinationPath: try BatchWorkspace.clip(1))
            try manifest.write(to: folder.appendingPathComponent("batch.yaml"), atomically: true, encoding: .utf8)
        }

        func path(_ relative: String) -> String { folder.appendingPathComponent(relative).path }

        func slomo(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
            try runCommand("/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", folder.path, try Slomo.executable] + arguments,
                           environment: environment)
        }

        /// Plans the manifest into `run` and checks the jobs the chunked export became.
        func plan() throws -> BatchPlan {
            let planned = try slomo(["batch", "plan", "batch.yaml", "-o", "run"])
            try #require(planned.status == 0, "\(planned.standardError)")
            let plan = try RunFolder(path("run")).plan()
            #expect(plan.jobs.map(\.place.path) == ["jobs[0]", "jobs[1]: chunk 1 of 3", "jobs[1]: chunk 2 of 3", "jobs[1]: chunk 3 of 3",
                                                    "jobs[1]: audio", "jobs[1]: join"])
            #expect(plan.jobs.map(\.dependencies) == [[], [], [], [], [], [1, 2, 3, 4]])
            #expect(plan.jobs[1...3].allSatisfy { $0.output.hasPrefix(path("run/pieces/")) && $0.options.contains("--chunk") })
            #expect(plan.jobs[5].output == path("out/take.mkv") && !plan.jobs[5].options.contains("--chunks"))
            return plan
        }

        /// The joined output is the single pass's (the chunked job's export made by hand):
        /// every decoded frame and audio sample.
        func expectSinglePass() throws {
            let singlePass = path("single.mkv")
            if !FileManager.default.fileExists(atPath: singlePass) {
                try runChecked(try Slomo.executable, ["export", try ChunkedBatchTests.take] + ChunkedBatchTests.exportOptions
                               + ["-o", singlePass, "-q"])
            }
            let joined = try ChunkedExportTests.decoded(path("out/take.mkv"))
            let single = try ChunkedExportTests.decoded(singlePass)
            print("chunked batch job: \(joined.video.count) frames joined from 3 chunks, single pass \(single.video.count)")
            #expect(!single.video.isEmpty && joined.video == single.video, "the joined frames are not the single pass's")
            #expect(joined.audio == single.audio, "the joined audio is not the single pass's to the sample")
        }
    }

    @Test func aChunkedJobRunsAsItsChunksThenItsJoinOnTheLocalEngine() throws {
        let workspace = try Workspace("chunked-batch-local")
        let plan = try workspace.plan()
        let run = try workspace.slomo(["batch", "run", "run", "--jobs", "2", "--progress", "none"])
        #expect(run.status == 0, "\(run.standardError)")
        try workspace.expectSinglePass()
        let folder = RunFolder(workspace.path("run"))
        let results = plan.jobs.map { folder.result(of: $0) }
        #expect(results.allSatisfy { $0?.status == .done })
        // The join's command started (its end less its wall time) after every chunk and the audio ended.
        let join = try #require(results[5])
        let joinStarted = try #require(MillisecondTimestamp.date(join.finishedAt)).addingTimeInterval(-join.wallSeconds)
        for result in results[1...4] {
            let ended = try #require(MillisecondTimestamp.date(result?.finishedAt ?? ""), "a millisecond time: \(String(describing: result?.finishedAt))")
            #expect(ended <= joinStarted, "job \(result?.index ?? -1) ended \(ended), after the join started at \(joinStarted)")
        }

        // The pieces removed once joined: nothing is needed, nothing runs, no file changes.
        try FileManager.default.removeItem(atPath: workspace.path("run/pieces"))
        let joined = FileIdentity(of: workspace.path("out/take.mkv"))
        let again = try workspace.slomo(["batch", "run", "run", "--progress", "none"])
        #expect(again.status == 0 && again.standardError.contains("nothing to run"), "\(again.standardError)")
        #expect(FileIdentity(of: workspace.path("out/take.mkv")) == joined && !FileManager.default.fileExists(atPath: workspace.path("run/pieces")))
        let status = try workspace.slomo(["batch", "status", "run", "--json"])
        let document = try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [String: Any]
        let counts = document?["counts"] as? [String: Int]
        #expect(status.status == 0 && counts?["done"] == 6, "\(status.standardOutput)")
        let rows = document?["jobs"] as? [[String: Any]] ?? []
        #expect((rows.count == 6 ? rows[2]["place"] as? String : nil) == "batch.yaml:6: jobs[1]: chunk 2 of 3")
        #expect((rows.count == 6 ? rows[5]["waitsFor"] as? [Int] : nil) == [1, 2, 3, 4], "a script sees what the join waits for")

        // The joined output deleted: the chunks are needed again and run before the join.
        try FileManager.default.removeItem(atPath: workspace.path("out/take.mkv"))
        let remade = try workspace.slomo(["batch", "run", "run", "--progress", "none"])
        #expect(remade.status == 0 && remade.standardError.contains("running 5 of 6"), "\(remade.standardError)")
        try workspace.expectSinglePass()
    }

    @Test func aFailedChunkFailsItsJoinByName() throws {
        let workspace = try Workspace("chunked-batch-failing", manifest: ChunkedBatchTests.manifest(take: "gone.mov"))
        try FileManager.default.createSymbolicLink(atPath: workspace.path("gone.mov"), withDestinationPath: try ChunkedBatchTests.take)
        let plan = try workspace.plan()
        try FileManager.default.removeItem(atPath: workspace.path("gone.mov"))
        let run = try workspace.slomo(["batch", "run", "run", "--progress", "none"])
        #expect(run.status == 1)
        let folder = RunFolder(workspace.path("run"))
        let results = plan.jobs.map { folder.result(of: $0) }
        print("chunked batch job without its input: \(results.map { $0?.status.rawValue ?? "none" }); join: \(results[5]?.message ?? "")")
        #expect(results[0]?.status == .done)
        #expect(results[1...4].allSatisfy { $0?.status == .failed && $0?.message?.contains("gone.mov") == true })
        #expect(results[5]?.status == .failed
                && results[5]?.message?.hasPrefix("not run: it waits for job 1 (jobs[1]: chunk 1 of 3), which failed:") == true)
        #expect(!FileManager.default.fileExists(atPath: workspace.path("out/take.mkv")))
    }

    @Test func theEngineIsTheBatchsNotAJobOption() throws {
        let folder = try FixtureCache.shared.scratchFolder("chunked-batch-engine-option")
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("take.mov").path, withDestinationPath: try Self.take)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("clip.mov").path,
                                                   withDestinationPath: try BatchWorkspace.clip(1))
        try Self.manifest(take: "take.mov", extraOptions: ", engine: slurm").write(to: folder.appendingPathComponent("batch.yaml"),
                                                                                  atomically: true, encoding: .utf8)
        let planned = try runCommand("/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", folder.path, try Slomo.executable,
                                                 "batch", "plan", "batch.yaml", "-o", "run"])
        print(planned.standardError)
        #expect(planned.status == 64)
        #expect(planned.standardError.contains("batch.yaml:6: jobs[1]: take.mov") && planned.standardError.contains("--engine is not a job option"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("run").path))
    }
}

extension SlurmEngineTests {
    @Test func aChunkedJobRunsAsArrayTasksAndAJoinThatWaitsForThem() throws {
        let cluster = try SlurmCluster()
        let workspace = try ChunkedBatchTests.Workspace("chunked-batch-slurm")
        let plan = try workspace.plan()
        let run = try workspace.slomo(["batch", "run", "run", "--engine", "slurm", "--wait", "--progress", "none"],
                                      environment: cluster.environment)
        #expect(run.status == 0, "\(run.standardError)")
        try workspace.expectSinglePass()
        let folder = RunFolder(workspace.path("run"))
        let submissions = SlurmEngine.submissions(in: folder)
        #expect(submissions.map(\.indices) == [[0, 1, 2, 3, 4], [5]], "\(submissions)")
        let array = try #require(submissions.first?.jobId)
        let join = try String(contentsOfFile: folder.slurmFolder + "/array-2.sh", encoding: .utf8)
        #expect(join.contains("#SBATCH --dependency=afterany:\(array)_1:\(array)_2:\(array)_3:\(array)_4\n"),
                "the join waits for the chunks' and the audio's tasks, not the other clip's: \(join)")
        let results = plan.jobs.map { folder.result(of: $0) }
        #expect(results.allSatisfy { $0?.status == .done && $0?.engine == "slurm" })
        #expect(results[5]?.engineJobIds["SLURM_ARRAY_JOB_ID"] == submissions.last?.jobId)
    }
}

extension SlurmEngineTests {
    /// One chunk's task cancelled while it runs: the join still starts when the chunks' tasks
    /// end (afterany), sees the chunk without a result, and writes none itself; running the
    /// batch again submits exactly that chunk and the join, and the output is the single pass's.
    @Test func aCancelledChunkLeavesItsJoinPendingAndAResumeFinishesIt() throws {
        let cluster = try SlurmCluster()
        let workspace = try ChunkedBatchTests.Workspace("chunked-batch-scancel")
        let plan = try workspace.plan()
        let submitted = try workspace.slomo(["batch", "run", "run", "--engine", "slurm", "--max-parallel", "1"], environment: cluster.environment)
        try #require(submitted.status == 0, "\(submitted.standardError)")
        let folder = RunFolder(workspace.path("run"))
        let array = try #require(SlurmEngine.submissions(in: folder).first?.jobId)
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, !(try cluster.run("squeue", ["-h", "-r", "-t", "RUNNING", "-o", "%i"]).standardOutput.contains("\(array)_1")) {
            Thread.sleep(forTimeInterval: 0.1)
        }
        Thread.sleep(forTimeInterval: 0.5)
        _ = try cluster.run("scancel", ["\(array)_1"])
        #expect(try cluster.waitUntilIdle())
        let results = plan.jobs.map { folder.result(of: $0) }
        print("chunked batch, chunk 1 cancelled: \(results.map { $0?.status.rawValue ?? "none" })")
        #expect(results[1] == nil && results[5] == nil, "the cancelled chunk and its join have no result")
        #expect(results[0]?.status == .done && results[2...4].allSatisfy { $0?.status == .done })
        let joinTask = try String(contentsOfFile: folder.slurmFolder + "/array-2-5.out", encoding: .utf8)
        #expect(joinTask.contains("waits for job(s) 1 (jobs[1]: chunk 1 of 3), not done yet"), "\(joinTask)")
        #expect(!FileManager.default.fileExists(atPath: workspace.path("out/take.mkv")))

        let resumed = try workspace.slomo(["batch", "run", "run", "--engine", "slurm", "--wait", "--progress", "none"],
                                          environment: cluster.environment)
        #expect(resumed.status == 0, "\(resumed.standardError)")
        #expect(SlurmEngine.submissions(in: folder).suffix(2).map(\.indices) == [[1], [5]], "only the chunk and its join ran again")
        try workspace.expectSinglePass()
    }
}
