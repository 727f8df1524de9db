import CreativeImaging

/// `--timeout S` and `--memory-budget MIB`, shared by validate, render and process.
enum JobLimitOptions {
    /// The option names, for each command's option set.
    static let names: Set<String> = ["--timeout", "--memory-budget"]

    /// The usage lines.
    static let usage = """
      --timeout S       stop a job that runs longer than S seconds (code timeout; default: none)
      --memory-budget MIB  most memory the job may hold at its peak (decode, resampling window,
                    canvas, encoders), charged from the header before any work (code
                    too_many_pixels; default \(JobLimits.defaultMemoryBudget >> 20))
    """

    /// The limits the options give; defaults: no deadline, ``JobLimits/defaultMemoryBudget``.
    static func read(_ arguments: ParsedArguments) throws(CLIError) -> JobLimits {
        let budget = try arguments.int("--memory-budget", in: 1...1 << 20).map { $0 << 20 } ?? JobLimits.defaultMemoryBudget
        guard let seconds = try arguments.double("--timeout") else { return JobLimits(memoryBudget: budget) }
        guard seconds > 0, seconds <= 86_400 else { throw .usage("--timeout: give seconds above 0, at most 86400") }
        return JobLimits(memoryBudget: budget, timeout: seconds)
    }
}
