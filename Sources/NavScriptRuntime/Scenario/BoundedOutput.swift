/// What a scenario printed, kept in bounded memory: its first and last
/// ``TextCap/output``/2 bytes, and how many bytes between were left out.
///
/// Why at the source: a scenario printing 100 KB in a loop grew the worker
/// and the run by gigabytes and kept the run from stopping — every report
/// held all of it before capping it. Only the head is streamed as it is
/// printed (``append(_:)`` says which text that is); the tail is known
/// when the scenario ends.
package struct BoundedOutput {
    private let half: Int
    private(set) var head = ""
    private var tail = ""
    /// Bytes printed after the head and no longer in the tail.
    private(set) var leftOut = 0

    package init(limit: Int = TextCap.output) { half = max(1, limit / 2) }

    package var isEmpty: Bool { head.isEmpty && tail.isEmpty && leftOut == 0 }

    /// Appends `text`; true when all of it went into the head (what a
    /// stream of the output may still send).
    @discardableResult
    package mutating func append(_ text: String) -> Bool {
        if tail.isEmpty && leftOut == 0 && head.utf8.count + text.utf8.count <= half {
            head += text
            return true
        }
        tail += text
        // Trimmed once it holds twice what is kept: each byte is copied a bounded number of times.
        if tail.utf8.count > 2 * half {
            let (kept, dropped) = Self.last(half, of: tail)
            tail = kept
            leftOut += dropped
        }
        return false
    }

    /// The output as a result keeps it: all of it, or its head and tail
    /// around a line saying how much was left out.
    package var text: String {
        guard leftOut > 0 || tail.utf8.count > half else { return head + tail }
        let (kept, dropped) = Self.last(half, of: tail)
        let cut = head.hasSuffix("\n") || head.isEmpty ? "" : "\n"
        return head + cut + "… (\(leftOut + dropped) bytes of output left out here) …\n" + kept
    }

    /// The last `bytes` bytes of `text` starting on a whole character, and how many bytes went.
    private static func last(_ bytes: Int, of text: String) -> (String, Int) {
        guard text.utf8.count > bytes else { return (text, 0) }
        let utf8 = text.utf8
        var start = utf8.index(utf8.endIndex, offsetBy: -bytes)
        while start < utf8.endIndex, UTF8.isContinuation(utf8[start]) { utf8.formIndex(after: &start) }
        return (String(text.unicodeScalars[start...]), utf8.distance(from: utf8.startIndex, to: start))
    }
}
