/// The scenario language's reference as a Markdown table — one row per
/// function, from its declaration — for the README (`navscript types
/// --format markdown`).
public struct LanguageReference {
    public let library: ScriptLibrary

    public init(host: any ScenarioHost) {
        library = ScriptLibrary(host: host)
    }

    public func markdown() -> String {
        var lines = ["| | function | what it does |", "|---|---|---|"]
        for category in ScriptFunction.Category.allCases {
            for function in library.functions(in: category) {
                let summary = function.summary.replacingOccurrences(of: "|", with: "\\|")
                lines.append("| \(category.rawValue) | `\(function.signature)` | \(summary) |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
