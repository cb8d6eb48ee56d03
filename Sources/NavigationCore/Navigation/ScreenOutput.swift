/// One intent a screen offers a user — a button, a row, a link — as the
/// coordinator wiring it declares it: its name, the arguments a tap carries
/// and, when the tap alone decides where it lands, the destination it opens.
///
/// Declared once, next to the code that wires it (`screen.setOutput(.product)
/// { … }`), so the spelling a scenario taps, the parameters a tap must give
/// and the edge a flow graph draws cannot drift from what the app does.
/// A bare string literal is an output with no parameters and no known
/// destination (`screen.setOutput("close") { … }`).
public struct ScreenOutput: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var name: String
    /// The arguments a tap gives, by name (a bare id stands for the only one).
    public var parameters: [String]
    /// The destination a tap opens with those parameters, when the tap alone
    /// decides it; nil when it takes an id from the screen or depends on a flow.
    public var destination: DestinationID?

    public init(_ name: String, parameters: [String] = [], opens destination: DestinationID? = nil) {
        self.name = name
        self.parameters = parameters
        self.destination = destination
    }

    public init(stringLiteral name: String) {
        self.init(name)
    }

    /// How a declaration reads: `product(id) → product`.
    public var description: String {
        let parameters = self.parameters.isEmpty ? "" : "(" + self.parameters.joined(separator: ", ") + ")"
        return name + parameters + (destination.map { " → \($0)" } ?? "")
    }

    /// A modal flow's own dismissal (every modal screen's close button).
    public static let close = ScreenOutput("close")
}
