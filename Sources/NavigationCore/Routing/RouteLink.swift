/// An external input reduced to path components and query items: the one
/// shape the engine matches, whatever door the input came through.
public struct RouteLink: Hashable, Sendable, CustomStringConvertible {
    public var entry: EntryPoint
    /// Percent-decoded path components, the scheme link's host first.
    public var path: [String]
    /// Percent-decoded query items, keys lower-cased; the first of a repeated key wins.
    public var query: [String: String]
    /// The input as received, for error messages and the event log.
    public var raw: String

    public init(entry: EntryPoint, path: [String], query: [String: String] = [:], raw: String) {
        self.entry = entry
        self.path = path
        self.query = query
        self.raw = raw
    }

    public var description: String { raw }
}
