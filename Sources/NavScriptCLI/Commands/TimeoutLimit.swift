import ArgumentParser

/// The checks every `--timeout` shares: seconds, positive and finite, and
/// no more than a week — a value a clock can add and a report can print as
/// a whole number (`inf` or `1e300` made the run trap).
enum TimeoutLimit {
    /// The longest `--timeout` accepted, in seconds: a week.
    static let maximum = 7.0 * 24 * 3600

    static func check(_ seconds: Double) throws {
        guard seconds.isFinite, seconds > 0, seconds <= maximum else {
            throw ValidationError(
                "--timeout must be a number of seconds above 0 and at most \(Int(maximum)) (a week), got \(seconds)")
        }
    }
}
