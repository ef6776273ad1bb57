import Foundation
import Testing

/// How much of this virtual machine's CPU the hypervisor gave to others while a test ran (the
/// `steal` column of /proc/stat). Real-time tests (a capture keeping up with 240 fps, x11grab's
/// pacing) hold their bars on an idle machine; when the host takes the CPU away their bars say
/// nothing about slomo, so they are then recorded as known issues with the measured values
/// instead of failing. On a quiet host they fail as they always did.
///
/// Every bar not judged prints a line, `HostContention: NAME not judged: …`, with the share
/// stolen and the load average, and `scripts/test` runs those tests again: a regression stays
/// hidden only while the host is busy at every run.
public enum HostContention {
    /// Above this share of the machine's CPU time stolen, a real-time bar is not judged.
    public static let tolerated = 0.10

    /// Runs `body` and returns its result with the share of CPU time stolen meanwhile
    /// (0 where /proc/stat cannot be read, so that the bar is judged).
    public static func measure<T>(_ body: () throws -> T) rethrows -> (result: T, stolen: Double) {
        let before = stolenTicks(), start = Date()
        let result = try body()
        let elapsed = Date().timeIntervalSince(start)
        guard let before, let after = stolenTicks(), elapsed > 0 else { return (result, 0) }
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        return (result, Double(after - before) / 100 / (elapsed * cores))
    }

    /// Why real-time bars are not judged after a run in which `stolen` of the CPU was taken:
    /// nil when at most `tolerated` was (the bars are judged), else the share and the load.
    public static func excuse(stolen: Double, loadAverage: Double?) -> String? {
        guard stolen > tolerated else { return nil }
        let load = loadAverage.map { String(format: ", load average %.2f", $0) } ?? ""
        return String(format: "the host took %.1f %% of the CPU during the run (more than %.0f %%", stolen * 100, tolerated * 100)
            + load + ")"
    }

    /// Checks real-time `expectations`: as usual when at most `tolerated` of the CPU was
    /// stolen; otherwise as a known issue naming the stolen share, after printing
    /// `HostContention: NAME not judged: …` (NAME is the running test's function).
    public static func judge(stolen: Double, _ expectations: () throws -> Void) rethrows {
        guard let excuse = excuse(stolen: stolen, loadAverage: loadAverage()) else { return try expectations() }
        let name = Test.current.map { String($0.name.prefix { $0 != "(" }) } ?? "a test"
        print("HostContention: \(name) not judged: \(excuse)")
        withKnownIssue(Comment(rawValue: excuse), isIntermittent: true) {
            try expectations()
        }
    }

    /// The `steal` ticks (1/100 s) of all CPUs so far.
    private static func stolenTicks() -> Int? {
        guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
              let line = stat.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) else { return nil }
        let fields = line.split(separator: " ")
        return fields.count > 8 ? Int(fields[8]) : nil
    }

    /// The load average of the last minute, nil where /proc/loadavg cannot be read.
    private static func loadAverage() -> Double? {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first.flatMap { Double($0) }
    }
}
