import ArgumentParser

/// The checks every `--timeout` shares: seconds, at least a hundredth and
/// no more than a week — a value a clock can add and a report can print as
/// a whole number (`inf` or `1e300` made the run trap), and one no launch
/// fits under is no limit but a failure of every scenario (`1e-320` failed
/// in workers and passed in process).
enum TimeoutLimit {
    /// The longest `--timeout` accepted, in seconds: a week.
    static let maximum = 7.0 * 24 * 3600
    /// The shortest, in seconds.
    static let minimum = 0.01

    static func check(_ seconds: Double) throws {
        guard seconds.isFinite, seconds >= minimum, seconds <= maximum else {
            throw ValidationError(
                "--timeout must be a number of seconds from \(minimum) to \(Int(maximum)) (a week), got \(seconds)")
        }
    }
}
