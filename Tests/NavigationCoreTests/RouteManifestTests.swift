import Foundation
import Testing

@testable import NavigationCore

struct BrokenManifest: Sendable, CustomTestStringConvertible {
    let name: String
    let manifest: RouteManifest
    let expected: ManifestError
    /// The destination the message must name.
    let entry: DestinationID
    var testDescription: String { name }
}

@Suite("RouteManifest")
struct RouteManifestTests {
    static let broken: [BrokenManifest] = [
        BrokenManifest(
            name: "unknown parent",
            manifest: Fixture.manifest(
                replacing: RouteDefinition(
                    "reviews", parent: "produkt", flow: "browse",
                    params: [Fixture.productID])),
            expected: .unknownParent(entry: "reviews", parent: "produkt"), entry: "reviews"),
        BrokenManifest(
            name: "ancestry cycle",
            manifest: Fixture.manifest(
                destinations: Fixture.destinations + [
                    RouteDefinition("a", parent: "b", flow: "x"),
                    RouteDefinition("b", parent: "c", flow: "x"),
                    RouteDefinition("c", parent: "a", flow: "x")
                ]),
            expected: .ancestryCycle(entry: "a", path: ["a", "b", "c", "a"]), entry: "a"),
        BrokenManifest(
            name: "self parent",
            manifest: Fixture.manifest(replacing: RouteDefinition("loop", parent: "loop", tab: "home", flow: "x")),
            expected: .ancestryCycle(entry: "loop", path: ["loop", "loop"]), entry: "loop"),
        BrokenManifest(
            name: "duplicate pattern, same shape with another param name",
            manifest: Fixture.manifest(
                replacing: RouteDefinition(
                    "sku", parent: "home", flow: "browse", params: [ParamSpec("sku")],
                    patterns: [RoutePattern("product/:sku")])),
            expected: .duplicatePattern(entry: "sku", pattern: "product/:sku", other: "product", otherPattern: "product/:id"),
            entry: "sku"),
        BrokenManifest(
            name: "duplicate query pattern, items in another order",
            manifest: Fixture.manifest(
                destinations: Fixture.destinations + [
                    RouteDefinition(
                        "q1", tab: "home", flow: "x", params: [ParamSpec("a"), ParamSpec("b")],
                        patterns: [RoutePattern("find?x=:a&y=:b")]),
                    RouteDefinition(
                        "q2", tab: "home", flow: "x", params: [ParamSpec("c"), ParamSpec("d")],
                        patterns: [RoutePattern("find?y=:c&x=:d")])
                ]),
            expected: .duplicatePattern(entry: "q2", pattern: "find?y=:c&x=:d", other: "q1", otherPattern: "find?x=:a&y=:b"),
            entry: "q2"),
        BrokenManifest(
            name: "entry-restricted patterns overlapping on one entry",
            manifest: Fixture.manifest(
                replacing: RouteDefinition(
                    "sku", parent: "home", flow: "browse", params: [ParamSpec("sku")],
                    patterns: [RoutePattern("products/:sku", entries: [.push, .universal])])),
            expected: .duplicatePattern(entry: "sku", pattern: "products/:sku", other: "product", otherPattern: "products/:id"),
            entry: "sku"),
        BrokenManifest(
            name: "unrestricted pattern overlapping a restricted one",
            manifest: Fixture.manifest(
                replacing: RouteDefinition(
                    "sku", parent: "home", flow: "browse", params: [ParamSpec("sku")],
                    patterns: [RoutePattern("products/:sku")])),
            expected: .duplicatePattern(entry: "sku", pattern: "products/:sku", other: "product", otherPattern: "products/:id"),
            entry: "sku"),
        BrokenManifest(
            name: "unknown precondition",
            manifest: Fixture.manifest(
                replacing: RouteDefinition(
                    "orders", tab: "orders", flow: "orders",
                    preconditions: ["auht"])),
            expected: .unknownPrecondition(entry: "orders", precondition: "auht"), entry: "orders"),
        BrokenManifest(
            name: "unknown tab",
            manifest: Fixture.manifest(replacing: RouteDefinition("wishlist", tab: "wishes", flow: "x")),
            expected: .unknownTab(entry: "wishlist", tab: "wishes"), entry: "wishlist"),
        BrokenManifest(
            name: "ancestor param missing",
            manifest: Fixture.manifest(
                replacing: RouteDefinition(
                    "track", parent: "order", flow: "orders",
                    patterns: [RoutePattern("orders/track")])),
            expected: .ancestorParamMissing(entry: "track", ancestor: "order", param: "id"), entry: "track"),
        BrokenManifest(
            name: "grand-ancestor param missing",
            manifest: Fixture.manifest(
                replacing: RouteDefinition(
                    "help", parent: "track", flow: "orders",
                    params: [ParamSpec("topic")])),
            expected: .ancestorParamMissing(entry: "help", ancestor: "track", param: "id"), entry: "help"),
        BrokenManifest(
            name: "pattern captures an undeclared param",
            manifest: Fixture.manifest(
                replacing: RouteDefinition(
                    "wishlist", tab: "home", flow: "x",
                    patterns: [RoutePattern("wish/:id")])),
            expected: .undeclaredPatternParam(entry: "wishlist", pattern: "wish/:id", param: "id"), entry: "wishlist"),
        BrokenManifest(
            name: "invalid param regex",
            manifest: Fixture.manifest(
                replacing: RouteDefinition(
                    "wishlist", tab: "home", flow: "x",
                    params: [ParamSpec("id", pattern: "([a-z")])),
            expected: .invalidParamPattern(entry: "wishlist", param: "id", pattern: "([a-z"), entry: "wishlist"),
        BrokenManifest(
            name: "duplicate destination",
            manifest: Fixture.manifest(destinations: Fixture.destinations + [RouteDefinition("home", tab: "home", flow: "y")]),
            expected: .duplicateDestination("home"), entry: "home"),
        BrokenManifest(
            name: "root without a tab",
            manifest: Fixture.manifest(replacing: RouteDefinition("orphan", flow: "x")),
            expected: .noTab(entry: "orphan", root: "orphan"), entry: "orphan")
    ]

    @Test("a bad manifest fails with an error naming the entry", arguments: broken)
    func rejects(_ c: BrokenManifest) {
        #expect(throws: c.expected) { try c.manifest.validate() }
        // The engine refuses to build on it, and so does the JSON loader.
        #expect(throws: c.expected) { try RoutingEngine(manifest: c.manifest) }
        let data = try? JSONEncoder().encode(c.manifest)
        #expect(throws: c.expected) { try RouteManifest.load(json: data ?? Data()) }
        #expect(c.expected.description.contains("route '\(c.entry)'"), "\(c.expected.description)")
    }

    /// Foundation's decoder recurses once per level: a manifest (or an
    /// archive) thousands of levels deep is refused before it sees it.
    @Test func aDocumentNestedTooDeepIsRefusedBeforeDecoding() {
        let deep = Data(
            ("{\"scheme\": \"a[\\\"{\",\n\"tabs\":" + String(repeating: "[", count: 30_000) + String(repeating: "]", count: 30_000) + "}")
                .utf8)
        #expect(throws: ManifestError.undecodable(JSONNesting.tooDeep(line: 2))) { try RouteManifest.load(json: deep) }
        #expect(throws: RestorationError.corrupt(JSONNesting.tooDeep(line: 2))) { try RestorationArchive.decode(deep) }
        #expect(JSONNesting.lineTooDeep(in: Data((String(repeating: "[", count: 100) + String(repeating: "]", count: 100)).utf8)) == nil)
        #expect(JSONNesting.lineTooDeep(in: Data((String(repeating: "[", count: 101) + String(repeating: "]", count: 101)).utf8)) == 1)
    }

    /// The converse of `undeclaredPatternParam`: a pattern that does not
    /// capture a declared (required) param would load yet refuse every link
    /// through it, so the manifest itself is rejected, naming the pattern.
    @Test func aPatternThatCannotSupplyARequiredParamIsRejected() throws {
        let manifest = Fixture.manifest(
            replacing: RouteDefinition(
                "order", parent: "orders", flow: "orders", params: [Fixture.orderID],
                patterns: [RoutePattern("orders/:id"), RoutePattern("last-order")]))
        #expect(throws: ManifestError.patternMissesParam(entry: "order", pattern: "last-order", param: "id")) {
            try manifest.validate()
        }
        #expect(throws: ManifestError.self) { try RoutingEngine(manifest: manifest) }
    }

    @Test func entryRestrictedPatternsOnDisjointEntriesAreNotDuplicates() throws {
        let manifest = Fixture.manifest(
            replacing: RouteDefinition(
                "collection", parent: "home", flow: "browse", params: [ParamSpec("slug")],
                patterns: [RoutePattern("products/:slug", entries: [.scheme, .widget, .push])]))
        try manifest.validate()
        let engine = try RoutingEngine(manifest: manifest)
        let context = RouteContext()
        #expect(
            try engine.resolve(url: "shop://products/shoes", entry: .scheme, context: context)
                == .proceed(Target(tab: "home", baseRun: [step("home"), step("collection", ["slug": "shoes"])])))
        #expect(
            try engine.resolve(url: "https://shop.example.com/products/p1", entry: .universal, context: context)
                == .proceed(Target(tab: "home", baseRun: [step("home"), step("product", id: "p1")])))
    }

    @Test func theJSONManifestLoadsAndEqualsTheSwiftFixture() throws {
        let loaded = try RouteManifest.load(json: Data(Fixture.json.utf8))
        #expect(loaded == Fixture.manifest())
        let product = try #require(loaded.definition("product"))
        #expect(product.patterns.last?.entries == [.universal])
        #expect(product.params.first?.maxLength == 12)
        #expect(loaded.definition("order")?.params.first?.kind == .integer)
        #expect(loaded.definition("cart")?.presentation == .modal)
        #expect(loaded.definition("home")?.presentation == .push)
        #expect(loaded.definition("nowhere") == nil)
    }

    @Test func theJSONManifestRoutesLikeTheSwiftOne() throws {
        let fromJSON = try RoutingEngine(manifest: try RouteManifest.load(json: Data(Fixture.json.utf8)))
        let fromSwift = try Fixture.engine()
        let context = RouteContext(satisfied: [Fixture.auth])
        for entry in EntryPoint.allCases {
            for url in RoutingEngineTests.valid.map(\.input) + RoutingEngineTests.aliased.map(\.input)
                + ["shop://orders/x", "https://shop.example.com/products/p9", "%zz"]
            {
                let a = Verdict { () throws(RouteError) in try fromJSON.resolve(url: url, entry: entry, context: context) }
                let b = Verdict { () throws(RouteError) in try fromSwift.resolve(url: url, entry: entry, context: context) }
                #expect(a == b, "\(entry) \(url)")
            }
        }
    }

    @Test func aManifestRoundTripsThroughJSON() throws {
        let data = try JSONEncoder().encode(Fixture.manifest())
        #expect(try RouteManifest.load(json: data) == Fixture.manifest())
    }

    @Test(
        "bad JSON is refused with a readable reason",
        arguments: [
            ("", "dataCorrupted"),
            ("{", "dataCorrupted"),
            ("[]", "typeMismatch"),
            (#"{"scheme": "shop"}"#, "universal_hosts"),
            (
                #"{"scheme":"shop","universal_hosts":[],"tabs":["home"],"preconditions":[],"destinations":[{"id":"home","tab":"home"}]}"#,
                "flow"
            ),
            (
                #"{"scheme":"shop","universal_hosts":[],"tabs":["home"],"preconditions":[],"destinations":[{"id":"home","tab":"home","flow":"x","presentation":"sheet"}]}"#,
                "sheet"
            ),
            (
                #"{"scheme":"shop","universal_hosts":[],"tabs":["home"],"preconditions":[],"destinations":[{"id":"home","tab":"home","flow":"x","patterns":[{"path":"x","entries":["fax"]}]}]}"#,
                "fax"
            ),
            (
                #"{"scheme":"shop","universal_hosts":[],"tabs":["home"],"preconditions":[],"destinations":[{"id":"home","tab":"home","flow":"x","params":[{"name":"id","kind":"float"}]}]}"#,
                "float"
            )
        ])
    func badJSON(_ json: String, _ mentions: String) {
        do {
            let manifest = try RouteManifest.load(json: Data(json.utf8))
            Issue.record("loaded \(manifest)")
        } catch {
            guard case .undecodable(let detail) = error else {
                Issue.record("expected undecodable, got \(error)")
                return
            }
            #expect(detail.contains(mentions), "\(detail)")
            #expect(error.description.hasPrefix("route manifest is not valid JSON"))
        }
    }

    @Test func aSchemaErrorInsideADestinationPointsAtIt() {
        let json =
            #"{"scheme":"shop","universal_hosts":[],"tabs":["home"],"preconditions":[],"destinations":[{"id":"home","tab":"home","flow":"x"},{"id":"cart","parent":"home"}]}"#
        let error = #expect(throws: ManifestError.self) { try RouteManifest.load(json: Data(json.utf8)) }
        guard case .undecodable(let detail)? = error else {
            Issue.record("expected undecodable, got \(String(describing: error))")
            return
        }
        // The decoder names the position (destinations[1]) and the missing key.
        #expect(detail.contains("destinations[1]") && detail.contains("flow"), "\(detail)")
    }

    @Test func patternsParseTemplatesAndEntries() {
        let pattern = RoutePattern("Deeplink?Product=:id&src=app", entries: [.universal])
        #expect(pattern.path == [.literal("deeplink")])
        #expect(pattern.query.map(\.key) == ["product", "src"])
        #expect(pattern.parameterNames == ["id"])
        #expect(pattern.applies(to: .universal))
        #expect(!pattern.applies(to: .scheme))
        #expect(RoutePattern("x").applies(to: .push))
        #expect(pattern.description == "Deeplink?Product=:id&src=app [universal]")
        let link = RouteLink(entry: .universal, path: ["DEEPLINK"], query: ["product": "p1", "src": "APP"], raw: "")
        #expect(pattern.match(link) == ["id": "p1"])
        #expect(pattern.match(RouteLink(entry: .scheme, path: ["deeplink"], query: ["product": "p1", "src": "app"], raw: "")) == nil)
        #expect(pattern.match(RouteLink(entry: .universal, path: ["deeplink"], query: ["product": "p1"], raw: "")) == nil)
    }
}
