import Foundation
import NavScript
import NavScriptRuntime
import NavigationCore

/// What rolling out a new manifest changes: every link both vocabularies
/// can produce (each pattern instantiated with example parameters) and
/// every link a suite uses, resolved by both engines through every entry
/// point, signed out and signed in, compared outcome by outcome.
package struct ManifestDiff {
    /// The sessions a link is resolved in: a gate shows signed out, and
    /// signed in (every precondition of either manifest held) shows where
    /// the link goes past it.
    package enum Session: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
        case signedOut = "signed out"
        case signedIn = "signed in"

        package var description: String { rawValue }
    }

    /// What one manifest's engine does with a link through one entry point in one session.
    package enum Outcome: Hashable, Sendable, CustomStringConvertible {
        /// Opened: the target as the engine spells it (`home: home > product:p1`).
        case proceed(String)
        /// Held at a gate, to resume at `resume` once it holds.
        case gated(Precondition, resume: String)
        /// Refused, with the error's kind (`unknown_route`).
        case rejected(String)

        package var description: String {
            switch self {
            case .proceed(let target): return "proceed \(target)"
            case .gated(let precondition, let resume): return "gated \(precondition) (\(resume))"
            case .rejected(let kind): return "error \(kind)"
            }
        }
    }

    /// How an outcome changes, in the words a review summary counts:
    /// what a rollout does to users (rejected, gated, let through), not
    /// which strings differ. Ordered as the summary lists them, the ones
    /// that lose users or open a gate first.
    package enum Kind: String, CaseIterable, Hashable, Sendable, Comparable, CustomStringConvertible {
        case nowRejected = "now rejected"
        case noLongerGated = "no longer gated"
        case newlyGated = "newly gated"
        case gatedDifferently = "gated differently"
        case opensElsewhere = "opens elsewhere"
        case nowAccepted = "now accepted"
        case rejectedDifferently = "rejected differently"

        package init(before: Outcome, after: Outcome) {
            switch (before, after) {
            case (.rejected, .rejected): self = .rejectedDifferently
            case (_, .rejected): self = .nowRejected
            case (.rejected, _): self = .nowAccepted
            case (.proceed, .gated): self = .newlyGated
            case (.gated, .proceed): self = .noLongerGated
            case (.gated, .gated): self = .gatedDifferently
            case (.proceed, .proceed): self = .opensElsewhere
            }
        }

        package var description: String { rawValue }

        package static func < (lhs: Kind, rhs: Kind) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// One link whose outcome changes through one entry point in one session.
    package struct Change: Hashable, Sendable {
        package var link: String
        package var entry: EntryPoint
        package var session: Session
        package var before: Outcome
        package var after: Outcome

        package var kind: Kind { Kind(before: before, after: after) }
    }

    package let old: RoutingEngine
    package let new: RoutingEngine
    package let entries: [EntryPoint]

    /// What a param value keeps as it is in a link: URL path characters but the separators.
    private static let valueCharacters = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#&="))

    package init(old: RoutingEngine, new: RoutingEngine, entries: [EntryPoint] = EntryPoint.allCases) {
        self.old = old
        self.new = new
        self.entries = entries
    }

    /// The links compared: each pattern of either manifest with example
    /// parameters (values the old spec accepts when it has the destination),
    /// plus `extra` (links a suite uses). A destination's parameter is
    /// sampled once for both manifests, so a pattern both have is one link
    /// (sampled per manifest, each was two, with two example values, and
    /// every change was listed twice).
    package func links(extra: [String] = []) -> [String] {
        var sampler = ValueSampler(seed: 1)
        var sampled: [String: String] = [:]
        var links: [String] = []
        for engine in [old, new] {
            for definition in engine.manifest.destinations {
                var params: [String: String] = [:]
                for spec in definition.params {
                    let key = "\(definition.id) \(spec.name)"
                    if let value = sampled[key] {
                        params[spec.name] = value
                        continue
                    }
                    let reference = old.definition(of: definition.id) != nil ? old : engine
                    params[spec.name] =
                        sampler.valid(spec) { value in
                            (try? reference.validateParams(of: RouteRequest(definition.id, params: [spec.name: value]))) != nil
                                || reference.definition(of: definition.id)?.params.count ?? 0 > 1
                        } ?? "1"
                    sampled[key] = params[spec.name]
                }
                for pattern in definition.patterns {
                    links.append("\(old.manifest.scheme)://\(pattern.filled(with: params))")
                }
            }
        }
        // A parameter whose spec changed (a pattern narrowed or widened, a length limit moved) also
        // gets values each spec accepts, several and at their edges: the one shared example both
        // accepted hid a rollout that rejects p123456 or opens product/admin.
        for definition in new.manifest.destinations {
            guard let before = old.definition(of: definition.id), before.params != definition.params else { continue }
            for spec in definition.params {
                guard let oldSpec = before.params.first(where: { $0.name == spec.name }), oldSpec != spec else { continue }
                var values: [String] = []
                for (engine, specOfIt) in [(old, oldSpec), (new, spec)] {
                    let accepts = { (value: String) in
                        (try? engine.validateParams(of: RouteRequest(definition.id, params: [specOfIt.name: value]))) != nil
                            || engine.definition(of: definition.id)?.params.count ?? 0 > 1
                    }
                    for _ in 0..<6 {
                        guard let value = sampler.valid(specOfIt, accepts: accepts) else { break }
                        values.append(value)
                        values += sampler.boundary(specOfIt, from: value, accepts: accepts)
                    }
                    // And values that take every character each class of its pattern allows, each
                    // repetition at its least and its most: a dash dropped from a class, a leading 0 refused.
                    values += sampler.covering(specOfIt, accepts: accepts)
                }
                // And values near those, that one of the specs accepts: a trailing delimiter, capitals, a word
                // a lookahead excludes, letters beyond ASCII — what sampling the patterns does not reach.
                let acceptedByEither = { (value: String) in
                    [(old, definition.id), (new, definition.id)].contains { engine, id in
                        (try? engine.validateParams(of: RouteRequest(id, params: [spec.name: value]))) != nil
                    }
                }
                values += ValueSampler.nearby(values, patterns: [oldSpec.pattern, spec.pattern].compactMap { $0 })
                    .filter(acceptedByEither)
                for value in values {
                    var params: [String: String] = [:]
                    for other in definition.params { params[other.name] = sampled["\(definition.id) \(other.name)"] ?? "1" }
                    // As a link carries it: a letter beyond ASCII percent-encoded (`caf%C3%A9`).
                    params[spec.name] = value.addingPercentEncoding(withAllowedCharacters: Self.valueCharacters) ?? value
                    for pattern in definition.patterns {
                        links.append("\(old.manifest.scheme)://\(pattern.filled(with: params))")
                    }
                }
            }
        }
        var seen: Set<String> = []
        return (links + extra).filter { seen.insert($0).inserted }
    }

    /// Every link whose outcome differs, in link order.
    package func changes(extra: [String] = []) -> [Change] {
        changes(of: links(extra: extra))
    }

    /// What `routes diff` prints: the changes of every link compared, grouped per link.
    package func report(extra: [String] = []) -> ManifestDiffReport {
        let links = links(extra: extra)
        return ManifestDiffReport(changes: changes(of: links), compared: links.count, entries: entries)
    }

    private func changes(of links: [String]) -> [Change] {
        let spelling = EntryLinkSpelling(manifest: old.manifest)
        let satisfied = Set(old.manifest.preconditions + new.manifest.preconditions)
        var changes: [Change] = []
        for link in links {
            for entry in entries {
                let input = spelling.input(for: link, via: entry)
                for session in Session.allCases {
                    let context = session == .signedIn ? RouteContext(satisfied: satisfied) : RouteContext()
                    let before = Self.outcome(old, input, entry, context)
                    let after = Self.outcome(new, input, entry, context)
                    if before != after { changes.append(Change(link: link, entry: entry, session: session, before: before, after: after)) }
                }
            }
        }
        return changes
    }

    static func outcome(_ engine: RoutingEngine, _ input: EntryInput, _ entry: EntryPoint, _ context: RouteContext) -> Outcome {
        do {
            switch try engine.resolve(input, entry: entry, context: context) {
            case .proceed(let target): return .proceed("\(target)")
            case .gated(let precondition, let resume): return .gated(precondition, resume: "\(resume)")
            }
        } catch {
            return .rejected("\(error.kind)")
        }
    }
}
