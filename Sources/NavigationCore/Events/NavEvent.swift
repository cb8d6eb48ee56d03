/// Every decision and side effect of the core, in one stable vocabulary.
///
/// This enum is the single place the vocabulary is defined: scenarios match
/// on the rendered ``text`` (`expect_events{ "gate auth cart", "session-commit" }`
/// matches an event exactly or by its leading words), so the words below are a
/// public contract. Renderings, one per case:
///
/// | event | text |
/// |---|---|
/// | an input arrived at an entry point | `deliver <entry> <input>` |
/// | the engine resolved a request | `resolve <dest> proceed` / `resolve <dest> gated <precondition>` |
/// | the engine rejected input | `reject <kind> <input>` (`malformed`, `unknown_route`, `validation_failed`) |
/// | a request waited for the one executing | `queue <dest>` then `dequeue <dest>` |
/// | the root was asked to satisfy a gate | `gate <precondition> <dest>` |
/// | a satisfied gate re-dispatched its intent | `resume <dest>` |
/// | a cancelled gate dropped its intent | `drop <dest>` |
/// | a gate re-gated past the bound | `loop-guard <dest> <precondition> <count>` |
/// | the root started executing a target | `execute <dest> <source>` |
/// | navigation side effects | `select-tab <tab>`, `push <screen>`, `pop <screen>`, `pop-to <screen>`, `set-stack <tab> <screen>…`, `update <screen>`, `present <screen>`, `dismiss <screen>` |
/// | UIKit refused a present during a transition | `present-rejected <screen>` |
/// | an interactive back-swipe was cancelled | `swipe-cancelled <screen>` |
/// | a screen is about to disappear | `will-disappear <screen>` |
/// | the session changed | `session-commit`, `session-clear`, `session-expire` |
/// | a coordinator started / finished | `start <path>`, `finish <path> completed|cancelled` |
/// | an object left the navigation and should be freed | `release <label>` |
/// | an object was deallocated | `dealloc <label>` |
/// | anything app-specific | `note <text>` |
public enum NavEvent: Hashable, Sendable, CustomStringConvertible {
    case deliver(EntryPoint, String)
    case resolveProceed(RouteRequest)
    case resolveGated(RouteRequest, Precondition)
    case reject(kind: String, input: String)
    case queue(RouteRequest)
    case dequeue(RouteRequest)
    case gate(Precondition, RouteRequest)
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
    case note(String)

    public var text: String {
        switch self {
        case .deliver(let entry, let input): return "deliver \(entry) \(input)"
        case .resolveProceed(let request): return "resolve \(request) proceed"
        case .resolveGated(let request, let precondition): return "resolve \(request) gated \(precondition)"
        case .reject(let kind, let input): return "reject \(kind) \(input)"
        case .queue(let request): return "queue \(request)"
        case .dequeue(let request): return "dequeue \(request)"
        case .gate(let precondition, let request): return "gate \(precondition) \(request)"
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
        case .note(let text): return "note \(text)"
        }
    }

    public var description: String { text }
}

/// How a flow ended, reported by a child coordinator to its parent.
public enum FlowResult: String, Hashable, Sendable, Codable, CustomStringConvertible {
    case completed
    case cancelled

    public var description: String { rawValue }
}
