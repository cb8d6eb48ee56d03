/// Reading the LuaLS type text the language's declarations are written in
/// (`string|string[]`, `fun(tab: navscript.Tab, entries: string[])`).
package enum LuaTypeText {
    /// `text` cut at each `separator` outside brackets (`table<K, V>`,
    /// `fun(row: any)` nest), up to the bracket that closes the list it is
    /// in — so the parameters of `fun(a: T, b: U): R` are read from the text
    /// after `fun(`.
    package static func topLevelParts(of text: Substring, separatedBy separator: Character) -> [Substring] {
        var parts: [Substring] = []
        var depth = 0
        var start = text.startIndex
        for index in text.indices {
            switch text[index] {
            case "(", "<", "{", "[": depth += 1
            case ")", ">", "}", "]":
                depth -= 1
                if depth < 0 {
                    parts.append(text[start..<index])
                    return parts
                }
            case separator where depth == 0:
                parts.append(text[start..<index])
                start = text.index(after: index)
            default: break
            }
        }
        parts.append(text[start...])
        return parts
    }
}
