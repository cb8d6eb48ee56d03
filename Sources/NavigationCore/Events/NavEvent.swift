/// Every decision and side effect of the core, in one stable vocabulary.
///
/// This enum is the single place the vocabulary is defined: scenarios match
/// on the rendered ``text`` (`expect_events{ "gate auth account", "session-commit" }`
/// matches an event exactly or by its leading words), so the words are a
/// public contract. ``vocabulary`` lists every form with its meaning (the
/// scenario language's reference is generated from it); apps add their own
/// events through ``AppEvent``.
public enum NavEvent: Hashable, Sendable, CustomStringConvertible {
    case deliver(EntryPoint, String)
    case resolveProceed(RouteRequest)
    case resolveGated(RouteRequest, Precondition)
    case reject(kind: String, input: String)
    case queue(RouteRequest)
    case dequeue(RouteRequest)
    case gate(Precondition, RouteRequest)
    /// A gated request joined the flow already satisfying its precondition.
    case joinGate(Precondition)
    case resume(RouteRequest)
    case drop(RouteRequest)
    case loopGuard(RouteRequest, Precondition, count: Int)
    case execute(RouteStep, RouteSource)
    case selectTab(TabID)
    case push(String)
    case pop(String)
    case popTo(String)
    case setStack(TabID, [String])
    case update(String)
    case present(String)
    case presentRejected(String)
    case dismiss(String)
    case swipeCancelled(String)
    case willDisappear(String)
    case sessionCommit
    case sessionClear
    case sessionExpire
    case start(String)
    case finish(String, FlowResult)
    case release(String)
    case dealloc(String)
    /// A link held during a cold start until the root is up.
    case stash(EntryPoint, String)
    /// A flow was asked for a screen it does not build.
    case cannotBuild(String, RouteStep)
    /// A modal chain named a destination no modal flow presents.
    case noModalFlow(RouteStep)
    /// Nothing in the app can satisfy a precondition.
    case unsatisfiable(Precondition)
    /// The platform noticed a misuse it carries on from (SwiftUI's runtime warnings).
    case warning(PlatformWarning)
    /// A window (scene) opened, came to the foreground, or closed.
    case sceneOpen(Int)
    case sceneFocus(Int)
    case sceneClose(Int)
    /// A restored run's first window came back under its own number (not 1), in front.
    case sceneRestore(Int)
    /// An event of the app's own vocabulary.
    case app(any AppEvent)

    /// Whether the app took a link in: delivered it to its dispatcher, or
    /// stashed it during a cold start until its root is up.
    public var receivesLink: Bool {
        switch self {
        case .deliver, .stash: return true
        default: return false
        }
    }

    public var text: String {
        switch self {
        case .deliver(let entry, let input): return "deliver \(entry) \(input)"
        case .resolveProceed(let request): return "resolve \(request) proceed"
        case .resolveGated(let request, let precondition): return "resolve \(request) gated \(precondition)"
        case .reject(let kind, let input): return "reject \(kind) \(input)"
        case .queue(let request): return "queue \(request)"
        case .dequeue(let request): return "dequeue \(request)"
        case .gate(let precondition, let request): return "gate \(precondition) \(request)"
        case .joinGate(let precondition): return "join-gate \(precondition)"
        case .resume(let request): return "resume \(request)"
        case .drop(let request): return "drop \(request)"
        case .loopGuard(let request, let precondition, let count): return "loop-guard \(request) \(precondition) \(count)"
        case .execute(let leaf, let source): return "execute \(leaf) \(source.rawValue)"
        case .selectTab(let tab): return "select-tab \(tab)"
        case .push(let screen): return "push \(screen)"
        case .pop(let screen): return "pop \(screen)"
        case .popTo(let screen): return "pop-to \(screen)"
        case .setStack(let tab, let screens): return (["set-stack", tab.rawValue] + screens).joined(separator: " ")
        case .update(let screen): return "update \(screen)"
        case .present(let screen): return "present \(screen)"
        case .presentRejected(let screen): return "present-rejected \(screen)"
        case .dismiss(let screen): return "dismiss \(screen)"
        case .swipeCancelled(let screen): return "swipe-cancelled \(screen)"
        case .willDisappear(let screen): return "will-disappear \(screen)"
        case .sessionCommit: return "session-commit"
        case .sessionClear: return "session-clear"
        case .sessionExpire: return "session-expire"
        case .start(let path): return "start \(path)"
        case .finish(let path, let result): return "finish \(path) \(result)"
        case .release(let label): return "release \(label)"
        case .dealloc(let label): return "dealloc \(label)"
        case .stash(let entry, let input): return "stash \(entry) \(input)"
        case .cannotBuild(let path, let step): return "cannot-build \(path) \(step)"
        case .noModalFlow(let step): return "no-modal-flow \(step)"
        case .unsatisfiable(let precondition): return "unsatisfiable \(precondition)"
        case .warning(let warning): return warning.text
        case .sceneOpen(let number): return "scene-open \(number)"
        case .sceneFocus(let number): return "scene-focus \(number)"
        case .sceneClose(let number): return "scene-close \(number)"
        case .sceneRestore(let number): return "scene-restore \(number)"
        case .app(let event): return event.text
        }
    }

    public var description: String { text }

    /// Every rendering form with what it means, in the order of the cases.
    public static let vocabulary: [(form: String, meaning: String)] = [
        ("deliver <entry> <input>", "an input arrived at an entry point"),
        ("resolve <dest> proceed", "the engine resolved a request"),
        ("resolve <dest> gated <precondition>", "the engine gated a request"),
        ("reject <kind> <input>", "the engine rejected input (`malformed`, `unknown_route`, `validation_failed`)"),
        ("queue <dest>", "a request waited for the one executing"),
        ("dequeue <dest>", "a waiting request started executing"),
        ("gate <precondition> <dest>", "the root was asked to satisfy a gate"),
        ("join-gate <precondition>", "a gated request joined the flow already satisfying that precondition"),
        ("resume <dest>", "a satisfied gate re-dispatched its intent"),
        ("drop <dest>", "a cancelled gate dropped its intent"),
        ("loop-guard <dest> <precondition> <count>", "a gate re-gated past the bound"),
        ("execute <dest> <source>", "the root started executing a target (`external`, `internal`)"),
        ("select-tab <tab>", "the selected tab changed"),
        ("push <screen>", "a screen was pushed"),
        ("pop <screen>", "a screen was popped"),
        ("pop-to <screen>", "a stack was popped down to a screen"),
        ("set-stack <tab> <screen>…", "a stack was replaced"),
        ("update <screen>", "a screen was updated in place"),
        ("present <screen>", "a modal was presented"),
        ("present-rejected <screen>", "UIKit refused a present during a transition"),
        ("dismiss <screen>", "a modal was dismissed"),
        ("swipe-cancelled <screen>", "an interactive back-swipe was cancelled"),
        ("will-disappear <screen>", "a screen is about to disappear (even if the swipe is then cancelled)"),
        ("session-commit", "the session was committed"),
        ("session-clear", "the session was cleared"),
        ("session-expire", "the session expired"),
        ("start <path>", "a coordinator started"),
        ("finish <path> completed|cancelled", "a coordinator finished"),
        ("release <label>", "an object left the navigation and should be freed"),
        ("dealloc <label>", "an object was deallocated"),
        ("stash <entry> <input>", "a cold-start link is held until the root is up"),
        ("cannot-build <path> <screen>", "a flow was asked for a screen it does not build"),
        ("no-modal-flow <screen>", "no modal flow presents that destination"),
        ("unsatisfiable <precondition>", "nothing in the app can satisfy that precondition"),
        ("scene-open <scene>", "a window (scene) opened, in front"),
        ("scene-focus <scene>", "a window came to the foreground"),
        ("scene-close <scene>", "a window closed: its flows torn down"),
        ("scene-restore <scene>", "a restored run's first window came back under its own number, in front"),
        (
            "warning <kind> <subject>",
            "the platform noticed a misuse it carries on from, as SwiftUI warns at run time ("
                + PlatformWarning.Kind.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", ") + ")"
        )
    ]

    /// Events are equal when they render the same words (an app event has
    /// no other identity a scenario could observe).
    public static func == (lhs: NavEvent, rhs: NavEvent) -> Bool { lhs.text == rhs.text }

    public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}

/// How a flow ended, reported by a child coordinator to its parent.
public enum FlowResult: String, Hashable, Sendable, Codable, CustomStringConvertible {
    case completed
    case cancelled

    public var description: String { rawValue }
}
