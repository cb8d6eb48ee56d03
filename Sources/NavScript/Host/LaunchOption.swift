/// One `launch{}` option a host understands: its name, what values it
/// takes and what it means. The runtime refuses anything else with a
/// message listing what is accepted, and the editor types list them.
public struct LaunchOption: Hashable, Sendable {
    /// What values an option takes.
    public enum Kind: Hashable, Sendable {
        case boolean
        case string
        case number
        /// One of these strings (`experiment = "minimal"`).
        case oneOf([String])
    }

    public var name: String
    public var kind: Kind
    public var documentation: String

    public init(_ name: String, _ kind: Kind, _ documentation: String) {
        self.name = name
        self.kind = kind
        self.documentation = documentation
    }

    public static func boolean(_ name: String, _ documentation: String) -> LaunchOption {
        LaunchOption(name, .boolean, documentation)
    }

    public static func string(_ name: String, _ documentation: String) -> LaunchOption {
        LaunchOption(name, .string, documentation)
    }

    public static func number(_ name: String, _ documentation: String) -> LaunchOption {
        LaunchOption(name, .number, documentation)
    }

    public static func oneOf(_ name: String, _ values: [String], _ documentation: String) -> LaunchOption {
        LaunchOption(name, .oneOf(values), documentation)
    }

    /// Checks `value`; the error says what was expected.
    func check(_ value: LaunchValue) throws(HostError) {
        switch (kind, value) {
        case (.boolean, .bool), (.string, .string), (.number, .number):
            return
        case (.oneOf(let values), .string(let text)):
            guard values.contains(text) else {
                throw HostError(
                    "launch{ \(name) = \"\(text)\" }: expected one of "
                        + values.map { "\"\($0)\"" }.joined(separator: ", "))
            }
        case (.boolean, _): throw HostError("launch{ \(name) = \(value) }: expected a boolean")
        case (.number, _): throw HostError("launch{ \(name) = \(value) }: expected a number")
        case (.string, _), (.oneOf, _): throw HostError("launch{ \(name) = \(value) }: expected a string")
        }
    }
}

extension ScenarioHost {
    /// ``ScenarioHost/launchOptions`` by name (the first of a repeated name).
    package var declaredLaunchOptions: [String: LaunchOption] {
        Dictionary(launchOptions.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Checks a request's options against ``ScenarioHost/launchOptions``,
    /// given by name (`declaredLaunchOptions`, built once by the caller).
    package func check(_ request: LaunchRequest, declared: [String: LaunchOption]) throws(HostError) {
        for (name, value) in request.options.sorted(by: { $0.key < $1.key }) {
            guard let option = declared[name] else {
                let accepted = launchOptions.map(\.name) + ["url", "via"]
                let hint = NameSuggestion.closest(to: name, among: accepted).map { "did you mean '\($0)'? " } ?? ""
                throw HostError("unknown launch option '\(name)'; \(hint)\(self.name) accepts: " + accepted.joined(separator: ", "))
            }
            try option.check(value)
        }
    }
}
