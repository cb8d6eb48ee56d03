import NavScript
import NavScriptRuntime

/// What exploration checks after every step, and the name a violation is
/// reported and shrunk under.
enum ExplorationProperty: Hashable, CustomStringConvertible {
    /// One of the invariants checked after every scenario.
    case invariant(String)
    /// A link delivered with `proceed` lands on its destination's canonical stack.
    case canonicalLanding
    /// The same link gives the same outcome through every entry point.
    case sameOutcome
    /// Equivalent spellings of one link (scheme or host in capitals, a
    /// letter percent-encoded) give the same outcome through each door.
    case equivalentSpellings
    /// A gated request resumed after its precondition was satisfied lands
    /// where it would have landed with it satisfied — it is not gated by
    /// the same precondition again.
    case gateResume
    /// A resumed request is resolved again against the state its gate left,
    /// not replayed from a destination computed before the gate (which
    /// skips a second, chained precondition).
    case resumeResolves
    /// Every request a gate held is resumed or dropped once the gate's flow has ended.
    case requestAnswered
    /// A gate's flow reports success only once its precondition holds (a
    /// sign-in that says "completed" before the session is stored makes the
    /// waiting request loop or land by luck of timing).
    case gateCompletion
    /// A flow a gate presented does not stay up once its precondition holds
    /// (signed in in another window, its sheet must go and its requests resume).
    case gateFlowEnds
    /// A link delivered while the app is in a root flow other than its main
    /// one (onboarding) waits for it: it does not end that flow.
    case rootFlowKept
    /// A restart with restoration brings the tab and every stack back as they were.
    case restoration
    /// A restart without restoration starts every tab at its root, with no modal up.
    case freshStart
    /// A link changes only the stack of its own tab: the tabs the user left stay as they were.
    case otherTabsKept
    /// A link whose parameter values meet their specs is not refused as invalid.
    case validValuesAccepted
    /// Every link held during the cold start is delivered once the app is up.
    case stashedDelivered
    /// A request the app sends itself is never refused by its own router.
    case selfSentAccepted
    /// Closing the window in front brings the one used most recently forward.
    case focusAfterClose
    /// A tap of an output that declares the destination it opens (`ScreenOutput(…, opens:)`) shows
    /// that destination, with the tap's arguments, unless a gate holds it or the router refuses it.
    case tapOpens
    /// What a host verb declares it ensures holds after the call.
    case postcondition(String)
    /// The app crashed or hung.
    case noCrash

    var description: String {
        switch self {
        case .invariant(let name): return "invariant '\(name)'"
        case .canonicalLanding: return "a deep link lands on its destination's canonical stack"
        case .sameOutcome: return "the same link gives the same outcome through every entry point"
        case .equivalentSpellings: return "equivalent spellings of a link give the same outcome"
        case .gateResume: return "a request resumed after its gate was satisfied is not gated by it again"
        case .resumeResolves: return "a resumed request is resolved again, not replayed from before its gate"
        case .requestAnswered: return "every request a gate held is resumed or dropped once the gate's flow has ended"
        case .gateCompletion: return "a gate's flow reports success only once its precondition holds"
        case .gateFlowEnds: return "a gate's flow ends once its precondition holds"
        case .rootFlowKept: return "a link waits for the flow the app is in (onboarding) instead of ending it"
        case .restoration: return "a restored app has the archived tab and stacks"
        case .freshStart: return "a restart without restoration starts every tab at its root"
        case .otherTabsKept: return "a link leaves the other tabs' stacks as they were"
        case .validValuesAccepted: return "a link whose parameter values meet their specs is not refused as invalid"
        case .stashedDelivered: return "every link held during the cold start is delivered once the app is up"
        case .selfSentAccepted: return "a request the app sends itself is never refused"
        case .focusAfterClose: return "closing the window in front brings the one used most recently forward"
        case .tapOpens: return "a tap opens the destination its output declares"
        case .postcondition(let verb): return "\(verb) does what it ensures"
        case .noCrash: return "every input gets an outcome (no trap, no hang)"
        }
    }
}

/// A property that did not hold, at a step of a walk.
struct ExplorationViolation {
    var property: ExplorationProperty
    /// Index of the offending line in the walk.
    var step: Int
    var message: String
    /// Lua lines that assert the property at the end of a reproducer.
    var assertion: [String]
}
