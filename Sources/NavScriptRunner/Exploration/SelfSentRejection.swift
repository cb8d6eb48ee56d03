/// A request the app sent itself — a tap's destination, a flow's handoff —
/// that its own router refused (`reject <kind> <request>` right after
/// something other than a delivery, a dequeue or a resume). The user taps,
/// nothing opens, and nothing fails: the app built a request its manifest
/// does not accept (a parameter misnamed, a value the spec refuses).
///
/// Read from the event log every NavigationCore app shares: a refusal of a
/// link from outside follows its `deliver` at once (or its `dequeue`, or
/// the `resume` of a gated one); any other refusal is of the app's own
/// request.
enum SelfSentRejection {
    /// The reading of a log as it grows.
    struct Reader: EventLogReader {
        /// The first refusal of a request the app sent itself, once read.
        private(set) var refused: String?
        private var previous = ""

        mutating func read(_ events: ArraySlice<String>) {
            for event in events {
                defer { previous = event }
                guard refused == nil, event.hasPrefix("reject ") else { continue }
                if previous.hasPrefix("deliver ") || previous.hasPrefix("dequeue ") || previous.hasPrefix("resume ") { continue }
                refused = event
            }
        }
    }

    /// The first refusal of a request the app sent itself in `events`, if any.
    static func find(in events: ArraySlice<String>) -> String? {
        var reader = Reader()
        reader.read(events)
        return reader.refused
    }

    static func message(_ event: String) -> String {
        "the app refused a request it sent itself (\(event)): what the app builds must meet its own manifest"
    }

    /// The property as Lua, for a reproducer's end: the same reading of the same log.
    static let luaAssertion: [String] = [
        "-- a request the app sends itself is never refused",
        "local previous = \"\"",
        "for _, e in ipairs(events()) do",
        "  if e:match(\"^reject \") then",
        "    local outside = previous:match(\"^deliver \") or previous:match(\"^dequeue \") or previous:match(\"^resume \")",
        "    assert(outside, \"the app refused a request it sent itself: \" .. e)",
        "  end",
        "  previous = e",
        "end"
    ]
}
