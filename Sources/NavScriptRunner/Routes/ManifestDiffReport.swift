import NavigationCore

/// What `routes diff` prints, short enough to paste in a code review: a
/// summary first (how many of the links compared change, and how), then
/// one entry per link that changes. A link is resolved through every entry
/// point, signed out and in, so one gate added used to be a row per link ×
/// entry point × session (dozens for one destination) saying the same
/// thing; here the entry points and sessions that change alike are one line
/// (`all 5 entry points, signed out`). Links that do not change are only
/// counted.
package struct ManifestDiffReport: Sendable {
    /// The entry points and sessions where a link changes from one outcome to another.
    package struct Group: Sendable {
        package var before: ManifestDiff.Outcome
        package var after: ManifestDiff.Outcome
        package var cells: [(entry: EntryPoint, session: ManifestDiff.Session)]

        package var kind: ManifestDiff.Kind { ManifestDiff.Kind(before: before, after: after) }
    }

    /// A link that changes: its groups, in the order their first change was found.
    package struct LinkChange: Sendable {
        package var link: String
        package var groups: [Group]

        /// Each way it changes once, in the summary's order.
        package var kinds: [ManifestDiff.Kind] { Array(Set(groups.map(\.kind))).sorted() }
    }

    /// How many links were compared.
    package var compared: Int
    /// The links that change, in link order.
    package var links: [LinkChange]
    /// The entry points compared: covering all of them reads "all N entry points".
    package var entries: [EntryPoint]

    package init(changes: [ManifestDiff.Change], compared: Int, entries: [EntryPoint]) {
        self.compared = compared
        self.entries = entries
        var links: [LinkChange] = []
        var byLink: [String: Int] = [:]
        for change in changes {
            let index =
                byLink[change.link]
                ?? {
                    links.append(LinkChange(link: change.link, groups: []))
                    byLink[change.link] = links.count - 1
                    return links.count - 1
                }()
            let cell = (change.entry, change.session)
            if let group = links[index].groups.firstIndex(where: { $0.before == change.before && $0.after == change.after }) {
                links[index].groups[group].cells.append(cell)
            } else {
                links[index].groups.append(Group(before: change.before, after: change.after, cells: [cell]))
            }
        }
        self.links = links
    }

    /// `3 of 42 links change: 2 newly gated, 1 now rejected` — each link
    /// counted once per way it changes, so when one changes in two ways
    /// the counts add up to more, and the line says so.
    package var summary: String {
        let total = "\(compared) link\(compared == 1 ? "" : "s")"
        guard !links.isEmpty else { return "no link changes its outcome (\(total) compared)" }
        let kinds = links.flatMap(\.kinds)
        let counts = ManifestDiff.Kind.allCases.compactMap { kind -> String? in
            let count = kinds.filter { $0 == kind }.count
            return count == 0 ? nil : "\(count) \(kind)"
        }
        return "\(links.count) of \(total) change\(compared == 1 ? "s" : ""): " + counts.joined(separator: ", ")
            + (kinds.count > links.count ? " (a link that changes in more than one way is counted under each)" : "")
    }

    /// Where a group's changes are: `all 5 entry points, signed out`,
    /// `universal, signed in and out`, or, when the sessions differ in
    /// entry points, each session's (`scheme, push, signed out; scheme,
    /// signed in`). Entry points in the order compared.
    package func place(_ group: Group) -> String {
        let sessions = ManifestDiff.Session.allCases.compactMap { session -> (ManifestDiff.Session, [EntryPoint])? in
            let doors = entries.filter { entry in group.cells.contains { $0.entry == entry && $0.session == session } }
            return doors.isEmpty ? nil : (session, doors)
        }
        func spelled(_ doors: [EntryPoint]) -> String {
            guard doors == entries, entries.count > 1 else { return doors.map(\.rawValue).joined(separator: ", ") }
            return entries.count == 2 ? "both entry points" : "all \(entries.count) entry points"
        }
        if sessions.count == 2, sessions[0].1 == sessions[1].1 { return spelled(sessions[0].1) + ", signed in and out" }
        return sessions.map { "\(spelled($0.1)), \($0.0)" }.joined(separator: "; ")
    }

    /// The summary, then per link a line with how it changes and one
    /// indented line per group: `where: before  →  after`.
    package var text: String {
        var lines = [summary]
        for link in links {
            lines.append("\(VisibleText.of(link.link))  (\(link.kinds.map(\.rawValue).joined(separator: ", ")))")
            for group in link.groups {
                lines.append("    \(place(group)): \(VisibleText.of("\(group.before)"))  →  \(VisibleText.of("\(group.after)"))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The summary in bold, then a table with a row per link; a link that
    /// changes in several ways has a line per group in each cell.
    package var markdown: String {
        guard !links.isEmpty else { return "**\(summary)**\n" }
        var lines = ["**\(summary)**", "", "| link | change | where | before | after |", "|---|---|---|---|---|"]
        /// A `|` ends a cell even inside backticks unless escaped (a suite's link may have one).
        /// Controls, characters nothing draws and look-alike spaces spelled (``VisibleText``), as in the text.
        func escaped(_ text: String) -> String { VisibleText.of(text).replacingOccurrences(of: "|", with: "\\|") }
        func cell(_ parts: [String]) -> String { parts.map(escaped).joined(separator: "<br>") }
        for link in links {
            let groups = link.groups
            lines.append(
                "| `\(escaped(link.link))` | " + cell(groups.map(\.kind.rawValue)) + " | " + cell(groups.map(place)) + " | "
                    + cell(groups.map(\.before.description)) + " | " + cell(groups.map(\.after.description)) + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
