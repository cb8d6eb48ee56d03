/// What the command line asked for cannot be done (a report that cannot be
/// created, an option another one excludes): the command exits 2 with this
/// text and its usage hint, before anything ran.
package struct UsageProblem: Error, CustomStringConvertible, Sendable {
    package let description: String

    package init(_ description: String) { self.description = description }
}
