import Foundation
import NavScriptRuntime

/// A storyboard frame as a worker streams it: the JSON of a ``StepFrame``,
/// written by hand and kept undecoded by the parent, which decodes it only
/// when the storyboard is drawn (a crashed or timed-out scenario's).
///
/// Why: with `--html` a worker sends a frame after every step, and a
/// JSONEncoder on one side and a JSONDecoder on the other made a
/// 100,000-step scenario eight times slower through a worker than in
/// process. The keys are the synthesized Codable keys, so either decoder
/// reads the JSON.
package struct StreamedFrame: Hashable, Sendable, Codable {
    package let json: [UInt8]

    package init(_ frame: StepFrame) {
        var line = JSONLine(capacity: 512)
        line.stepFrame(frame)
        json = line.bytes
    }

    package init(json: [UInt8]) { self.json = json }

    package var frame: StepFrame? { try? JSONDecoder().decode(StepFrame.self, from: Data(json)) }

    // The Codable form is the frame's own (read by a decoder that is not the hand-written one).
    package init(from decoder: any Decoder) throws { self.init(try StepFrame(from: decoder)) }

    package func encode(to encoder: any Encoder) throws {
        guard let frame else {
            throw EncodingError.invalidValue(json, .init(codingPath: encoder.codingPath, debugDescription: "not a frame"))
        }
        try frame.encode(to: encoder)
    }
}

extension JSONLine {
    /// Appends `frame` as the JSON object its synthesized Codable form writes.
    mutating func stepFrame(_ frame: StepFrame) {
        raw(#"{"number":"#)
        integer(frame.number)
        raw(#","location":"#)
        string(frame.location)
        raw(#","action":"#)
        string(frame.action)
        raw(#","selectedTab":"#)
        string(frame.selectedTab)
        raw(#","tabs":"#)
        tabs(frame.tabs)
        raw(#","modals":"#)
        stacks(frame.modals)
        raw(#","coordinators":"#)
        strings(frame.coordinators)
        raw(#","events":"#)
        strings(frame.events)
        raw(#","leaks":["#)
        for (index, leak) in frame.leaks.enumerated() {
            if index > 0 { raw(",") }
            raw(#"{"label":"#)
            string(leak.label)
            raw(#","kind":"#)
            string(leak.kind)
            raw(#","leftDuring":"#)
            string(leak.leftDuring)
            raw("}")
        }
        raw(#"],"problems":["#)
        for (index, problem) in frame.problems.enumerated() {
            if index > 0 { raw(",") }
            raw(#"{"kind":"#)
            string(problem.kind)
            raw(#","message":"#)
            string(problem.message)
            raw(#","details":"#)
            string(problem.details)
            raw("}")
        }
        raw(#"],"windows":["#)
        for (index, window) in frame.windows.enumerated() {
            if index > 0 { raw(",") }
            raw(#"{"number":"#)
            integer(window.number)
            raw(window.inFront ? #","inFront":true"# : #","inFront":false"#)
            raw(#","selectedTab":"#)
            string(window.selectedTab)
            raw(#","tabs":"#)
            tabs(window.tabs)
            raw(#","modals":"#)
            stacks(window.modals)
            raw("}")
        }
        raw("]")
        if let omitted = frame.framesLeftOutBefore {
            raw(#","framesLeftOutBefore":"#)
            integer(omitted)
        }
        raw("}")
    }

    private mutating func strings(_ values: [String]) {
        raw("[")
        for (index, value) in values.enumerated() {
            if index > 0 { raw(",") }
            string(value)
        }
        raw("]")
    }

    private mutating func stacks(_ stacks: [[String]]) {
        raw("[")
        for (index, stack) in stacks.enumerated() {
            if index > 0 { raw(",") }
            strings(stack)
        }
        raw("]")
    }

    private mutating func tabs(_ tabs: [StepFrame.Tab]) {
        raw("[")
        for (index, tab) in tabs.enumerated() {
            if index > 0 { raw(",") }
            raw(#"{"name":"#)
            string(tab.name)
            raw(#","stack":"#)
            strings(tab.stack)
            raw("}")
        }
        raw("]")
    }
}
