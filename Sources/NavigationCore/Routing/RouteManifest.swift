import Foundation

/// The route table as data. Shipping it as JSON lets a server add or alias
/// routes without an app release; validating it at load turns a broken
/// table into one clear error instead of a crash on some later link.
public struct RouteManifest: Hashable, Sendable, Codable {
    /// The custom URL scheme, without `://` (e.g. `myapp`).
    public var scheme: String
    /// Hosts whose https links are this app's universal links.
    public var universalHosts: [String]
    public var tabs: [TabID]
    /// Every precondition a route may name; anything else is a typo.
    public var preconditions: [Precondition]
    public var destinations: [RouteDefinition]

    public init(
        scheme: String, universalHosts: [String], tabs: [TabID],
        preconditions: [Precondition], destinations: [RouteDefinition]
    ) {
        self.scheme = scheme
        self.universalHosts = universalHosts
        self.tabs = tabs
        self.preconditions = preconditions
        self.destinations = destinations
    }

    enum CodingKeys: String, CodingKey {
        case scheme, universalHosts = "universal_hosts", tabs, preconditions, destinations
    }

    /// Decodes and validates a manifest from JSON.
    public static func load(json data: Data) throws(ManifestError) -> RouteManifest {
        let manifest: RouteManifest
        if let line = JSONNesting.lineTooDeep(in: data) { throw .undecodable(JSONNesting.tooDeep(line: line)) }
        do {
            manifest = try JSONDecoder().decode(RouteManifest.self, from: data)
        } catch {
            throw .undecodable(String(describing: error))
        }
        try manifest.validate()
        return manifest
    }

    public func definition(_ id: DestinationID) -> RouteDefinition? {
        destinations.first { $0.id == id }
    }

    /// Each destination's ancestry, root first and the destination last
    /// (by index). A parent the manifest lacks ends it, and a cycle stops
    /// where it repeats, so a manifest not yet validated (`routes check`)
    /// has one too; with duplicate ids the first declaration counts.
    public func ancestries() -> [[RouteDefinition]] {
        var byID: [DestinationID: RouteDefinition] = [:]
        for definition in destinations where byID[definition.id] == nil { byID[definition.id] = definition }
        return destinations.map { definition in
            var ancestry = [definition]
            var seen: Set<DestinationID> = [definition.id]
            while let parent = ancestry[0].parent.flatMap({ byID[$0] }), seen.insert(parent.id).inserted {
                ancestry.insert(parent, at: 0)
            }
            return ancestry
        }
    }

    /// What a destination requires: the preconditions along its ancestry,
    /// ancestors' first, each once.
    public static func preconditions(along ancestry: [RouteDefinition]) -> [Precondition] {
        var preconditions: [Precondition] = []
        for step in ancestry {
            for precondition in step.preconditions where !preconditions.contains(precondition) { preconditions.append(precondition) }
        }
        return preconditions
    }

    /// Checks the table's integrity; every error names the offending entry.
    public func validate() throws(ManifestError) {
        var byID: [DestinationID: RouteDefinition] = [:]
        for definition in destinations {
            if byID[definition.id] != nil { throw .duplicateDestination(definition.id) }
            byID[definition.id] = definition
        }
        let knownPreconditions = Set(preconditions)
        var shapes: [String: (DestinationID, RoutePattern)] = [:]
        for definition in destinations {
            if let parent = definition.parent, byID[parent] == nil {
                throw .unknownParent(entry: definition.id, parent: parent)
            }
            if let tab = definition.tab, !tabs.contains(tab) {
                throw .unknownTab(entry: definition.id, tab: tab)
            }
            for precondition in definition.preconditions where !knownPreconditions.contains(precondition) {
                throw .unknownPrecondition(entry: definition.id, precondition: precondition)
            }
            for param in definition.params {
                do { _ = try CompiledParam(param) } catch {
                    throw .invalidParamPattern(entry: definition.id, param: param.name, pattern: param.pattern ?? "")
                }
            }
            let declared = Set(definition.params.map(\.name))
            for pattern in definition.patterns {
                for name in pattern.parameterNames where !declared.contains(name) {
                    throw .undeclaredPatternParam(entry: definition.id, pattern: pattern.template, param: name)
                }
                for name in declared.sorted() where !pattern.parameterNames.contains(name) {
                    throw .patternMissesParam(entry: definition.id, pattern: pattern.template, param: name)
                }
                for entry in pattern.entries.map(Array.init) ?? EntryPoint.allCases {
                    let key = "\(entry.rawValue) \(pattern.shape)"
                    if let (other, otherPattern) = shapes[key] {
                        throw .duplicatePattern(
                            entry: definition.id, pattern: pattern.template,
                            other: other, otherPattern: otherPattern.template)
                    }
                    shapes[key] = (definition.id, pattern)
                }
            }
        }
        for definition in destinations {
            var seen: [DestinationID] = [definition.id]
            var current = definition
            while let parentID = current.parent, let parent = byID[parentID] {
                if seen.contains(parentID) {
                    throw .ancestryCycle(entry: definition.id, path: seen + [parentID])
                }
                let missing = Set(parent.params.map(\.name)).subtracting(definition.params.map(\.name))
                if let name = missing.sorted().first {
                    throw .ancestorParamMissing(entry: definition.id, ancestor: parentID, param: name)
                }
                seen.append(parentID)
                current = parent
            }
            if current.tab == nil { throw .noTab(entry: definition.id, root: current.id) }
        }
    }
}

/// A manifest that cannot be used, naming the entry at fault so the route
/// author knows exactly which line of the JSON to fix.
public enum ManifestError: Error, Hashable, Sendable, CustomStringConvertible {
    case undecodable(String)
    case duplicateDestination(DestinationID)
    case unknownParent(entry: DestinationID, parent: DestinationID)
    case unknownTab(entry: DestinationID, tab: TabID)
    case unknownPrecondition(entry: DestinationID, precondition: Precondition)
    case invalidParamPattern(entry: DestinationID, param: String, pattern: String)
    case undeclaredPatternParam(entry: DestinationID, pattern: String, param: String)
    case patternMissesParam(entry: DestinationID, pattern: String, param: String)
    case duplicatePattern(entry: DestinationID, pattern: String, other: DestinationID, otherPattern: String)
    case ancestryCycle(entry: DestinationID, path: [DestinationID])
    case ancestorParamMissing(entry: DestinationID, ancestor: DestinationID, param: String)
    case noTab(entry: DestinationID, root: DestinationID)

    public var description: String {
        switch self {
        case .undecodable(let detail):
            return "route manifest is not valid JSON for the schema: \(detail)"
        case .duplicateDestination(let id):
            return "route '\(id)': declared twice; destination ids must be unique"
        case .unknownParent(let entry, let parent):
            return "route '\(entry)': parent '\(parent)' is not a destination of the manifest"
        case .unknownTab(let entry, let tab):
            return "route '\(entry)': tab '\(tab)' is not in the manifest's tabs"
        case .unknownPrecondition(let entry, let precondition):
            return "route '\(entry)': precondition '\(precondition)' is not declared in the manifest's preconditions"
        case .invalidParamPattern(let entry, let param, let pattern):
            return "route '\(entry)': parameter '\(param)' has an invalid pattern \(pattern)"
        case .undeclaredPatternParam(let entry, let pattern, let param):
            return "route '\(entry)': pattern '\(pattern)' captures ':\(param)', which is not in its params"
        case .patternMissesParam(let entry, let pattern, let param):
            return "route '\(entry)': pattern '\(pattern)' does not capture ':\(param)', which the route requires"
        case .duplicatePattern(let entry, let pattern, let other, let otherPattern):
            return "route '\(entry)': pattern '\(pattern)' matches the same links as '\(otherPattern)' of route '\(other)'"
        case .ancestryCycle(let entry, let path):
            return "route '\(entry)': ancestry cycle \(path.map(\.rawValue).joined(separator: " -> "))"
        case .ancestorParamMissing(let entry, let ancestor, let param):
            return "route '\(entry)': ancestor '\(ancestor)' needs parameter '\(param)', which '\(entry)' does not declare"
        case .noTab(let entry, let root):
            return "route '\(entry)': its root ancestor '\(root)' declares no tab"
        }
    }
}
