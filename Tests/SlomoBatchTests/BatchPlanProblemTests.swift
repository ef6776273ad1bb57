import Foundation
import SlomoTestSupport
import Testing

/// A batch whose manifest or jobs are wrong is refused before anything runs: every problem
/// listed at once with its manifest line, exit 64, and no run folder left behind.
@Suite struct BatchPlanProblemTests {
    @Test func everyProblemIsListedWithItsLineAndNothingIsPlanned() throws {
        let workspace = try BatchWorkspace("batch-problems")
        try FileManager.default.createDirectory(atPath: workspace.path("out"), withIntermediateDirectories: true)
        try Data("already here".utf8).write(to: URL(fileURLWithPath: workspace.path("out/kept.mov")))
        let manifest = """
            slomo-batch: 1
            colour: blue
            defaults:
              options: {section: 0.2-0.6x0.5}
            jobs:
              - input: clips/good-1.mov
                output: out/same.mov
              - input: clips/good-2.mov
                output: out/same.mov
              - input: clips/missing.mov
                output: out/missing.mov
              - input: clips/good-3.mov
                output: clips/good-1.mov
              - input: clips/good-5.mov
                output: out/g5.mov
                overwrite: "yes"
              - input: clips/good-6.mov
                output: out/g6.mov
                options: {sectoin: 1-2x0.5}
              - input: clips/good-6.mov
                output: out/kept.mov
              - inputs: clips/nothing-*.mov
                output: out/{stem}.mov
              - input: clips/good-1.mov
                output: out/g1-over.mov
                options: {output: elsewhere.mov}
            """
        try manifest.write(toFile: workspace.path("bad.yaml"), atomically: true, encoding: .utf8)
        let result = try workspace.slomo(["batch", "plan", "bad.yaml", "-o", "run"])
        print(result.standardError)
        #expect(result.status == 64)
        let expected: [(line: Int, text: String)] = [
            (2, "unknown key 'colour'"), (16, "expected true or false"), (17, "unknown option '--sectoin'"),
            (10, "does not exist"), (8, "also the output of"), (12, "is an input of the batch"),
            (20, "out/kept.mov already exists"), (22, "matches no file"), (26, "'output' is not a job option"),
        ]
        for (line, text) in expected {
            let found = result.standardError.split(separator: "\n").contains { $0.contains("bad.yaml:\(line)") && $0.contains(text) }
            #expect(found, "line \(line): \(text)")
        }
        #expect(!FileManager.default.fileExists(atPath: workspace.run), "a refused plan leaves no run folder")
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.folder.path).filter { $0.hasPrefix("run") }.isEmpty)
    }

    /// A manifest the YAML reader refuses (a key given twice) is a problem on its line too.
    @Test func aKeyGivenTwiceIsAProblemOnItsLine() throws {
        let workspace = try BatchWorkspace("batch-twice")
        try "slomo-batch: 1\njobs:\n  - input: clips/good-1.mov\n    output: out/a.mov\n    output: out/b.mov\n"
            .write(toFile: workspace.path("twice.yaml"), atomically: true, encoding: .utf8)
        let result = try workspace.slomo(["batch", "plan", "twice.yaml", "-o", "run"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("twice.yaml:4: key 'output' is given twice in one mapping"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: workspace.run))
    }

    @Test func anExistingRunFolderIsNotPlannedOver() throws {
        let workspace = try BatchWorkspace("batch-refolder")
        #expect(try workspace.slomo(["batch", "plan", "clips/good-*.mov", "--section", "0.2-0.6x0.5", "-o", "out/{stem}.mov", "--run", "run"]).status == 0)
        let again = try workspace.slomo(["batch", "plan", "clips/good-*.mov", "--section", "0.2-0.6x0.5", "-o", "out/{stem}.mov", "--run", "run"])
        #expect(again.status == 64 && again.standardError.contains("already exists"), "\(again.standardError)")
        #expect(again.standardError.contains("(to go on with that run, give it to `slomo batch run`)"), "the library's hint, worded as the command")
    }

    @Test func aFolderWithoutAPlanSaysHowToMakeOne() throws {
        let workspace = try BatchWorkspace("batch-noplan")
        try FileManager.default.createDirectory(atPath: workspace.path("empty"), withIntermediateDirectories: true)
        let result = try workspace.slomo(["batch", "status", "empty"])
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains("empty holds no plan.json (make one there with `slomo batch plan MANIFEST -o` and this folder)"),
                "\(result.standardError)")
    }

    @Test func oneOutputForManyInputsIsRefused() throws {
        let workspace = try BatchWorkspace("batch-oneoutput")
        let result = try workspace.slomo(["batch", "plan", "clips/good-*.mov", "--section", "0.2-0.6x0.5", "-o", "out/all.mov", "--run", "run"])
        #expect(result.status == 64 && result.standardError.contains("{stem}"), "\(result.standardError)")
    }

    @Test func slurmWithoutSbatchSaysWhatToInstall() throws {
        let workspace = try BatchWorkspace("batch-nosbatch")
        #expect(try workspace.slomo(["batch", "plan", "clips/good-1.mov", "--section", "0.2-0.6x0.5", "-o", "out/one.mov", "--run", "run"]).status == 0)
        let result = try workspace.slomo(["batch", "run", "run", "--engine", "slurm"], environment: ["PATH": "/nonexistent"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("sbatch is not on PATH") && result.standardError.contains("slurm-client"), "\(result.standardError)")
    }

    @Test func execOfAnIndexThePlanLacksIsAUsageError() throws {
        let workspace = try BatchWorkspace("batch-badindex")
        #expect(try workspace.slomo(["batch", "plan", "clips/good-1.mov", "--section", "0.2-0.6x0.5", "-o", "out/one.mov", "--run", "run"]).status == 0)
        let result = try workspace.slomo(["batch", "exec", "run", "--index", "5"])
        #expect(result.status == 64 && result.standardError.contains("jobs 0 to 0"), "\(result.standardError)")
        let noIndex = try workspace.slomo(["batch", "exec", "run"])
        #expect(noIndex.status == 64 && noIndex.standardError.contains("SLURM_ARRAY_TASK_ID"), "\(noIndex.standardError)")
        let fromEnvironment = try workspace.slomo(["batch", "exec", "run"], environment: ["JOB_COMPLETION_INDEX": "0"])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.standardError)")
        let result0 = try RunFolderReader.result(workspace, index: 0)
        #expect(result0?.engine == "kubernetes", "JOB_COMPLETION_INDEX names Kubernetes: \(String(describing: result0?.engine))")
    }
}
