import Foundation
import NavScript
import NavScriptRuntime

/// What a child exploration tells the process that started it, one JSON
/// line per record in a file that outlives the child: each finding as it
/// is made, then the walk totals when the exploration ends by itself. A
/// supervisor appends the crash or hang that ended its child; `--jobs`
/// and the fault matrix read the records back — never the console text.
package enum ExplorationRecord: Codable, Sendable {
    case finding(Found)
    case finished(Totals)

    /// One violation, as its reports show it.
    package struct Found: Codable, Sendable {
        /// The failing test case (its name is the property).
        package var result: ScenarioResult
        /// Steps of the written reproducer (nil: none was written).
        package var reproducerSteps: Int?
        /// The app crashed or hung (the property "every input gets an outcome").
        package var fatal: ExplorationFatal?
        /// The reproducer fails with the exploration's faults and passes
        /// without them (with no faults: fails). A finding that also fails
        /// on the healthy build is the app's own bug, not the fault's.
        package var verified: Bool?

        package init(result: ScenarioResult, reproducerSteps: Int?, fatal: ExplorationFatal? = nil, verified: Bool? = nil) {
            self.result = result
            self.reproducerSteps = reproducerSteps
            self.fatal = fatal
            self.verified = verified
        }
    }

    /// What an exploration that ended by itself did.
    package struct Totals: Codable, Sendable {
        package var walks: Int
        package var steps: Int
        package var seconds: Double
    }

    /// Appends `record` to `path` (created when missing); best effort — a
    /// record that cannot be kept costs only the parent's summary.
    package static func append(_ record: ExplorationRecord, to path: String) {
        guard let data = try? JSONEncoder().encode(record) else { return }
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        guard let file = FileHandle(forWritingAtPath: path) else { return }
        defer { try? file.close() }
        _ = try? file.seekToEnd()
        try? file.write(contentsOf: data + Data("\n".utf8))
    }

    /// The records in `path`, in the order written (none when it is missing;
    /// a line cut short by a crash is left out).
    package static func read(_ path: String) -> [ExplorationRecord] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(ExplorationRecord.self, from: Data($0.utf8)) }
    }
}

/// What ended an exploration that did not end by itself.
package enum ExplorationFatal: Codable, Hashable, Sendable {
    case crash(signal: Int32)
    case hang

    /// The signal a crash died of (nil for a hang).
    package var signal: Int32? {
        if case .crash(let signal) = self { return signal }
        return nil
    }
}
