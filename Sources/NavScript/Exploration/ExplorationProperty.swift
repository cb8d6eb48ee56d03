/// What exploration checks after every step, and the name a violation is
/// reported and shrunk under.
enum ExplorationProperty: Hashable, CustomStringConvertible {
    /// One of the invariants checked after every scenario.
    case invariant(String)
    /// A link delivered with `proceed` lands on its destination's canonical stack.
    case canonicalLanding
    /// The same link gives the same outcome through every entry point.
    case sameOutcome
    /// A restart with restoration brings the navigation back as it was.
    case restoration
    /// The app crashed or hung.
    case noCrash

    var description: String {
        switch self {
        case .invariant(let name): return "invariant '\(name)'"
        case .canonicalLanding: return "a deep link lands on its destination's canonical stack"
        case .sameOutcome: return "the same link gives the same outcome through every entry point"
        case .restoration: return "a restored app equals the archived state"
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
