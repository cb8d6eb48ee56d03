/// A table's type as a record, for Lua: its name and every field it may
/// have. A record pushed to Lua reads a declared field that is absent as nil
/// and raises on any other name.
///
/// Why: a script reading a misspelt field of what a function returned
/// (`deep_link(url).stauts`) got nil, and every comparison with it — an
/// `assert(outcome.stauts ~= "rejected")` — held without a word.
package struct LuaRecord: Hashable, Sendable {
    package var type: String
    package var fields: [String]

    package init(type: String, fields: [String]) {
        self.type = type
        self.fields = fields
    }
}
