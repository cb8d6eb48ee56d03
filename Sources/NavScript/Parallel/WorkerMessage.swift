import Foundation

/// One unit of work for a worker process: a file, from which scenario on
/// (a replacement worker resumes after a crashed scenario), with which faults.
public struct WorkerTask: Hashable, Sendable, Codable {
    public var id: Int
    public var path: String
    public var suiteRoot: String
    public var faults: [String]
    /// Index, in the file's run order, of the first scenario to run.
    public var from: Int

    public init(id: Int, path: String, suiteRoot: String, faults: [String], from: Int = 0) {
        self.id = id
        self.path = path
        self.suiteRoot = suiteRoot
        self.faults = faults
        self.from = from
    }
}

/// What a worker reports, one JSON object per line. `start` is sent before
/// each scenario so that, if the worker dies, the parent knows exactly which
/// scenario killed it.
public enum WorkerMessage: Hashable, Sendable, Codable {
    /// The file loaded; these scenarios will run, in this order.
    case loaded(task: Int, scenarios: [ScenarioListing])
    case start(task: Int, index: Int)
    /// One timeline step of the running scenario.
    case step(task: Int, index: Int, line: String)
    /// The call about to run (so a crash or hang can name it).
    case running(task: Int, index: Int, line: String)
    case result(task: Int, index: Int, result: ScenarioResult)
    /// The file did not load: one errored result stands for it.
    case loadFailed(task: Int, result: ScenarioResult)
    case done(task: Int)

    public var line: String {
        // The per-scenario messages are written by hand: JSONEncoder for
        // every step was a fifth of a worker's instructions. Same JSON as
        // the synthesized Codable form, so one decoder reads both.
        switch self {
        case .start(let task, let index):
            return #"{"start":{"index":\#(index),"task":\#(task)}}"# + "\n"
        case .step(let task, let index, let line):
            return #"{"step":{"index":\#(index),"line":"\#(Self.escape(line))","task":\#(task)}}"# + "\n"
        case .running(let task, let index, let line):
            return #"{"running":{"index":\#(index),"line":"\#(Self.escape(line))","task":\#(task)}}"# + "\n"
        case .done(let task):
            return #"{"done":{"task":\#(task)}}"# + "\n"
        default:
            break
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// A JSON string body: quotes, backslashes and control characters escaped.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    public static func parse(_ line: Substring) -> WorkerMessage? {
        try? JSONDecoder().decode(WorkerMessage.self, from: Data(line.utf8))
    }
}
