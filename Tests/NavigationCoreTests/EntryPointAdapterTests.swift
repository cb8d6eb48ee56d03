import Testing

@testable import NavigationCore

@Suite("EntryPointAdapter")
struct EntryPointAdapterTests {
    let adapter = EntryPointAdapter(scheme: "Shop", universalHosts: ["Shop.Example.com"])

    struct LinkCase: Sendable, CustomTestStringConvertible {
        let input: EntryInput
        let entry: EntryPoint
        let path: [String]
        let query: [String: String]
        var testDescription: String { "\(entry) \(input)" }
    }

    @Test(
        "every door lifts its own delivery shape into the same link",
        arguments: [
            LinkCase(input: .url("shop://product/p1"), entry: .scheme, path: ["product", "p1"], query: [:]),
            LinkCase(input: .url("shop://product/p1"), entry: .widget, path: ["product", "p1"], query: [:]),
            LinkCase(
                input: .url("https://shop.example.com/product/p1"), entry: .universal,
                path: ["product", "p1"], query: [:]),
            LinkCase(input: .url("https://shop.example.com/product/p1"), entry: .push, path: ["product", "p1"], query: [:]),
            LinkCase(input: .url("shop://product/p1"), entry: .spotlight, path: ["product", "p1"], query: [:]),
            LinkCase(input: .payload(["route": "product/p1", "aps": "x"]), entry: .push, path: ["product", "p1"], query: [:]),
            LinkCase(input: .payload(["url": "shop://product/p1"]), entry: .push, path: ["product", "p1"], query: [:]),
            LinkCase(
                input: .payload(["url": "https://shop.example.com/product/p1"]), entry: .push,
                path: ["product", "p1"], query: [:]),
            LinkCase(
                input: .activity(
                    type: "NSUserActivityTypeBrowsingWeb",
                    userInfo: ["webpage_url": "https://shop.example.com/product/p1"]),
                entry: .spotlight, path: ["product", "p1"], query: [:]),
            LinkCase(
                input: .activity(type: "com.shop.product", userInfo: ["identifier": "product/p1"]),
                entry: .spotlight, path: ["product", "p1"], query: [:]),
            LinkCase(
                input: .url("shop://deeplink?Product=p1&x=a+b&y=%26"), entry: .scheme,
                path: ["deeplink"], query: ["product": "p1", "x": "a b", "y": "&"]),
            LinkCase(input: .url("shop://a%2Fb/c+d"), entry: .scheme, path: ["a/b", "c+d"], query: [:])
        ])
    func lifts(_ c: LinkCase) throws {
        let link = try adapter.link(for: c.input, via: c.entry)
        // An https link is a universal link whichever door delivered it.
        let isHTTPS = c.input.description.contains("https://")
        #expect(link.entry == (isHTTPS ? .universal : c.entry))
        #expect(link.path == c.path)
        #expect(link.query == c.query)
    }

    /// An https link at the scheme door (deep_link's default) is the usual slip: the reason says
    /// which door takes it; another scheme's link just says what was expected.
    @Test func anHTTPSLinkAtTheSchemeDoorSaysWhichDoorTakesIt() {
        #expect(
            throws: RouteError.malformed(
                input: "https://shop.example.com/cart",
                reason: "expected a shop:// link (an https:// link comes through a universal door)")
        ) {
            try adapter.link(for: .url("https://shop.example.com/cart"), via: .scheme)
        }
        #expect(throws: RouteError.malformed(input: "ftp://x", reason: "expected a shop:// link")) {
            try adapter.link(for: .url("ftp://x"), via: .scheme)
        }
    }

    @Test func keepsTheRawInputForMessages() throws {
        let link = try adapter.link(for: .url("shop://product/p%31"), via: .scheme)
        #expect(link.raw == "shop://product/p%31")
        #expect(link.path == ["product", "p1"])
    }

    @Test(
        "refusals carry a kind and never trap",
        arguments: [
            (EntryInput.payload([:]), EntryPoint.push, "malformed"),
            (.payload(["alert": "hi"]), .push, "malformed"),
            (.payload(["route": ""]), .push, "malformed"),
            (.payload(["route": "%zz"]), .push, "malformed"),
            (.payload(["url": "ftp://x"]), .push, "malformed"),
            (.activity(type: "x", userInfo: [:]), .spotlight, "malformed"),
            (.activity(type: "x", userInfo: ["webpage_url": "shop://product/p1"]), .spotlight, "malformed"),
            (.activity(type: "x", userInfo: ["webpage_url": "https://other.example/product/p1"]), .spotlight, "unknown_route"),
            (.url("shop://"), .scheme, "unknown_route"),
            (.url("https://shop.example.com/#x"), .universal, "unknown_route"),
            (.url(String(repeating: "a", count: EntryPointAdapter.maximumLength + 1)), .scheme, "malformed"),
            (.payload(["route": String(repeating: "a/", count: 1500)]), .push, "malformed")
        ])
    func refuses(_ input: EntryInput, _ entry: EntryPoint, _ kind: String) {
        do {
            let link = try adapter.link(for: input, via: entry)
            Issue.record("expected \(kind), got \(link.path) \(link.query)")
        } catch {
            #expect(error.kind == kind)
        }
    }

    /// The host ends at the first `/`, `?` or `#` character; one that a
    /// combining mark joins is not that character (so the host goes on),
    /// whether the host is plain ASCII or not.
    @Test(
        "universal hosts end where a separator character does",
        arguments: [
            ("https://SHOP.example.com/product/p1", ["product", "p1"], [:]),
            ("https://shop.example.com?product=p1", [], ["product": "p1"]),
            ("https://shop.example.com#x/product/p1", nil, nil),
            ("https://shop.example.com/\u{301}product/p1", nil, nil),
            ("https://shop.example.com?\u{301}product=p1", nil, nil),
            ("https://sh\u{F6}p.example.com/product/p1", nil, nil)
        ] as [(String, [String]?, [String: String]?)])
    func universalHosts(_ url: String, _ path: [String]?, _ query: [String: String]?) {
        let link = try? adapter.link(for: .url(url), via: .universal)
        #expect(link?.path == path)
        #expect(link?.query == query)
        let unicodeHost = EntryPointAdapter(scheme: "shop", universalHosts: ["sh\u{F6}p.example.com"])
        let other = try? unicodeHost.link(for: .url("https://SH\u{D6}P.example.com/product/p1"), via: .universal)
        #expect(other?.path == ["product", "p1"])
    }

    @Test func theLengthLimitCountsUTF8Bytes() throws {
        // 2048 bytes pass, 2049 do not — and a multi-byte scalar counts as its bytes.
        let prefix = "shop://x/"
        let fits = prefix + String(repeating: "a", count: EntryPointAdapter.maximumLength - prefix.utf8.count)
        #expect(fits.utf8.count == EntryPointAdapter.maximumLength)
        #expect(throws: Never.self) { try adapter.link(for: .url(fits), via: .scheme) }
        let overByOneScalar = prefix + String(repeating: "é", count: (EntryPointAdapter.maximumLength - prefix.utf8.count) / 2 + 1)
        #expect(overByOneScalar.count < EntryPointAdapter.maximumLength)
        #expect(throws: RouteError.self) { try adapter.link(for: .url(overByOneScalar), via: .scheme) }
    }

    @Test func adapterFromManifestUsesItsSchemeAndHosts() throws {
        let adapter = EntryPointAdapter(manifest: Fixture.manifest())
        #expect(adapter.scheme == "shop")
        #expect(adapter.universalHosts == ["shop.example.com"])
    }

    @Test func inputDescriptionsAreStableForTheEventLog() {
        #expect(EntryInput.url("shop://x").description == "shop://x")
        #expect(EntryInput.payload(["route": "cart", "a": "1"]).description == "{a=1, route=cart}")
        #expect(EntryInput.activity(type: "t", userInfo: ["identifier": "x"]).description == "activity t {identifier=x}")
    }
}

/// The byte-level parse of ASCII links must give exactly the answers of the
/// `Character`-based parse: the same link, or the same error.
@Suite("EntryPointAdapter: the ASCII parse")
struct EntryPointAdapterASCIITests {
    let adapter = EntryPointAdapter(scheme: "shop", universalHosts: ["shop.example.com"])

    func both(_ rest: String) -> (fast: Result<RouteLink, RouteError>?, general: Result<RouteLink, RouteError>) {
        let raw = "shop://" + rest
        let fast = Array(rest.utf8).withUnsafeBufferPointer { EntryPointAdapter.parseASCII($0, raw: raw, entry: .scheme) }
        let general = Result { () throws(RouteError) in try adapter.parseScalars(raw, rest: Substring(rest), entry: .scheme) }
        return (fast, general)
    }

    @Test(
        "the shapes links take",
        arguments: [
            "product/p1", "product//p1/", "/", "", "?", "??", "?&", "#", "a#b?c=d", "a?b=1&b=2&B=3", "a?=v&k=",
            "a?k", "a?k=v=w", "a/%41%42", "a/%4", "a/%zz", "a?q=x+y&p%20q=%2B", "a/x+y", "a/%00", "a/%C3%A9",
            "a/%FF", "a b", "a\tb", "a/\u{7F}", "#frag/ment", "a?b#c?d", "deeplink?product=p7", "a&b/c=d"
        ])
    func shapes(_ rest: String) {
        let (fast, general) = both(rest)
        #expect(fast == general, "\(rest)")
    }

    @Test("random ASCII links")
    func random() {
        var generator = SplitMix64(seed: 2026)
        let alphabet = Array("ab/?#&=%+2AfF \t\u{7F}Zz09".utf8)
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...14, using: &generator)
            let bytes = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            let rest = String(decoding: bytes, as: UTF8.self)
            let (fast, general) = both(rest)
            #expect(fast == general, "\(rest.debugDescription)")
            if fast != general { return }
        }
    }

    @Test("non-ASCII input is left to the Character-based parse")
    func nonASCII() {
        #expect(both("caf\u{E9}").fast == nil)
        let link = try? adapter.link(for: .url("shop://caf\u{E9}/x"), via: .scheme)
        #expect(link?.path == ["caf\u{E9}", "x"])
    }
}
