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
        array(frame.modals) { $0.strings($1) }
        raw(#","coordinators":"#)
        strings(frame.coordinators)
        raw(#","events":"#)
        strings(frame.events)
        raw(#","leaks":"#)
        array(frame.leaks) { line, leak in
            line.raw(#"{"label":"#)
            line.string(leak.label)
            line.raw(#","kind":"#)
            line.string(leak.kind)
            line.raw(#","leftDuring":"#)
            line.string(leak.leftDuring)
            line.raw("}")
        }
        raw(#","problems":"#)
        array(frame.problems) { line, problem in
            line.raw(#"{"kind":"#)
            line.string(problem.kind)
            line.raw(#","message":"#)
            line.string(problem.message)
            line.raw(#","details":"#)
            line.string(problem.details)
            line.raw("}")
        }
        raw(#","windows":"#)
        array(frame.windows) { line, window in
            line.raw(#"{"number":"#)
            line.integer(window.number)
            line.raw(window.inFront ? #","inFront":true"# : #","inFront":false"#)
            line.raw(#","selectedTab":"#)
            line.string(window.selectedTab)
            line.raw(#","tabs":"#)
            line.tabs(window.tabs)
            line.raw(#","modals":"#)
            line.array(window.modals) { $0.strings($1) }
            line.raw("}")
        }
        if let omitted = frame.framesLeftOutBefore {
            raw(#","framesLeftOutBefore":"#)
            integer(omitted)
        }
        raw("}")
    }

    /// `[a,b,…]`, each element written by `write`.
    private mutating func array<Element>(_ elements: [Element], _ write: (inout JSONLine, Element) -> Void) {
        raw("[")
        for (index, element) in elements.enumerated() {
            if index > 0 { raw(",") }
            write(&self, element)
        }
        raw("]")
    }

    private mutating func strings(_ values: [String]) {
        array(values) { $0.string($1) }
    }

    private mutating func tabs(_ tabs: [StepFrame.Tab]) {
        array(tabs) { line, tab in
            line.raw(#"{"name":"#)
            line.string(tab.name)
            line.raw(#","stack":"#)
            line.strings(tab.stack)
            line.raw("}")
        }
    }
}
