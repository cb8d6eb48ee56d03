/// A type the scenario language's LuaLS definitions name: an alias listing
/// literal values (`navscript.Tab`) or a class of table fields
/// (`navscript.LinkOutcome`). Built-in functions use the runtime's; a host
/// declares the ones its own functions use.
public struct ScriptType: Sendable {
    public enum Shape: Sendable {
        /// A union of literal strings, each with a comment; `open` adds
        /// `string` so other values are still accepted.
        case literals([(value: String, documentation: String)], open: Bool)
        /// A union of other types (`string|navscript.PushPayload`).
        case union([String])
        /// A table with these fields.
        case fields([Field])
    }

    /// A field of a class.
    public struct Field: Sendable {
        public let name: String
        public let type: String
        public let isOptional: Bool
        public let documentation: String

        public init(_ name: String, _ type: String, optional: Bool = true, _ documentation: String = "") {
            self.name = name
            self.type = type
            self.isOptional = optional
            self.documentation = documentation
        }
    }

    /// Qualified LuaLS name (`navscript.Session`).
    public let name: String
    public let documentation: String
    public let shape: Shape

    public init(_ name: String, _ documentation: String, _ shape: Shape) {
        self.name = name
        self.documentation = documentation
        self.shape = shape
    }

    /// A class of fields.
    public static func fields(_ name: String, _ documentation: String, _ fields: [Field]) -> ScriptType {
        ScriptType(name, documentation, .fields(fields))
    }

    /// A closed or open set of literal strings.
    public static func literals(
        _ name: String, _ documentation: String,
        _ values: [(String, String)], open: Bool = false
    ) -> ScriptType {
        ScriptType(name, documentation, .literals(values.map { (value: $0.0, documentation: $0.1) }, open: open))
    }
}
