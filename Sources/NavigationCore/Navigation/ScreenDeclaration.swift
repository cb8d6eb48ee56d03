/// The outputs a screen may offer, as an app lists them for tools that
/// cannot run it: the tap names a scenario's editor completes, a lint
/// checks, a flow graph draws and a manifest check follows.
///
/// Lists the same ``ScreenOutput`` values the coordinators wire, so each
/// output is spelled once; an app keeps its list beside its coordinators.
/// A screen may wire fewer outputs than its declaration lists (a sign-out
/// button only when signed in), never one the declaration leaves out or
/// spells differently — navscript checks that on every tap.
public struct ScreenDeclaration: Hashable, Sendable {
    public var id: DestinationID
    public var outputs: [ScreenOutput]

    public init(_ id: DestinationID, _ outputs: [ScreenOutput]) {
        self.id = id
        self.outputs = outputs
    }
}
