/// What to do about Lua's two recursion limits, whose own words ("stack
/// overflow", "C stack overflow") name neither the cause nor the fix.
enum RecursionAdvice {
    /// A sentence to append to `message` when it is one of Lua's overflow
    /// errors raised while running (not the parser's; that one is said in
    /// the file's terms where a file is compiled).
    static func hint(forLuaMessage message: String) -> String? {
        if message.hasSuffix("C stack overflow") {
            return " (calls nested about 200 deep through metamethods or library functions: usually a metamethod "
                + "that reads its own table — `__index = function(t, k) return t[k] end`; use rawget — or a function "
                + "that calls itself through string.gsub, pcall or table.sort without end)"
        }
        if message.hasSuffix("stack overflow") {
            return " (a function calls itself without end: give the recursion a case that returns without calling again)"
        }
        return nil
    }
}
