import Foundation
import NavScript
import NavScriptRuntime

/// The suite's own driving calls, for exploration to draw from: every
/// `deep_link`, `tap`, `select_tab`, `back_swipe`… and host verb written in
/// the scenario files with literal arguments, as the line a walk runs. Why:
/// the suite's links carry the values and spellings the team knows matter
/// (a real order id, a campaign query, a push payload's door), which random
/// values drawn from the manifest rarely hit.
struct SuiteSeeds {
    /// One Lua line per distinct call, in the order first written.
    let lines: [String]

    /// The driving calls of `files` (read as text: nothing runs).
    init(files: [URL], host: any ScenarioHost) {
        let driving =
            Set(["deep_link", "tap", "back", "back_swipe", "dismiss", "select_tab"])
            .union(host.functions.filter { $0.category == .driving }.map(\.name))
        var seen: Set<String> = []
        var lines: [String] = []
        for file in files {
            guard let source = try? String(contentsOf: file, encoding: .utf8) else { continue }
            for call in LuaCalls(LuaTokens(source)).calls where driving.contains(call.name) {
                let arguments = call.arguments.map { Self.lua($0.value) }
                guard !arguments.contains(nil) else { continue }  // built at run time: not the suite's literal
                let line = "\(call.name)(\(arguments.compactMap { $0 }.joined(separator: ", ")))"
                if seen.insert(line).inserted { lines.append(line) }
            }
        }
        self.lines = lines
    }

    /// A literal as Lua source; nil for anything not written out literally.
    static func lua(_ value: LuaCalls.Value) -> String? {
        switch value {
        case .string(let text):
            return LuaSource.string(text)
        case .integer(let number):
            return String(number)
        case .table(let items, let fields):
            var parts: [String] = []
            for item in items {
                guard let text = lua(item.value) else { return nil }
                parts.append(text)
            }
            for (key, field) in fields {
                guard let text = lua(field.value) else { return nil }
                parts.append("\(LuaSource.fieldName(key)) = \(text)")
            }
            return parts.isEmpty ? "{}" : "{ " + parts.joined(separator: ", ") + " }"
        case .other:
            return nil
        }
    }
}
