import Testing

@testable import NavigationCore

/// Generates link-like strings from a seed: valid routes, random segments,
/// random percent-escapes, random Unicode scalars and random lengths up to
/// 3000 bytes. Owns its generator, so the same seed gives the same inputs.
struct LinkGenerator {
    private var rng: SplitMix64

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    static let prefixes = [
        "shop://", "shop://", "https://shop.example.com/", "https://shop.example.com/", "SHOP://",
        "https://SHOP.Example.com/", "https://evil.example.com/", "http://shop.example.com/", "", "shop:",
        "shop:/", "https://", "myshop://", "https://shop.example.com", "shop://?", " shop://"
    ]
    static let routes = [
        "home", "product/%@", "p/%@", "deeplink?product=%@", "products/%@", "product/%@/reviews", "cart",
        "checkout", "orders", "orders/%#", "order?id=%#", "orders/%#/track", "profile", "settings",
        "settings/address", "?promo=%A", "category/%a"
    ]
    static let words = [
        "product", "p", "orders", "cart", "home", "deeplink", "settings", "..", ".", "%", "?", "#",
        "&", "=", "+", "//", "products", "track", "reviews", "promo", "category"
    ]

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

    mutating func next() -> String {
        var text = Self.prefixes.randomElement(using: &rng)!
        switch int(0...9) {
        case 0...3: text += validRoute()
        case 4...5: text += mutated(validRoute())
        case 6: text += (0..<int(0...8)).map { _ in segment() }.joined(separator: "/")
        case 7: text += (0..<int(0...6)).map { _ in segment() }.joined(separator: "/") + "?" + query()
        case 8: text += longTail()
        default: text += String(String.UnicodeScalarView((0..<int(0...40)).map { _ in scalar() }))
        }
        if chance(10) { text += "#" + segment() }
        return text
    }

    private mutating func validRoute() -> String {
        var route = Self.routes.randomElement(using: &rng)!
        route = route.replacingFirst("%@", with: "p" + digits(int(1...(chance(90) ? 8 : 14))))
        route = route.replacingFirst("%#", with: chance(90) ? digits(int(1...12)) : digits(int(19...22)))
        route = route.replacingFirst("%A", with: String((0..<int(1...14)).map { _ in "ABCXYZ0129".randomElement(using: &rng)! }))
        route = route.replacingFirst("%a", with: String((0..<int(1...10)).map { _ in "abc-xyz".randomElement(using: &rng)! }))
        return route
    }

    private mutating func mutated(_ route: String) -> String {
        var scalars = Array(route.unicodeScalars)
        for _ in 0..<int(1...3) {
            let at = int(0...scalars.count)
            switch int(0...3) {
            case 0: scalars.insert(contentsOf: escape().unicodeScalars, at: at)
            case 1: scalars.insert(scalar(), at: at)
            case 2: if at < scalars.count { scalars.remove(at: at) }
            default: scalars.insert(contentsOf: "/\(segment())".unicodeScalars, at: at)
            }
        }
        return String(String.UnicodeScalarView(scalars))
    }

    private mutating func segment() -> String {
        switch int(0...4) {
        case 0: return Self.words.randomElement(using: &rng)!
        case 1: return escape() + escape()
        case 2: return String(String.UnicodeScalarView((0..<int(1...6)).map { _ in scalar() }))
        case 3: return digits(int(0...25))
        default:
            return String((0..<int(0...12)).map { _ in "abcxyzABC019-_.~!$'()*+,;:@".randomElement(using: &rng)! })
        }
    }

    private mutating func query() -> String {
        (0..<int(0...5)).map { _ in segment() + (chance(80) ? "=" + segment() : "") }.joined(separator: "&")
    }

    /// A run of 1 000–3 000 bytes: some inputs straddle the 2 048-byte limit.
    private mutating func longTail() -> String {
        let target = int(1_000...3_000)
        var text = ""
        while text.utf8.count < target {
            text += chance(50) ? segment() + "/" : escape()
        }
        return text
    }

    /// `%XX` with valid hex, invalid hex, or cut short.
    private mutating func escape() -> String {
        let hex = Array("0123456789abcdefABCDEF")
        switch int(0...9) {
        case 0: return "%" + String(hex.randomElement(using: &rng)!)
        case 1: return "%zz"
        case 2: return "%" + String("gGxX%-".randomElement(using: &rng)!) + String(hex.randomElement(using: &rng)!)
        default:
            let byte = UInt8.random(in: 0...255, using: &rng)
            return "%" + String(byte >> 4, radix: 16) + String(byte & 15, radix: 16, uppercase: true)
        }
    }

    /// Any valid scalar, biased toward the ones that break parsers.
    private mutating func scalar() -> Unicode.Scalar {
        let value: UInt32
        switch int(0...9) {
        case 0: value = UInt32(int(0...0x20))  // controls and space
        case 1: value = UInt32(int(0x7F...0x9F))  // DEL and C1 controls
        case 2: value = UInt32(int(0x300...0x36F))  // combining marks
        case 3: value = [0x200B, 0x200D, 0x202E, 0xFEFF, 0xFFFD, 0x2028, 0x0085, 0x00A0].randomElement(using: &rng)!
        case 4: value = UInt32(int(0x1F300...0x1FAFF))  // emoji
        case 5: value = UInt32(int(0x4E00...0x9FFF))  // CJK
        case 6: value = UInt32(int(0x21...0x7E))  // printable ASCII
        default: value = UInt32(int(0...0x10FFFF))
        }
        return Unicode.Scalar(value) ?? "\u{FFFD}"  // surrogates are not scalars
    }

    private mutating func digits(_ count: Int) -> String {
        String((0..<count).map { _ in "0123456789".randomElement(using: &rng)! })
    }
}

private extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}

@Suite("Routing properties")
struct RoutingPropertyTests {
    static let count = 20_480
    static let kinds: Set<String> = ["malformed", "unknown_route", "validation_failed"]

    @Test func theGeneratorIsDeterministic() {
        var a = LinkGenerator(seed: 42)
        var b = LinkGenerator(seed: 42)
        var c = LinkGenerator(seed: 43)
        let first = (0..<200).map { _ in a.next() }
        #expect(first == (0..<200).map { _ in b.next() })
        #expect(first != (0..<200).map { _ in c.next() })
    }

    /// Tens of thousands of generated links through every entry point: no
    /// trap, and every input gets a decision or a ``RouteError`` of a known
    /// kind. Decisions must agree with the request door, and anything over
    /// the length limit must be refused as malformed.
    @Test func everyGeneratedLinkGetsADecisionOrARouteError() throws {
        let engine = try Fixture.engine()
        let contexts = [
            RouteContext(), RouteContext(satisfied: [Fixture.auth]),
            RouteContext(satisfied: [Fixture.auth, Fixture.payment])
        ]
        var generator = LinkGenerator(seed: 0x5EED_2048)
        var tally: [String: Int] = [:]
        var failures: [String] = []
        var longest = 0

        for index in 0..<Self.count {
            let url = generator.next()
            longest = max(longest, url.utf8.count)
            let context = contexts[index % contexts.count]
            for entry in EntryPoint.allCases {
                let outcome: String
                do {
                    let resolution = try engine.resolve(url: url, entry: entry, context: context)
                    outcome = try check(resolution, engine: engine, context: context, url: url, failures: &failures)
                } catch let error as RouteError {
                    outcome = error.kind
                    if !Self.kinds.contains(error.kind) { failures.append("\(entry) \(url.debugDescription): kind \(error.kind)") }
                    if url.utf8.count > EntryPointAdapter.maximumLength, error.kind != "malformed" {
                        failures.append("\(entry) over-long input refused as \(error.kind)")
                    }
                }
                if url.utf8.count > EntryPointAdapter.maximumLength, outcome == "proceed" || outcome == "gated" {
                    failures.append("\(entry) over-long input accepted")
                }
                tally[outcome, default: 0] += 1
            }
            // The push door, as a payload route, must be just as total.
            do {
                _ = try engine.resolve(.payload(["route": url]), entry: .push, context: context)
            } catch {
                if !Self.kinds.contains(error.kind) { failures.append("payload \(url.debugDescription): \(error.kind)") }
            }
        }

        #expect(failures.isEmpty, "\(failures.count) failures, first: \(failures.prefix(5))")
        #expect(tally.values.reduce(0, +) == Self.count * EntryPoint.allCases.count)
        // The generator really exercised every outcome, so the test can fail.
        for outcome in ["proceed", "gated"] + Self.kinds.sorted() {
            #expect(tally[outcome, default: 0] >= 300, "only \(tally[outcome, default: 0]) \(outcome) in \(tally)")
        }
        #expect(longest > EntryPointAdapter.maximumLength)
    }

    /// A decision must be reproducible through the in-app door.
    private func check(
        _ resolution: RouteResolution, engine: RoutingEngine, context: RouteContext, url: String,
        failures: inout [String]
    ) throws -> String {
        switch resolution {
        case .proceed(let target):
            guard let leaf = target.leaf else {
                failures.append("\(url.debugDescription): a target without a leaf")
                return "proceed"
            }
            let again = try engine.resolve(request: RouteRequest(leaf.id, params: leaf.params), context: context)
            if again != resolution { failures.append("\(url.debugDescription): request door says \(again)") }
            return "proceed"
        case .gated(let precondition, let resume):
            if context.satisfied.contains(precondition) { failures.append("\(url.debugDescription): gated on a met \(precondition)") }
            let again = try engine.resolve(request: resume, context: context)
            if again != resolution { failures.append("\(url.debugDescription): request door says \(again)") }
            return "gated"
        }
    }
}
