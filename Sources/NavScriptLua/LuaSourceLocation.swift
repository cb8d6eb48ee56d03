/// A position in Lua source: the chunk's source name and a line.
///
/// Why: Swift callbacks report the scenario's `file:line` for a step or a
/// failure; `LuaCall.callerLocations` lists these for the Lua frames that led
/// to the call. `source` is the chunk name without its `@`/`=` prefix (a file
/// path for files), or Lua's `[string "..."]` form for anonymous strings.
public struct LuaSourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var source: String
    public var line: Int

    public init(source: String, line: Int) {
        self.source = source
        self.line = line
    }

    /// `source:line`, as Lua prints positions.
    public var description: String { String(source: source, line: line) }
}
