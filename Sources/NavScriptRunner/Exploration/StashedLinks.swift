import NavigationCore

/// Links an app held during its cold start (`stash <entry> <input>`) that
/// were never delivered (`deliver <entry> <input>`) though the app is up —
/// in its main flow, settled, with nothing presented (an app may hold its
/// links until a sheet it put up first is answered: the sign-in an expiry
/// presents). The link a user tapped to open the app is
/// dropped on the floor: the app opens at home, and nothing fails, because
/// no property looked for a delivery that never happened.
///
/// Read from the event log every NavigationCore app shares, as it grows
/// (``EventLogReading``); a stash is answered by the oldest later delivery of the
/// same input through the same door. Not judged once a second window opened:
/// the app is up in a window of its own while the first may still be in
/// onboarding, which its held links rightly wait for.
enum StashedLinks {
    /// The reading of a log as it grows.
    struct Reader: EventLogReader {
        private(set) var held: [String] = []
        private(set) var severalWindows = false

        /// The links held and not delivered, when they are judged (one window).
        var undelivered: [String] { severalWindows ? [] : held }

        mutating func read(_ events: ArraySlice<String>) {
            for event in events {
                if event.hasPrefix("scene-open ") {
                    severalWindows = true
                } else if event.hasPrefix("stash ") {
                    held.append(String(event.dropFirst("stash ".count)))
                } else if event.hasPrefix("deliver "), !held.isEmpty {
                    let link = event.dropFirst("deliver ".count)
                    if let index = held.firstIndex(where: { $0 == link }) { held.remove(at: index) }
                }
            }
        }
    }

    static func message(_ held: [String]) -> String {
        "the app is up (main flow, settled) but never delivered what it held during its cold start: "
            + held.map { "stash \($0)" }.joined(separator: ", ")
    }

    /// The property as Lua, for a reproducer's end: the same reading of the same log.
    static let luaAssertion: [String] = [
        "-- every link held during the cold start is delivered once the app is up",
        "local held, several = {}, false",
        "for _, e in ipairs(events()) do",
        "  local stashed, delivered = e:match(\"^stash (.+)$\"), e:match(\"^deliver (.+)$\")",
        "  if e:match(\"^scene%-open \") then",
        "    several = true",
        "  elseif stashed then",
        "    held[#held + 1] = stashed",
        "  elseif delivered then",
        "    for i, link in ipairs(held) do if link == delivered then table.remove(held, i) break end end",
        "  end",
        "end",
        "local now = snapshot()",
        "assert(several or #held == 0 or now.root ~= \"main\" or #now.modals > 0, \"held during the cold start and never delivered: \" .. table.concat(held, \", \"))"
    ]
}
