/// The most of a message or its details a scenario's result keeps, from
/// each end, with what was left out said. Why at the source: an
/// `error(string.rep("e", 3e7))` made a 30 MB JUnit text node xmllint
/// refuses, and every reporter (and the JSON stream) carried all of it.
package enum TextCap {
    /// A message: one line to read, a few kilobytes at most.
    package static let message = 16_384
    /// Details: diffs and tracebacks.
    package static let details = 262_144
    /// What one scenario printed (see ``BoundedOutput``). Why 1 MiB: XML
    /// readers refuse a text node over 10 MB unless told otherwise.
    package static let output = 1 << 20
    /// One step's action in the timeline (a link of 10 MB is shown by its ends).
    package static let step = 4_096

    /// ``capped(_:to:)`` after a check that costs nothing for the short
    /// texts almost every call sees (the UTF-8 count of a native string is
    /// stored; the character count is a walk).
    package static func bounded(_ text: String, to limit: Int) -> String {
        text.utf8.count > limit ? capped(text, to: limit) : text
    }

    /// What a user gave, echoed inside a one-line message (an 80 KB
    /// `--filter`, a 400 KB pattern in a manifest): its first 100 and last
    /// 60 characters around `…` when it is longer than 200.
    package static func echoed(_ text: String) -> String {
        guard text.utf8.count > 200, text.count > 200 else { return text }
        return String(text.prefix(100)) + "…" + String(text.suffix(60))
    }

    /// `text`, or its first and last `limit`/2 characters around a line
    /// saying how many were left out.
    package static func capped(_ text: String, to limit: Int) -> String {
        // No more bytes than the limit, no more characters either: counting Characters walks the
        // whole text, and every scenario's message and details come through here.
        guard text.utf8.count > limit else { return text }
        let count = text.count
        guard count > limit else { return text }
        let half = limit / 2
        return String(text.prefix(half)) + "\n… (\(count - 2 * half) characters left out here) …\n" + String(text.suffix(half))
    }
}
