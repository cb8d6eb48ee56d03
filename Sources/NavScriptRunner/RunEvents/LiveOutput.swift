import NavScriptRuntime

/// What one scenario printed, as a run sees it while the scenario runs:
/// kept as its result will keep it (its head and tail around a line saying
/// how much was left out, ``BoundedOutput``), and passed on to the live
/// event stream up to the head's size, then once a line saying the rest is
/// held back.
///
/// Why both: a worker streams every print, so a scenario that crashes or
/// times out after printing megabytes still has its last lines — the ones
/// printed right before it died — in its report; the live stream stays
/// bounded however much a scenario prints.
package struct LiveOutput {
    package private(set) var kept = BoundedOutput()
    private var published = 0
    private var saidHeldBack = false

    package init() {}

    /// Keeps `text`; returns what to publish live now (nil: nothing).
    package mutating func take(_ text: String) -> String? {
        kept.append(text)
        if !saidHeldBack, published + text.utf8.count <= TextCap.output / 2 {
            published += text.utf8.count
            return text
        }
        guard !saidHeldBack else { return nil }
        saidHeldBack = true
        return Self.heldBack
    }

    /// The line the live stream gets once, where it stops.
    package static let heldBack =
        "… (more output than the live stream carries: the rest is held back; the scenario's result keeps its head and tail) …\n"
}
