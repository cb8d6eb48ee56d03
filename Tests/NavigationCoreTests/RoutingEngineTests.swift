import Testing

@testable import NavigationCore

/// What the engine should say about one input.
enum Verdict: Hashable, Sendable, CustomStringConvertible {
    case proceed(Target)
    case gated(Precondition, resume: RouteRequest)
    /// A ``RouteError`` of this kind (`malformed`, `unknown_route`, `validation_failed`).
    case error(String)

    var description: String {
        switch self {
        case .proceed(let target): return "proceed \(target)"
        case .gated(let p, let resume): return "gated \(p) \(resume)"
        case .error(let kind): return kind
        }
    }

    init(_ body: () throws(RouteError) -> RouteResolution) {
        do {
            switch try body() {
            case .proceed(let target): self = .proceed(target)
            case .gated(let p, let resume): self = .gated(p, resume: resume)
            }
        } catch {
            self = .error(error.kind)
        }
    }
}

struct EngineCase: Sendable, CustomTestStringConvertible {
    let input: String
    let entry: EntryPoint
    let satisfied: Set<Precondition>
    let expected: Verdict

    init(_ input: String, satisfied: Set<Precondition> = [], _ expected: Verdict) {
        self.init(input, .scheme, satisfied: satisfied, expected)
    }

    init(_ input: String, _ entry: EntryPoint, satisfied: Set<Precondition> = [], _ expected: Verdict) {
        self.input = input
        self.entry = entry
        self.satisfied = satisfied
        self.expected = expected
    }

    var testDescription: String {
        let shown = input.count > 60 ? String(input.prefix(57)) + "…(\(input.utf8.count) bytes)" : input
        return "\(entry) \(shown.debugDescription) → \(expected)"
    }
}

private let productP1004 = Target(tab: "home", baseRun: [step("home"), step("product", id: "p1004")])
private let both: Set<Precondition> = [Fixture.auth, Fixture.payment]

@Suite("RoutingEngine")
struct RoutingEngineTests {
    static let valid: [EngineCase] = [
        EngineCase("shop://home", .proceed(Target(tab: "home", baseRun: [step("home")]))),
        EngineCase("shop://product/p1004", .proceed(productP1004)),
        EngineCase("shop://product/p1004", .widget, .proceed(productP1004)),
        EngineCase("https://shop.example.com/product/p1004", .universal, .proceed(productP1004)),
        EngineCase("HTTPS://Shop.Example.COM/Product/p1004", .universal, .proceed(productP1004)),
        EngineCase("SHOP://PRODUCT/p1004", .proceed(productP1004)),
        EngineCase("shop://product/p1004#reviews", .proceed(productP1004)),
        EngineCase("shop://product//p1004/", .proceed(productP1004)),
        EngineCase("shop://product/p%31004", .proceed(productP1004)),
        // Parameters propagate to every ancestor that declares them.
        EngineCase(
            "shop://product/p7/reviews",
            .proceed(
                Target(
                    tab: "home", baseRun: [step("home"), step("product", id: "p7"), step("reviews", id: "p7")]))),
        EngineCase(
            "shop://category/shoes",
            .proceed(
                Target(
                    tab: "home", baseRun: [step("home"), step("category", ["slug": "shoes"])]))),
        EngineCase(
            "shop://orders/42/track", satisfied: [Fixture.auth],
            .proceed(
                Target(
                    tab: "orders", baseRun: [step("orders"), step("order", id: "42"), step("track", id: "42")]))),
        EngineCase(
            "shop://order?id=0042", satisfied: [Fixture.auth],
            .proceed(
                Target(
                    tab: "orders", baseRun: [step("orders"), step("order", id: "0042")]))),
        // A modal destination, and a child pushed inside the modal.
        EngineCase(
            "shop://cart", satisfied: both,
            .proceed(
                Target(
                    tab: "home", baseRun: [step("home")], modals: [[step("cart")]]))),
        EngineCase(
            "shop://checkout", satisfied: both,
            .proceed(
                Target(
                    tab: "home", baseRun: [step("home")], modals: [[step("cart"), step("checkout")]]))),
        // A modal presented on a modal.
        EngineCase(
            "shop://settings/address",
            .proceed(
                Target(
                    tab: "profile", baseRun: [step("profile")], modals: [[step("settings")], [step("address")]]))),
        // A query-only link.
        EngineCase(
            "shop://?promo=SUMMER24",
            .proceed(
                Target(
                    tab: "home", baseRun: [step("home"), step("promo", ["code": "SUMMER24"])]))),
        EngineCase(
            "https://shop.example.com/?promo=SUMMER24", .universal,
            .proceed(
                Target(
                    tab: "home", baseRun: [step("home"), step("promo", ["code": "SUMMER24"])])))
    ]

    static let aliased: [EngineCase] = [
        EngineCase("shop://p/p1004", .proceed(productP1004)),
        EngineCase("shop://deeplink?product=p1004", .proceed(productP1004)),
        EngineCase("shop://deeplink?PRODUCT=p1004&utm=x", .proceed(productP1004)),
        EngineCase("shop://deeplink?product=p1004&product=p9", .proceed(productP1004)),
        EngineCase("https://shop.example.com/p/p1004", .universal, .proceed(productP1004)),
        EngineCase("https://shop.example.com/deeplink?product=p1004", .universal, .proceed(productP1004)),
        // The entry-restricted alias works for universal links only.
        EngineCase("https://shop.example.com/products/p1004", .universal, .proceed(productP1004)),
        EngineCase("shop://products/p1004", .scheme, .error("unknown_route")),
        EngineCase("shop://products/p1004", .widget, .error("unknown_route"))
    ]

    static let gated: [EngineCase] = [
        EngineCase("shop://cart", .gated(Fixture.auth, resume: RouteRequest("cart"))),
        // Chained: auth first, then the child's own precondition.
        EngineCase("shop://checkout", .gated(Fixture.auth, resume: RouteRequest("checkout"))),
        EngineCase(
            "shop://checkout", satisfied: [Fixture.auth],
            .gated(Fixture.payment, resume: RouteRequest("checkout"))),
        EngineCase(
            "shop://checkout", satisfied: [Fixture.payment],
            .gated(Fixture.auth, resume: RouteRequest("checkout"))),
        // An ancestor's precondition gates the descendant; the resume keeps the params.
        EngineCase("shop://orders/42/track", .gated(Fixture.auth, resume: RouteRequest("track", params: ["id": "42"]))),
        EngineCase(
            "https://shop.example.com/orders/7", .universal,
            .gated(Fixture.auth, resume: RouteRequest("order", params: ["id": "7"])))
    ]

    static let invalid: [EngineCase] = [
        EngineCase("shop://orders/abc", satisfied: [Fixture.auth], .error("validation_failed")),
        EngineCase("shop://orders/-1", satisfied: [Fixture.auth], .error("validation_failed")),
        EngineCase("shop://orders/+1", satisfied: [Fixture.auth], .error("validation_failed")),
        EngineCase("shop://orders/99999999999999999999", satisfied: [Fixture.auth], .error("validation_failed")),
        // Validation comes before the gate: an invalid id is never "gated".
        EngineCase("shop://orders/abc", .error("validation_failed")),
        EngineCase("shop://product/x1", .error("validation_failed")),
        EngineCase("shop://product/P1", .error("validation_failed")),
        EngineCase("shop://product/p1234567890123", .error("validation_failed")),  // 14 > max 12
        EngineCase(
            "shop://product/p12345678901",
            .proceed(
                Target(
                    tab: "home", baseRun: [step("home"), step("product", id: "p12345678901")]))),  // 12 == max
        EngineCase("shop://?promo=ABC", .error("validation_failed")),  // shorter than 4
        EngineCase("shop://deeplink?product=", .error("validation_failed")),
        EngineCase("shop://category/Shoes", .error("validation_failed"))
    ]

    static let malformedAndHostile: [EngineCase] = [
        EngineCase("", .error("malformed")),
        EngineCase("", .universal, .error("malformed")),
        EngineCase("shop://product/" + String(repeating: "p", count: 2100), .error("malformed")),
        EngineCase(
            "https://shop.example.com/product/" + String(repeating: "1", count: 3000), .universal,
            .error("malformed")),
        // Exactly at the limit is parsed (and then fails validation).
        EngineCase("shop://product/" + String(repeating: "9", count: 2048 - 15), .error("validation_failed")),
        EngineCase("shop://product/%zz", .error("malformed")),
        EngineCase("shop://product/%", .error("malformed")),
        EngineCase("shop://product/p1%2", .error("malformed")),
        EngineCase("shop://product/%ff%fe", .error("malformed")),
        EngineCase("shop://product/%e2%82", .error("malformed")),
        EngineCase("shop://product/%C0%AF", .error("malformed")),  // overlong '/'
        EngineCase("shop://product/p1?x=%zz", .error("malformed")),
        EngineCase("shop://product/%00", .error("malformed")),
        EngineCase("shop://product/p1%0A", .error("malformed")),
        EngineCase("shop://product/p1\n", .error("malformed")),
        EngineCase("shop://product/\u{0}p1", .error("malformed")),
        EngineCase("shop://product/p 1", .error("malformed")),
        EngineCase("shop://product/p1\u{7F}", .error("malformed")),
        EngineCase("shop://product/p1\t", .error("malformed")),
        // Unicode paths: well-formed, just not ours or not valid.
        EngineCase("shop://product/ü", .error("validation_failed")),
        EngineCase("shop://product/%F0%9F%98%80", .error("validation_failed")),
        EngineCase("shop://product/p١٢٣", .error("validation_failed")),  // Arabic-Indic digits
        EngineCase("shop://商品/p1", .error("unknown_route")),
        EngineCase("shop://orders/٤٢", satisfied: [Fixture.auth], .error("validation_failed")),
        EngineCase("shop://\u{301}product/p1", .error("unknown_route")),
        EngineCase("shop://produ\u{200B}ct/p1", .error("unknown_route")),
        // Wrong scheme or shape.
        EngineCase("http://product/p1", .error("malformed")),
        EngineCase("shopx://product/p1", .error("malformed")),
        EngineCase("shop:/product/p1", .error("malformed")),
        EngineCase("javascript:alert(1)", .error("malformed")),
        EngineCase("https://shop.example.com/product/p1", .scheme, .error("malformed")),
        EngineCase("shop://product/p1", .universal, .error("malformed")),
        EngineCase("http://shop.example.com/product/p1", .universal, .error("malformed")),
        // Unknown universal hosts.
        EngineCase("https://evil.example.com/product/p1", .universal, .error("unknown_route")),
        EngineCase("https://shop.example.com.evil.com/product/p1", .universal, .error("unknown_route")),
        EngineCase("https://shop.example.com@evil.com/product/p1", .universal, .error("unknown_route")),
        EngineCase("https:///product/p1", .universal, .error("unknown_route")),
        // Query-only and empty links that name nothing.
        EngineCase("shop://", .error("unknown_route")),
        EngineCase("shop://?", .error("unknown_route")),
        EngineCase("shop://?product=p1", .error("unknown_route")),
        EngineCase("shop://?&&=&", .error("unknown_route")),
        EngineCase("https://shop.example.com", .universal, .error("unknown_route")),
        EngineCase("https://shop.example.com/?x=1", .universal, .error("unknown_route")),
        // Well-formed, unknown.
        EngineCase("shop://product", .error("unknown_route")),
        EngineCase("shop://product/p1/extra", .error("unknown_route")),
        EngineCase("shop://nowhere/p1", .error("unknown_route")),
        EngineCase("shop://deeplink?other=p1", .error("unknown_route")),
        EngineCase("shop://..%2F..%2Fetc/passwd", .error("unknown_route"))
    ]

    @Test("engine table: valid", arguments: valid)
    func validInputs(_ c: EngineCase) throws { try check(c) }

    @Test("engine table: aliased", arguments: aliased)
    func aliasedInputs(_ c: EngineCase) throws { try check(c) }

    @Test("engine table: gated", arguments: gated)
    func gatedInputs(_ c: EngineCase) throws { try check(c) }

    @Test("engine table: validation", arguments: invalid)
    func invalidInputs(_ c: EngineCase) throws { try check(c) }

    @Test("engine table: malformed and hostile", arguments: malformedAndHostile)
    func hostileInputs(_ c: EngineCase) throws { try check(c) }

    private func check(_ c: EngineCase) throws {
        let engine = try Fixture.engine()
        let verdict = Verdict { () throws(RouteError) in
            try engine.resolve(url: c.input, entry: c.entry, context: RouteContext(satisfied: c.satisfied))
        }
        #expect(verdict == c.expected)
    }

    /// Every route, every context: the URL door and the request door give the
    /// same precondition verdict, because there is one evaluator.
    @Test(
        "both front doors agree",
        arguments: [
            "shop://home", "shop://product/p1004", "shop://product/p1/reviews", "shop://cart",
            "shop://checkout", "shop://orders", "shop://orders/42", "shop://orders/42/track",
            "shop://settings/address", "shop://?promo=SUMMER24"
        ])
    func frontDoorsAgree(_ url: String) throws {
        let engine = try Fixture.engine()
        let link = try engine.adapter.link(for: .url(url), via: .scheme)
        let request = try engine.request(for: link)
        for satisfied: Set<Precondition> in [[], [Fixture.auth], [Fixture.payment], both] {
            let context = RouteContext(satisfied: satisfied)
            let viaURL = Verdict { () throws(RouteError) in try engine.resolve(url: url, entry: .scheme, context: context) }
            let viaRequest = Verdict { () throws(RouteError) in try engine.resolve(request: request, context: context) }
            #expect(viaURL == viaRequest, "\(url) with \(satisfied.map(\.rawValue).sorted())")
            if case .error = viaURL { Issue.record("\(url) should resolve, got \(viaURL)") }
        }
    }

    @Test func gatedResultCarriesTheOriginalRequestToResume() throws {
        let engine = try Fixture.engine()
        let request = RouteRequest("track", params: ["id": "42"])
        let resolution = try engine.resolve(request: request, context: RouteContext())
        guard case .gated(let precondition, let resume) = resolution else {
            Issue.record("expected a gate, got \(resolution)")
            return
        }
        #expect(precondition == Fixture.auth)
        #expect(resume == request)
        // Resuming with the gate satisfied lands on the canonical path.
        let resumed = try engine.resolve(request: resume, context: RouteContext(satisfied: [precondition]))
        #expect(resumed == .proceed(try engine.target(for: request)))
    }

    @Test func preconditionsAreCollectedAncestorsFirst() throws {
        let engine = try Fixture.engine()
        #expect(engine.preconditions(of: "checkout") == [Fixture.auth, Fixture.payment])
        #expect(engine.preconditions(of: "track") == [Fixture.auth])
        #expect(engine.preconditions(of: "product") == [])
        #expect(engine.preconditions(of: "nowhere") == [])
    }

    @Test func targetCarriesCanonicalAncestryAndModalChains() throws {
        let engine = try Fixture.engine()
        let checkout = try engine.target(for: RouteRequest("checkout"))
        #expect(checkout.tab == "home")
        #expect(checkout.baseRun == [step("home")])
        #expect(checkout.modals == [[step("cart"), step("checkout")]])
        #expect(checkout.leaf == step("checkout"))

        let address = try engine.target(for: RouteRequest("address"))
        #expect(address.modals.count == 2)
        #expect(address.leaf == step("address"))
        #expect(address.description == "profile: profile | settings | address")
    }

    @Test func paramsPropagateToAncestorsAndExtraParamsAreDropped() throws {
        let engine = try Fixture.engine()
        let target = try engine.target(for: RouteRequest("track", params: ["id": "9", "utm": "mail"]))
        #expect(target.baseRun == [step("orders"), step("order", id: "9"), step("track", id: "9")])
    }

    /// The engine's choice is the first pattern, in manifest order, of those
    /// whose `match` accepts the link — whatever case or script the link's
    /// first component is in (the engine passes some patterns over untried).
    @Test func theEngineTakesTheFirstPatternThatMatches() throws {
        var destinations = Fixture.destinations
        destinations.append(
            RouteDefinition(
                "kit", parent: "home", flow: "browse",
                params: [ParamSpec("id")], patterns: [RoutePattern("kit/:id")]))
        let engine = try RoutingEngine(manifest: Fixture.manifest(destinations: destinations))
        let firsts = [
            "product", "PRODUCT", "Product", "p", "P", "kit", "KIT", "\u{212A}it", "\u{212A}IT", "orders",
            "category", "Category", "c\u{301}ategory", "\u{C9}", "promo", "x", "settings", "products"
        ]
        let rests = [[], ["p1"], ["p1", "reviews"], ["42", "track"], ["shoes"], ["address"]]
        for first in firsts {
            for rest in rests {
                for entry in [EntryPoint.scheme, .universal] {
                    let link = RouteLink(entry: entry, path: [first] + rest, raw: ([first] + rest).joined(separator: "/"))
                    let expected = destinations.lazy.flatMap { definition in
                        definition.patterns.lazy.compactMap { $0.match(link).map { RouteRequest(definition.id, params: $0) } }
                    }.first
                    let actual = try? engine.request(for: link)
                    if let expected, (try? engine.validateParams(of: expected)) != nil {
                        #expect(actual == expected, "\(entry) \(link.path)")
                    } else if expected == nil {
                        #expect(actual == nil, "\(entry) \(link.path)")
                    }
                }
            }
        }
        #expect(
            try engine.request(for: RouteLink(entry: .scheme, path: ["\u{212A}IT", "7"], raw: ""))
                == RouteRequest("kit", params: ["id": "7"]))
    }

    /// An ancestor that declares some of its descendant's params gets only
    /// those; one that declares all of them gets them all.
    @Test func eachAncestorTakesTheParamsItDeclares() throws {
        let section = ParamSpec("section", pattern: "[a-z]+")
        var destinations = Fixture.destinations
        destinations.append(
            RouteDefinition(
                "gallery", parent: "product", flow: "browse",
                params: [Fixture.productID, section],
                patterns: [RoutePattern("product/:id/gallery/:section")]))
        destinations.append(
            RouteDefinition(
                "photo", parent: "gallery", flow: "browse",
                params: [section, Fixture.productID],
                patterns: [RoutePattern("product/:id/gallery/:section/photo")]))
        let engine = try RoutingEngine(manifest: Fixture.manifest(destinations: destinations))
        let both: RouteParams = ["id": "p3", "section": "top"]
        let expected = [step("home"), step("product", id: "p3"), RouteStep("gallery", params: both), RouteStep("photo", params: both)]
        guard
            case .proceed(let target) = try engine.resolve(
                url: "shop://product/p3/gallery/top/photo", entry: .scheme,
                context: RouteContext())
        else {
            Issue.record("expected to proceed")
            return
        }
        #expect(target.baseRun == expected)
        let extra = try engine.target(for: RouteRequest("photo", params: ["id": "p3", "section": "top", "utm": "x"]))
        #expect(extra.baseRun == expected)
    }

    @Test(
        "request door validates params too",
        arguments: [
            (RouteRequest("order", params: [:]), "id", "missing"),
            (RouteRequest("order", params: ["id": "12a"]), "id", "expected an integer"),
            (RouteRequest("order", params: ["id": ""]), "id", "must not be empty"),
            (RouteRequest("product", params: ["id": "q1"]), "id", "does not match p[0-9]+"),
            (RouteRequest("promo", params: ["code": "ABCDEFGHIJKLM"]), "code", "longer than 12 characters"),
            (RouteRequest("promo", params: ["code": "AB"]), "code", "shorter than 4 characters")
        ])
    func requestDoorValidates(_ request: RouteRequest, _ parameter: String, _ reason: String) throws {
        let engine = try Fixture.engine()
        #expect(
            throws: RouteError.validationFailed(
                destination: request.destination, parameter: parameter,
                value: request.params[parameter] ?? "", reason: reason)
        ) {
            try engine.resolve(request: request, context: RouteContext(satisfied: both))
        }
    }

    @Test func unknownDestinationOnTheRequestDoorIsUnknownRoute() throws {
        let engine = try Fixture.engine()
        #expect(throws: RouteError.unknownRoute(input: "nowhere")) {
            try engine.resolve(request: RouteRequest("nowhere"), context: RouteContext())
        }
        #expect(throws: RouteError.unknownRoute(input: "nowhere")) { try engine.target(for: RouteRequest("nowhere")) }
        #expect(throws: RouteError.unknownRoute(input: "nowhere")) { try engine.validateParams(of: RouteRequest("nowhere")) }
        #expect(engine.preconditions(of: "nowhere").isEmpty)
        #expect(engine.definition(of: "nowhere") == nil)
    }

    @Test func aLinkLongerThanEveryPatternIsUnknownRoute() throws {
        let engine = try Fixture.engine()
        let long = "shop://" + Array(repeating: "a", count: 40).joined(separator: "/")
        #expect(throws: RouteError.unknownRoute(input: long)) {
            try engine.resolve(url: long, entry: .scheme, context: RouteContext())
        }
    }

    @Test func errorsDescribeThemselvesWithTheirKindAndClipHostileInput() throws {
        let engine = try Fixture.engine()
        let long = "shop://product/" + String(repeating: "%zz", count: 600)
        do {
            _ = try engine.resolve(url: long, entry: .scheme, context: RouteContext())
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == "malformed")
            #expect(error.description.hasPrefix("malformed: "))
            #expect(error.description.count < 200)
        }
    }

    @Test func integerParamsAcceptLeadingZerosAndTheInt64Boundary() throws {
        let engine = try Fixture.engine()
        let context = RouteContext(satisfied: [Fixture.auth])
        for ok in ["0", "007", String(Int64.max)] {
            #expect(throws: Never.self) { try engine.resolve(request: RouteRequest("order", params: ["id": ok]), context: context) }
        }
        for bad in ["9223372036854775808", "1e3", "0x1F", " 1", "1.0"] {
            #expect(throws: RouteError.self, "\(bad)") {
                try engine.resolve(request: RouteRequest("order", params: ["id": bad]), context: context)
            }
        }
    }
}
