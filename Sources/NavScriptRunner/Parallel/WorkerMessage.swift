import Foundation
import NavScript
import NavScriptRuntime

/// One unit of work for a worker process: a file, from which scenario on
/// (a replacement worker resumes after a crashed scenario), with which faults.
public struct WorkerTask: Hashable, Sendable, Codable {
    public var id: Int
    public var path: String
    public var suiteRoot: String
    public var faults: [String]
    /// Index, in the file's run order, of the first scenario to run.
    public var from: Int
    /// Send every message at once instead of buffering. Set on the re-run
    /// of a file whose worker was killed by SIGKILL: that signal cannot be
    /// caught, so a buffering worker's last messages died with it and the
    /// pool could not tell which scenario was running; unbuffered, a second
    /// kill names it (and its last call).
    public var unbuffered: Bool
    /// The file's scenarios by name, in the order its first load declared
    /// them: a file resumed in a fresh worker runs in that order, so `from`
    /// means the same scenario. (A file that declares through `pairs` gets
    /// another order in every process: Lua seeds its string hashes per
    /// process, and a resume by position ran some scenarios twice and a
    /// failing one never.)
    public var order: [String]?

    public init(id: Int, path: String, suiteRoot: String, faults: [String], from: Int = 0, unbuffered: Bool = false) {
        self.id = id
        self.path = path
        self.suiteRoot = suiteRoot
        self.faults = faults
        self.from = from
        self.unbuffered = unbuffered
    }

    private enum CodingKeys: String, CodingKey { case id, path, suiteRoot, faults, from, unbuffered, order }

    /// Decoded with defaults for what a task may leave out (`from`, `unbuffered`, `order`); encoded as synthesized.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        path = try container.decode(String.self, forKey: .path)
        suiteRoot = try container.decode(String.self, forKey: .suiteRoot)
        faults = try container.decode([String].self, forKey: .faults)
        from = try container.decodeIfPresent(Int.self, forKey: .from) ?? 0
        unbuffered = try container.decodeIfPresent(Bool.self, forKey: .unbuffered) ?? false
        order = try container.decodeIfPresent([String].self, forKey: .order)
    }
}

/// What a worker reports, one JSON object per line. `start` is sent before
/// each scenario so that, if the worker dies, the parent knows exactly which
/// scenario killed it.
package enum WorkerMessage: Hashable, Sendable, Codable {
    /// The file loaded; these scenarios will run, in this order.
    /// `declarations`: what each declares beside its listing (its launch
    /// options, what it allows), for the parent to tell a file that loads
    /// alike from one that does not (a worker resuming it after a crash).
    case loaded(task: Int, scenarios: [ScenarioListing], declarations: [String]? = nil)
    case start(task: Int, index: Int)
    /// One timeline step of the running scenario.
    case step(task: Int, index: Int, step: TimelineStep)
    /// The call about to run (so a crash or hang can name it).
    case running(task: Int, index: Int, line: String)
    /// The last `running` call returned: a hang after it is in the
    /// scenario's own code, not in that call.
    case returned
    /// What the scenario printed, as it printed it.
    case output(task: Int, index: Int, text: String)
    /// A storyboard frame of the running scenario (`--html`), so a scenario
    /// whose worker dies keeps its storyboard.
    case frame(task: Int, index: Int, frame: StreamedFrame)
    /// A problem shown on the running scenario's last frame.
    case frameProblem(task: Int, index: Int, problem: StepFrame.Problem)
    /// A failure the running scenario recorded (a crash or a hang after it
    /// keeps it: the report says it beside the crash).
    case failed(task: Int, index: Int, message: String, details: String)
    case result(task: Int, index: Int, result: ScenarioResult)
    /// A scenario that passed without printing anything: all the parent
    /// needs besides the listing and the steps it already has. (Nearly
    /// every result: a full result was JSON the parent decoded one by one.)
    case passed(task: Int, index: Int, duration: Double)
    /// The file did not load: one errored result stands for it.
    case loadFailed(task: Int, result: ScenarioResult)
    /// The run had stopped (`--fail-fast`) before this file began: it is
    /// not loaded, and is reported as a file not run, as the parent reports
    /// a file no worker started — the same report whichever way it went.
    case notRun(task: Int, reason: String)
    case done(task: Int)
    /// The task the pool took back (``WorkerRevocation``) was dropped
    /// before it started: another worker runs it.
    case revoked(task: Int)
    /// Sent by the worker's signal handler after the parent's SIGUSR1 (a
    /// timeout): everything buffered is out, and the worker's current
    /// scenario (or, between scenarios, its current work) has run this long
    /// by its own clock — which decides whether it is killed now.
    case flushed(elapsedMilliseconds: Int?)

    /// The task the message is about (nil: the worker's, `flushed`).
    var taskID: Int? {
        switch self {
        case .loaded(let task, _, _), .start(let task, _), .step(let task, _, _), .running(let task, _, _),
            .output(let task, _, _), .frame(let task, _, _), .frameProblem(let task, _, _), .failed(let task, _, _, _),
            .result(let task, _, _),
            .passed(let task, _, _), .loadFailed(let task, _), .notRun(let task, _), .done(let task), .revoked(let task):
            return task
        case .flushed, .returned:
            return nil
        }
    }

    package var line: String {
        if let line = handWritten { return line.text }
        return encoded
    }

    /// The message's line as bytes, for the outbox.
    var bytes: [UInt8] { handWritten?.bytes ?? Array(encoded.utf8) }

    /// The per-scenario messages, written by hand into bytes: JSONEncoder
    /// for every step was a fifth of a worker's instructions, and strings
    /// interpolated field by field a sixth of its time. Same JSON as the
    /// synthesized Codable form (keys sorted), so one decoder reads both;
    /// nil for the other messages.
    private var handWritten: JSONLine? {
        var line = JSONLine()
        let task: Int
        // Each case writes its fields up to `"task":`, which every one ends with.
        switch self {
        case .start(let id, let index):
            task = id
            line.raw(#"{"start":{"index":"#)
            line.integer(index)
            line.raw(#","task":"#)
        case .step(let id, let index, let step):
            task = id
            // A note has no screen and no tab.
            line.raw(#"{"step":{"index":"#)
            line.integer(index)
            line.raw(#","step":{"action":"#)
            line.string(step.action)
            line.raw(#","location":"#)
            line.string(step.location)
            if let scene = step.scene {
                line.raw(#","scene":"#)
                line.integer(scene)
            }
            if let screen = step.screen {
                line.raw(#","screen":"#)
                line.string(screen)
            }
            if let tab = step.tab {
                line.raw(#","tab":"#)
                line.string(tab)
            }
            line.raw(#"},"task":"#)
        case .running(let id, let index, let text):
            task = id
            line.raw(#"{"running":{"index":"#)
            line.integer(index)
            line.raw(#","line":"#)
            line.string(text)
            line.raw(#","task":"#)
        case .done(let id):
            task = id
            line.raw(#"{"done":{"task":"#)
        case .frame(let id, let index, let frame):
            // The frame last (unlike the sorted Codable form): the parent keeps it as the bytes between.
            line.raw(#"{"frame":{"index":"#)
            line.integer(index)
            line.raw(#","task":"#)
            line.integer(id)
            line.raw(#","frame":"#)
            line.json(frame.json)
            line.raw("}}\n")
            return line
        case .passed(let id, let index, let duration):
            task = id
            line.raw(#"{"passed":{"duration":"#)
            line.number(duration)
            line.raw(#","index":"#)
            line.integer(index)
            line.raw(#","task":"#)
        default:
            return nil
        }
        line.integer(task)
        line.raw("}}\n")
        return line
    }

    /// The synthesized Codable form.
    private var encoded: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Reads one line. The per-step lines (written by hand above) are read
    /// by hand too — a JSONDecoder per step made a long scenario's stream
    /// cost more than running it; anything else goes through the decoder.
    package static func parse(_ line: Substring) -> WorkerMessage? { parse(bytes: Array(line.utf8)) }

    /// Reads one line given as its bytes (without the newline): how the
    /// pool's reader gets it, so a message is never made a string first.
    package static func parse(bytes: [UInt8]) -> WorkerMessage? {
        if let fast = parseHandWritten(bytes) { return fast }
        return try? JSONDecoder().decode(WorkerMessage.self, from: Data(bytes))
    }

    /// `{"step":{"index":N,"step":{"action":"…","location":"…","screen":"…","tab":"…"},"task":N}}`,
    /// `{"running":{"index":N,"line":"…","task":N}}`,
    /// `{"start":{"index":N,"task":N}}`, `{"done":{"task":N}}`,
    /// `{"frame":{"index":N,"task":N,"frame":{…}}}`; nil for anything else
    /// (which the decoder then reads).
    static func parseHandWritten(_ bytes: [UInt8]) -> WorkerMessage? {
        var scanner = LineScanner(bytes: bytes)
        guard scanner.take("{\"") else { return nil }
        if scanner.take("step\":{\"index\":") {
            guard let index = scanner.integer(), scanner.take(",\"step\":{\"action\":"), let action = scanner.string(),
                scanner.take(",\"location\":"), let location = scanner.string()
            else { return nil }
            let scene = scanner.take(",\"scene\":") ? scanner.integer() : nil
            let screen = scanner.take(",\"screen\":") ? scanner.string() : nil
            let tab = scanner.take(",\"tab\":") ? scanner.string() : nil
            guard scanner.take("},\"task\":"), let task = scanner.integer(), scanner.take("}}"), scanner.atEnd else { return nil }
            return .step(
                task: task, index: index,
                step: TimelineStep(location: location, action: action, screen: screen, tab: tab, scene: scene))
        }
        if scanner.take("running\":{\"index\":") {
            guard let index = scanner.integer(), scanner.take(",\"line\":"), let text = scanner.string(),
                scanner.take(",\"task\":"), let task = scanner.integer(), scanner.take("}}"), scanner.atEnd
            else { return nil }
            return .running(task: task, index: index, line: text)
        }
        if scanner.take("start\":{\"index\":") {
            guard let index = scanner.integer(), scanner.take(",\"task\":"), let task = scanner.integer(),
                scanner.take("}}"), scanner.atEnd
            else { return nil }
            return .start(task: task, index: index)
        }
        if scanner.take("passed\":{\"duration\":") {
            guard let duration = scanner.number(), scanner.take(",\"index\":"), let index = scanner.integer(),
                scanner.take(",\"task\":"), let task = scanner.integer(), scanner.take("}}"), scanner.atEnd
            else { return nil }
            return .passed(task: task, index: index, duration: duration)
        }
        if scanner.take("frame\":{\"index\":") {
            guard let index = scanner.integer(), scanner.take(",\"task\":"), let task = scanner.integer(),
                scanner.take(",\"frame\":"), let json = scanner.rest(droppingSuffix: "}}")
            else { return nil }
            return .frame(task: task, index: index, frame: StreamedFrame(json: json))
        }
        if scanner.take("done\":{\"task\":") {
            guard let task = scanner.integer(), scanner.take("}}"), scanner.atEnd else { return nil }
            return .done(task: task)
        }
        return nil
    }
}

/// A cursor over one protocol line, for the hand-written messages.
private struct LineScanner {
    let bytes: [UInt8]
    var position = 0

    var atEnd: Bool { position == bytes.count }

    /// The bytes from here to the end less `suffix`, which they must end with.
    mutating func rest(droppingSuffix suffix: StaticString) -> [UInt8]? {
        let count = suffix.utf8CodeUnitCount
        guard bytes.count - position >= count else { return nil }
        let matches = suffix.withUTF8Buffer { buffer in
            buffer.indices.allSatisfy { bytes[bytes.count - count + $0] == buffer[$0] }
        }
        guard matches else { return nil }
        defer { position = bytes.count }
        return Array(bytes[position..<(bytes.count - count)])
    }

    mutating func take(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        let matches = literal.withUTF8Buffer { buffer in
            buffer.indices.allSatisfy { bytes[position + $0] == buffer[$0] }
        }
        if matches { position += count }
        return matches
    }

    mutating func integer() -> Int? {
        var value = 0
        let start = position
        while position < bytes.count, bytes[position] >= 48, bytes[position] <= 57 {
            value = value &* 10 &+ Int(bytes[position] - 48)
            position += 1
        }
        return position > start ? value : nil
    }

    /// A JSON number as Swift writes a `Double` (`0.00113`, `1e-05`, `3.0`).
    mutating func number() -> Double? {
        let start = position
        while position < bytes.count, let byte = Optional(bytes[position]),
            (byte >= 48 && byte <= 57) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
        {
            position += 1
        }
        guard position > start else { return nil }
        return Double(String(decoding: bytes[start..<position], as: UTF8.self))
    }

    /// A JSON string with the escapes ``JSONString/escaped(_:)`` writes.
    mutating func string() -> String? {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return nil }
        position += 1
        var out: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { return nil }
                let escaped = bytes[position]
                position += 1
                switch escaped {
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "r"): out.append(13)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "u"):
                    guard position + 4 <= bytes.count,
                        let code = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16),
                        let scalar = Unicode.Scalar(code)
                    else { return nil }
                    position += 4
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: out.append(escaped)
                }
            default:
                out.append(byte)
            }
        }
        return nil
    }
}
