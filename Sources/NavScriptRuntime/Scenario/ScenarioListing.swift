import NavScript

/// One scenario as `navscript list` shows it (and as workers announce it).
public struct ScenarioListing: Hashable, Sendable, Codable {
    package var name: String
    package var groups: [String]
    package var file: String
    package var line: Int
    package var tags: [String]
    package var isPending: Bool

    package init(name: String, groups: [String] = [], file: String, line: Int, tags: [String] = [], isPending: Bool = false) {
        self.name = name
        self.groups = groups
        self.file = file
        self.line = line
        self.tags = tags
        self.isPending = isPending
    }
}

extension ScenarioDefinition {
    package var listing: ScenarioListing {
        ScenarioListing(name: name, groups: groups, file: file, line: line, tags: tags, isPending: isPending)
    }
}
