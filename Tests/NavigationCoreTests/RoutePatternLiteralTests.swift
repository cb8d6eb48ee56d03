import Testing
@testable import NavigationCore

@Suite("RoutePattern literals")
struct RoutePatternLiteralTests {
    @Test(arguments: [
        ("product", "product", true), ("product", "PRODUCT", true), ("product", "Product", true),
        ("product", "produc", false), ("product", "products", false), ("", "", true), ("a", "", false),
        ("café", "CAFÉ", true), ("café", "cafe", false), ("p1", "P1", true), ("p[", "P{", false),
    ])
    func literalSegmentsIgnoreCase(literal: String, text: String, expected: Bool) {
        #expect(RoutePattern.matches(literal, text) == expected, "\(literal) vs \(text)")
        #expect(RoutePattern.matches(literal, text) == (literal == text.lowercased()), "same answer as lowercasing")
    }
}
