import NavScript
import NavScriptRuntime
import NavigationCore

/// One thing a walk can do, as the line of Lua that does it and the
/// coverage it earns.
struct ExplorationAction: Hashable {
    /// The line, exactly as a reproducer will contain it.
    var lua: String
    /// What doing it covers (`tap home.product`, `link product/:id via push`).
    var coverage: String
    /// A delivered link whose landing is checked against its canonical target.
    var link: Link?
    /// A restart that restores: the state must come back as it was.
    var restoresState = false
    /// A restart that does not restore: every tab must start at its root.
    var startsFresh = false
    /// A tap of an output that declares the destination it opens, with the arguments tapped: where
    /// it lands is checked against that declaration.
    var tap: Tap?
    /// A link action whose values are drawn, and whose line is written, only
    /// if it is picked (``ActionSpace/rendered(_:generator:)``): drawing and
    /// writing every candidate link at every step was a third of a walk's
    /// time. Nil for an action ready to run.
    var unrendered: Unrendered?

    /// A tapped output and the arguments the tap gave.
    struct Tap: Hashable {
        var output: ScreenOutput
        var arguments: [String: String]
    }

    /// The random choices of a link action made so far.
    enum Unrendered: Hashable {
        /// A tap of the visible screen's output as the app wired it, its
        /// arguments not drawn yet.
        case tap(ScreenOutput)
        /// A link through a door.
        case link(LinkChoice)
        /// A link the system opens in a window that is not in front.
        case linkInScene(LinkChoice, scene: Int)
        /// A second link arriving while the first still executes.
        case twoLinks(LinkChoice, LinkChoice)
    }

    /// A link's pattern and door, its values not drawn yet.
    struct LinkChoice: Hashable {
        /// The pattern's place in ``ActionSpace/patterns``.
        var pattern: Int
        var entry: EntryPoint
    }

    struct Link: Hashable {
        var input: EntryInput
        var entry: EntryPoint
        /// The same link spelled with the app's scheme, for `expect_same_outcome`.
        var schemeURL: String?
        /// The window the system opened it in (`deep_link(…, { scene = n })`):
        /// it must land there, whichever window is in front.
        var scene: Int?
        /// The second of two links, delivered while the first was still
        /// executing: it must land as if alone (the dispatcher queues it),
        /// but the first may have changed other tabs.
        var followsAnother = false
    }
}

/// Lua source for the explorer's reproducers.
extension LuaSource {
    /// A table literal of string fields, keys sorted (`{ route = "cart" }`).
    static func table(_ fields: [String: String]) -> String {
        let items = fields.sorted { $0.key < $1.key }.map { key, value in "\(fieldName(key)) = \(string(value))" }
        return "{ " + items.joined(separator: ", ") + " }"
    }

    /// A table key as written before `=`: the name when it is one, `["…"]` otherwise.
    static func fieldName(_ key: String) -> String {
        key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") } && !(key.first?.isNumber ?? true)
            ? key : "[\(string(key))]"
    }

    /// How `deep_link` is given an input.
    static func input(_ input: EntryInput) -> String {
        switch input {
        case .url(let url): return string(url)
        case .payload(let payload): return table(payload)
        case .activity(let type, let info): return table(info.merging(["activity_type": type]) { first, _ in first })
        }
    }
}
