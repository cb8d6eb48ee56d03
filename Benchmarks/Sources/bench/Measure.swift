import CBenchSupport
import Foundation

/// Monotonic nanoseconds.
@inline(__always)
func nanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

func median(_ values: [Double]) -> Double {
    precondition(!values.isEmpty)
    let sorted = values.sorted()
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    let index = min(sorted.count - 1, max(0, Int((Double(sorted.count - 1) * p).rounded())))
    return sorted[index]
}

/// One in-process measurement: the median time per operation over many
/// samples, its spread, and the allocations per operation (counted in a
/// separate, untimed pass so counting never perturbs the timings).
struct Measurement {
    var name: String
    /// Nanoseconds per operation: median, 10th and 90th percentile of the samples.
    var medianNs: Double
    var p10Ns: Double
    var p90Ns: Double
    var samples: Int
    var operationsPerSample: Int
    var allocationsPerOp: Double
    var bytesPerOp: Double
}

enum Bench {
    /// Measures `body`, which performs `operations` operations per call.
    /// Warms up, then picks how many calls make one sample (at least
    /// `minSampleNs` long, so the clock's resolution does not matter), then
    /// takes samples until `samples` are in or `budgetSeconds` ran out.
    static func measure(
        _ name: String, operations: Int, samples: Int = 201, budgetSeconds: Double = 3,
        minSampleNs: UInt64 = 200_000, warmup: Int = 20, _ body: () -> Void
    ) -> Measurement {
        for _ in 0..<warmup { body() }
        var callsPerSample = 1
        while true {
            let start = nanoseconds()
            for _ in 0..<callsPerSample { body() }
            if nanoseconds() - start >= minSampleNs || callsPerSample >= 1 << 20 { break }
            callsPerSample *= 2
        }
        var perOp: [Double] = []
        perOp.reserveCapacity(samples)
        let deadline = nanoseconds() + UInt64(budgetSeconds * 1e9)
        while perOp.count < samples && (perOp.count < 11 || nanoseconds() < deadline) {
            let start = nanoseconds()
            for _ in 0..<callsPerSample { body() }
            let elapsed = Double(nanoseconds() - start)
            perOp.append(elapsed / Double(callsPerSample * operations))
        }
        // Allocations: deterministic code, so one counted pass says it.
        bench_counting_begin()
        for _ in 0..<callsPerSample { body() }
        let counts = bench_counting_end()
        let ops = Double(callsPerSample * operations)
        return Measurement(
            name: name, medianNs: median(perOp), p10Ns: percentile(perOp, 0.1),
            p90Ns: percentile(perOp, 0.9), samples: perOp.count,
            operationsPerSample: callsPerSample * operations,
            allocationsPerOp: Double(counts.allocations) / ops, bytesPerOp: Double(counts.bytes) / ops)
    }
}

/// The ratio of two workloads' times, measured in pairs: each sample times
/// `numerator` once and `denominator` once, back to back, and the result is
/// the median of the per-pair ratios. Why: on a shared machine the speed
/// drifts by tens of percent over seconds; two medians taken one after the
/// other can land in different phases, a pair cannot.
struct PairedRatio {
    var medianRatio: Double
    var p10Ratio: Double
    var p90Ratio: Double
    var pairs: Int

    static func measure(pairs: Int = 401, warmup: Int = 20, numerator: () -> Void, denominator: () -> Void) -> PairedRatio {
        for _ in 0..<warmup { numerator(); denominator() }
        var ratios: [Double] = []
        ratios.reserveCapacity(pairs)
        for index in 0..<pairs {
            // Alternate which one goes first, so neither always runs on a warmer cache.
            let first = index % 2 == 0
            var top: UInt64 = 0
            var bottom: UInt64 = 0
            for turn in 0..<2 {
                let start = nanoseconds()
                if (turn == 0) == first { numerator() } else { denominator() }
                let elapsed = nanoseconds() - start
                if (turn == 0) == first { top = elapsed } else { bottom = elapsed }
            }
            ratios.append(Double(top) / Double(max(bottom, 1)))
        }
        return PairedRatio(
            medianRatio: median(ratios), p10Ratio: percentile(ratios, 0.1), p90Ratio: percentile(ratios, 0.9),
            pairs: pairs)
    }
}

/// Keeps a value alive and opaque to the optimiser.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Instructions per operation of a `bench --profile` workload, counted by
/// valgrind's callgrind (deterministic, unlike times on a shared machine):
/// (instructions of N iterations − instructions of 0) / (N × operations).
enum InstructionCount {
    static var valgrind: String? {
        ["/usr/bin/valgrind", "/usr/local/bin/valgrind"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func total(_ workload: String, count: Int, repo: String) -> Double? {
        guard let valgrind else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: valgrind)
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        process.arguments = [
            "--tool=callgrind", "--callgrind-out-file=/dev/null", me,
            "--repo", repo, "--profile", workload, String(count)
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.contains("I   refs:") }),
            let number = line.split(separator: " ").last.map({ $0.replacingOccurrences(of: ",", with: "") })
        else { return nil }
        return Double(number)
    }

    static func perOperation(_ workload: String, count: Int, operations: Int, repo: String) -> Double? {
        guard let base = total(workload, count: 0, repo: repo), let full = total(workload, count: count, repo: repo) else {
            return nil
        }
        return (full - base) / Double(count * operations)
    }
}
