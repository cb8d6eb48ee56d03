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
            text.unicodeScalars.map { scalar in
                scalar.properties.generalCategory == .control
                    ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : String(scalar)
            }.joined())
    }
}
