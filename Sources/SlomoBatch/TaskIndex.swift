import Foundation

/// The job index a task body runs when none is given: what the engine that started the task
/// sets. Slurm job arrays, Kubernetes Indexed Jobs and AWS Batch array jobs each name it their
/// own way.
public enum TaskIndex {
    /// The variables read, in order.
    public static let variables = ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"]

    /// The index from the first of `variables` that is set, and that variable's name;
    /// `.invalidIndex` when none is set or the value is not a number.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(BatchError) -> (index: Int, variable: String) {
        guard let name = variables.first(where: { environment[$0] != nil }) else {
            throw BatchError(.invalidIndex, "no task index: give --index I, or run as an array task (it reads "
                             + variables.joined(separator: ", ") + ")")
        }
        guard let index = Int(environment[name]!), index >= 0 else {
            throw BatchError(.invalidIndex, "\(name)=\(environment[name]!) is not a task index (a whole number from 0)")
        }
        return (index, name)
    }

    /// The engine that started this task, by the variables it sets: `slurm`, `kubernetes`,
    /// `aws-batch`, or `exec` for a task run by hand.
    public static func engine(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if environment["SLURM_JOB_ID"] != nil { return "slurm" }
        if environment["JOB_COMPLETION_INDEX"] != nil { return "kubernetes" }
        if environment["AWS_BATCH_JOB_ID"] != nil { return "aws-batch" }
        return "exec"
    }
}
