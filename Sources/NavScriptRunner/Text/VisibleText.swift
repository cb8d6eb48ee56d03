/// Text from a script (a name, a pattern) shown on a terminal with its
/// control characters spelled out (`\u{1B}`), never sent — an ESC in a
/// scenario's string would otherwise drive the terminal that prints it —
/// and the characters nothing draws by name (`<U+200B>`,
/// ``ReportText/showingInvisibles(_:)``): "no screen 'cart'; did you mean 'cart'?".
enum VisibleText {
    static func of(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return ReportText.showingInvisibles(text)
        }
        return ReportText.showingInvisibles(
            text.unicodeScalars.map { $0.properties.generalCategory == .control ? ReportText.spelling(of: $0) : String($0) }.joined())
    }
}
