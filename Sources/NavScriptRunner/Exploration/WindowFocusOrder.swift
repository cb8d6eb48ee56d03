import NavigationCore

/// Which window comes to the front when the one in front closes: the one
/// used most recently before it — as every window system does — read from
/// the event log (`scene-open`, `scene-focus`, `scene-close`; the app starts
/// with window 1 in front, a restored one with the window `scene-restore` names). A slip that brings the oldest window forward
/// instead passes every check that looks at one window at a time.
enum WindowFocusOrder {
    /// The reading of a log as it grows.
    struct Reader: EventLogReader {
        /// Windows by last use, the one in front last.
        private(set) var order = [1]
        /// Set when a close of the window in front was followed by another window's focus than the one expected.
        private(set) var wrong: (closed: Int, focused: Int, expected: Int)?
        private var closedFront: (closed: Int, expected: Int)?

        mutating func read(_ events: ArraySlice<String>) {
            for event in events {
                let number = Int(event.split(separator: " ").last ?? "")
                if let pending = closedFront {
                    closedFront = nil
                    if event.hasPrefix("scene-focus "), let number, number != pending.expected, wrong == nil {
                        wrong = (pending.closed, number, pending.expected)
                    }
                }
                guard let number else { continue }
                if event.hasPrefix("scene-restore ") {
                    order = [number]
                } else if event.hasPrefix("scene-open ") || event.hasPrefix("scene-focus ") {
                    order.removeAll { $0 == number }
                    order.append(number)
                } else if event.hasPrefix("scene-close ") {
                    let wasFront = order.last == number
                    order.removeAll { $0 == number }
                    if wasFront, let next = order.last { closedFront = (number, next) }
                }
            }
        }
    }

    static func message(_ wrong: (closed: Int, focused: Int, expected: Int)) -> String {
        "window \(wrong.closed) closed while in front and window \(wrong.focused) came forward, "
            + "not window \(wrong.expected), the one used most recently"
    }

    /// The property as Lua, for a reproducer's end: the same reading of the same log.
    static let luaAssertion: [String] = [
        "-- closing the window in front brings the one used most recently forward",
        "local order, expected = { 1 }, nil",
        "local function remove(n) for i = #order, 1, -1 do if order[i] == n then table.remove(order, i) end end end",
        "for _, e in ipairs(events()) do",
        "  local kind, n = e:match(\"^scene%-(%a+) (%d+)$\")",
        "  n = tonumber(n)",
        "  if expected and kind == \"focus\" then",
        "    assert(n == expected, \"window \" .. n .. \" came forward after a close, not window \" .. expected)",
        "  end",
        "  expected = nil",
        "  if kind == \"restore\" then",
        "    order = { n }",
        "  elseif kind == \"open\" or kind == \"focus\" then",
        "    remove(n); order[#order + 1] = n",
        "  elseif kind == \"close\" then",
        "    local front = order[#order] == n",
        "    remove(n)",
        "    if front then expected = order[#order] end",
        "  end",
        "end"
    ]
}
