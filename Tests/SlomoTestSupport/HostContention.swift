import Foundation
import Testing

/// How much of this virtual machine's CPU the hypervisor gave to others while a test ran (the
/// `steal` column of /proc/stat). Real-time tests (a capture keeping up with 240 fps, x11grab's
/// pacing) hold their bars on an idle machine; when the host takes the CPU away their bars say
/// nothing about slomo, so they are then recorded as known issues with the measured values
/// instead of failing. On a quiet host they fail as they always did.
public enum HostContention {
    /// Above this share of the machine's CPU time stolen, a real-time bar is not judged.
    public static let tolerated = 0.10

    /// Runs `body` and returns its result with the share of CPU time stolen meanwhile
    /// (0 where /proc/stat cannot be read).
    public static func measure<T>(_ body: () throws -> T) rethrows -> (result: T, stolen: Double) {
        let before = stolenTicks(), start = Date()
        let result = try body()
        let elapsed = Date().timeIntervalSince(start)
        guard let before, let after = stolenTicks(), elapsed > 0 else { return (result, 0) }
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        return (result, Double(after - before) / 100 / (elapsed * cores))
    }

    /// Checks real-time `expectations`: as usual when at most `tolerated` of the CPU was
    /// stolen, as a known issue naming the stolen share otherwise.
    public static func judge(stolen: Double, _ expectations: () throws -> Void) rethrows {
        guard stolen > tolerated else { return try expectations() }
        withKnownIssue("the host took \(Int((stolen * 100).rounded())) % of the CPU during the run",
                           isIntermittent: true) {
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
}
