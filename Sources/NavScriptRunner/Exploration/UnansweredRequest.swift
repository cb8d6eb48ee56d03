import NavigationCore

/// A request a gate held whose gate's flow has ended, yet which was neither
/// resumed nor dropped: it vanished. The user signed in (or gave up) and the
/// cart they asked for never opened — and nothing failed, because no
/// property looked at a resume that never happened.
///
/// Read from the app's event log, the vocabulary every NavigationCore app
/// shares: `gate P R` holds request R for precondition P; the flow the gate
/// brings up is the next `start PATH` before anything else is delivered
/// (or, when P's flow is already up, that one: the request joins it; a
/// `join-gate P` joins a flow this log did not see start, so not known);
/// `finish PATH …` or `release PATH` ends the flow; `resume R` or `drop R`
/// answers R's oldest waiter. A waiter whose flow is not known is never
/// reported, nor one of a request held by two different gates that a
/// `drop` answered (which one it answered is not said), nor one whose
/// flow's path was started again while it was alive (two windows each
/// with a sign-in flow at `app/auth`: which one ended is not said): a
/// missed finding costs less than a false one.
struct UnansweredRequest: Equatable {
    var request: String
    var precondition: String
    var flow: String

    private struct Waiter {
        var request: String
        var precondition: String
        var flow: String?
    }

    /// The first request left unanswered after its gate's flow ended, if any.
    static func find(in events: [String]) -> UnansweredRequest? {
        var reader = Reader()
        reader.read(events[...])
        return reader.unanswered
    }

    /// The reading of a log as it grows: what ``find(in:)`` concludes from
    /// every event read so far, without reading the first ones again.
    /// Exploration asks after every step that ended a flow, and reading the
    /// whole log each time made a step's cost grow with its walk.
    struct Reader: EventLogReader {
        private var waiting: [Waiter] = []
        private var ended: Set<String> = []
        private var started: Set<String> = []
        private var ambiguous: Set<String> = []  // started again while alive
        private var flowOf: [String: String] = [:]
        private var awaiting: Int?  // the waiter whose flow the next `start` is
        // With several windows, each has its own flows at the same paths (`app/auth` in
        // both): a flow that ended cannot be told from another window's that did not.
        private var severalWindows = false

        /// Reads the events that follow those already read.
        mutating func read(_ events: ArraySlice<String>) {
            for event in events { read(event) }
        }

        private mutating func read(_ event: String) {
            if event.hasPrefix("scene-open ") {
                severalWindows = true
            } else if event.hasPrefix("gate ") {
                let rest = event.dropFirst("gate ".count)
                let precondition = String(rest.prefix { $0 != " " })
                let request = String(rest.dropFirst(precondition.count + 1))
                if let current = flowOf[precondition], !ended.contains(current) {
                    waiting.append(Waiter(request: request, precondition: precondition, flow: current))
                    awaiting = nil
                } else {
                    waiting.append(Waiter(request: request, precondition: precondition, flow: nil))
                    awaiting = waiting.count - 1
                }
            } else if event.hasPrefix("start ") {
                let path = String(event.dropFirst("start ".count))
                if started.contains(path) && !ended.contains(path) { ambiguous.insert(path) }
                started.insert(path)
                ended.remove(path)  // a new flow at the path of one that ended
                if let index = awaiting {
                    waiting[index].flow = path
                    flowOf[waiting[index].precondition] = path
                    awaiting = nil
                }
            } else if event.hasPrefix("finish ") {
                ended.insert(String(event.dropFirst("finish ".count).prefix { $0 != " " }))
            } else if event.hasPrefix("release ") {
                ended.insert(String(event.dropFirst("release ".count)))
            } else if event.hasPrefix("join-gate ") {
                awaiting = nil  // it joined a flow already up: the next `start` is not its flow
            } else if event.hasPrefix("resume ") || event.hasPrefix("drop ") || event.hasPrefix("deliver ") {
                awaiting = nil
                let dropped = event.hasPrefix("drop ")
                guard !event.hasPrefix("deliver ") else { return }
                let request = String(event.drop { $0 != " " }.dropFirst())
                let mine = waiting.indices.filter { waiting[$0].request == request }
                guard let first = mine.first else { return }
                if dropped && Set(mine.map { waiting[$0].precondition }).count > 1 {
                    for index in mine.reversed() { waiting.remove(at: index) }
                } else {
                    waiting.remove(at: first)
                }
            }
        }

        /// The first request left unanswered after its gate's flow ended, in what was read.
        var unanswered: UnansweredRequest? {
            guard !severalWindows else { return nil }
            for waiter in waiting {
                if let flow = waiter.flow, ended.contains(flow), !ambiguous.contains(flow) {
                    return UnansweredRequest(request: waiter.request, precondition: waiter.precondition, flow: flow)
                }
            }
            return nil
        }
    }

    /// A ``Reader`` kept with the log it reads, for an exploration's steps.
    typealias LogReading = EventLogReading<Reader>

    var message: String {
        "\(request) was held by the gate \(precondition) and its flow \(flow) ended, but it was never resumed or dropped"
    }

    /// The property as Lua, for a reproducer's end: the same reading of the
    /// same event log, so it holds on a healthy app whatever else the walk did.
    static let luaAssertion: [String] = [
        "-- every request a gate held is resumed or dropped once the gate's flow has ended",
        "local waiting, ended, started, ambiguous, flow_of, awaiting, several = {}, {}, {}, {}, {}, nil, false",
        "for _, e in ipairs(events()) do",
        "  local p, r = e:match(\"^gate (%S+) (.+)$\")",
        "  if e:match(\"^scene%-open \") then",
        "    several = true",
        "  elseif p then",
        "    local w = { request = r, precondition = p }",
        "    local current = flow_of[p]",
        "    if current and not ended[current] then w.flow = current; awaiting = nil else awaiting = w end",
        "    waiting[#waiting + 1] = w",
        "  elseif e:match(\"^start \") then",
        "    local path = e:sub(7)",
        "    if started[path] and not ended[path] then ambiguous[path] = true end",
        "    started[path] = true",
        "    ended[path] = nil",
        "    if awaiting then awaiting.flow = path; flow_of[awaiting.precondition] = path; awaiting = nil end",
        "  elseif e:match(\"^finish \") then",
        "    ended[e:match(\"^finish (%S+)\")] = true",
        "  elseif e:match(\"^release \") then",
        "    ended[e:sub(9)] = true",
        "  elseif e:match(\"^deliver \") or e:match(\"^join%-gate \") then",
        "    awaiting = nil",
        "  else",
        "    local dropped, resumed = e:match(\"^drop (.+)$\"), e:match(\"^resume (.+)$\")",
        "    local request = dropped or resumed",
        "    if request then",
        "      awaiting = nil",
        "      local mine, kinds, distinct = {}, {}, 0",
        "      for i, w in ipairs(waiting) do",
        "        if w.request == request then",
        "          mine[#mine + 1] = i",
        "          if not kinds[w.precondition] then kinds[w.precondition] = true; distinct = distinct + 1 end",
        "        end",
        "      end",
        "      if #mine > 0 then",
        "        if dropped and distinct > 1 then",
        "          for k = #mine, 1, -1 do table.remove(waiting, mine[k]) end",
        "        else",
        "          table.remove(waiting, mine[1])",
        "        end",
        "      end",
        "    end",
        "  end",
        "end",
        "for _, w in ipairs(waiting) do",
        "  assert(several or not (w.flow and ended[w.flow] and not ambiguous[w.flow]), w.request .. \" was held by the gate \" .. w.precondition",
        "    .. \" and its flow \" .. tostring(w.flow) .. \" ended, but it was never resumed or dropped\")",
        "end"
    ]
}

extension EventLogReading<UnansweredRequest.Reader> {
    /// What ``UnansweredRequest/find(in:)`` finds in `log`'s kept events now.
    func unanswered(in log: EventLog) -> UnansweredRequest? { read(log).unanswered }
}
