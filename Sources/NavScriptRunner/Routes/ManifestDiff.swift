import NavScript
import NavScriptRuntime
import NavigationCore

/// What rolling out a new manifest changes: every link both vocabularies
/// can produce (each pattern instantiated with example parameters) and
/// every link a suite uses, resolved by both engines through every entry
/// point, signed out and signed in, compared outcome by outcome.
package struct ManifestDiff {
    /// One link whose outcome changes.
    package struct Change: Hashable, Sendable {
        package var link: String
        package var entry: EntryPoint
        package var context: String
        package var before: String
        package var after: String
    }

    package let old: RoutingEngine
    package let new: RoutingEngine
    package let entries: [EntryPoint]

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
                    var path = pattern.template
                    for (name, value) in params { path = path.replacingOccurrences(of: ":" + name, with: value) }
                    links.append("\(old.manifest.scheme)://\(path)")
                }
            }
        }
        var seen: Set<String> = []
        return (links + extra).filter { seen.insert($0).inserted }
    }

    /// Every link whose outcome differs, in link order.
    package func changes(extra: [String] = []) -> [Change] {
        let spelling = EntryLinkSpelling(manifest: old.manifest)
        let contexts: [(String, RouteContext)] = [
            ("signed out", RouteContext()),
            ("signed in", RouteContext(satisfied: Set(old.manifest.preconditions + new.manifest.preconditions)))
        ]
        var changes: [Change] = []
        for link in links(extra: extra) {
            for entry in entries {
                let input = spelling.input(for: link, via: entry)
                for (label, context) in contexts {
                    let before = Self.describe(old, input, entry, context)
                    let after = Self.describe(new, input, entry, context)
                    if before != after { changes.append(Change(link: link, entry: entry, context: label, before: before, after: after)) }
                }
            }
        }
        return changes
    }

    static func describe(_ engine: RoutingEngine, _ input: EntryInput, _ entry: EntryPoint, _ context: RouteContext) -> String {
        do {
            switch try engine.resolve(input, entry: entry, context: context) {
            case .proceed(let target): return "proceed \(target)"
            case .gated(let precondition, let resume): return "gated \(precondition) (\(resume))"
            }
        } catch {
            return "error \(error.kind)"
        }
    }

    /// The changes as text, or as a Markdown table.
    package static func render(_ changes: [Change], markdown: Bool) -> String {
        if changes.isEmpty { return "no link changes its outcome\n" }
        if markdown {
            var lines = ["| link | entry point | session | before | after |", "|---|---|---|---|---|"]
            for change in changes {
                lines.append("| `\(change.link)` | \(change.entry) | \(change.context) | \(change.before) | \(change.after) |")
            }
            return lines.joined(separator: "\n") + "\n"
        }
        return changes.map { "\($0.link) via \($0.entry), \($0.context): \($0.before)  →  \($0.after)" }.joined(separator: "\n")
            + "\n\(changes.count) outcome\(changes.count == 1 ? "" : "s") change\n"
    }
}
