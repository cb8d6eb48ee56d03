import Testing

@testable import NavigationCore

@Suite("RoutePattern literals")
struct RoutePatternLiteralTests {
    @Test(arguments: [
        ("product", "product", true), ("product", "PRODUCT", true), ("product", "Product", true),
        ("product", "produc", false), ("product", "products", false), ("", "", true), ("a", "", false),
        ("café", "CAFÉ", true), ("café", "cafe", false), ("p1", "P1", true), ("p[", "P{", false),
        ("a-very-long-literal-segment", "A-Very-Long-Literal-Segment", true), ("product", "prodüct", false)
    ])
    func literalSegmentsIgnoreCase(literal: String, text: String, expected: Bool) {
        #expect(RoutePattern.matches(literal, text) == expected, "\(literal) vs \(text)")
        #expect(RoutePattern.matches(literal, text) == (literal == text.lowercased()), "same answer as lowercasing")
    }

    /// A pattern restricted to some doors applies to exactly those.
    @Test func aPatternAppliesToTheDoorsItNames() {
        let doors = EntryPoint.allCases
        for mask in 0..<(1 << doors.count) {
            let entries = Set(doors.indices.filter { mask & (1 << $0) != 0 }.map { doors[$0] })
            let pattern = RoutePattern("products/:id", entries: entries)
            for door in doors { #expect(pattern.applies(to: door) == entries.contains(door), "\(entries) \(door)") }
        }
        #expect(doors.allSatisfy(RoutePattern("products/:id").applies(to:)))
    }

    /// A template filled with values: each placeholder whole, the rest as written.
    @Test func aTemplateIsFilledPlaceholderByPlaceholder() {
        #expect(RoutePattern("Orders/:id/track").filled(with: ["id": "42"]) == "Orders/42/track")
        #expect(RoutePattern("deeplink?product=:id&ref=:ref").filled(with: ["id": "p1", "ref": "mail"]) == "deeplink?product=p1&ref=mail")
        #expect(RoutePattern("a/:idx/:id").filled(with: ["id": "1", "idx": "2"]) == "a/2/1", ":id is not found inside :idx")
        #expect(RoutePattern("a/:id").filled(with: [:]) == "a/:id", "a placeholder without a value stays")
        #expect(RoutePattern("a/:id").filled(with: ["id": ":id:id"]) == "a/:id:id", "a value is not filled again")
        #expect(RoutePattern("a:/:").filled(with: ["": "x"]) == "a:/:", "a bare colon is text")
    }
}
