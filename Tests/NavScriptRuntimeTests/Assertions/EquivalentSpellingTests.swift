import NavigationCore
import Testing

@testable import NavScriptRuntime

/// The other spellings `expect_same_outcome(url, nil, { spellings = true })`
/// tries: each one the same link to every URL parser.
@Suite("EquivalentSpelling")
struct EquivalentSpellingTests {
    func spellings(_ input: EntryInput) -> [String] {
        EquivalentSpelling.variants(of: input).map { "\($0.change): \($0.input)" }
    }

    @Test func aSchemeLinkGetsItsRouteEncodedAndItsSchemeInCapitals() {
        #expect(
            spellings(.url("shop://orders/42?tab=1"))
                == [
                    "a letter of its route percent-encoded: shop://%6Frders/42?tab=1",
                    "its route's last letter percent-encoded in lowercase hex: shop://order%73/42?tab=1",
                    "its scheme in capitals: SHOP://orders/42?tab=1"
                ])
        // A letter inside a parameter's value, in lowercase hex: a decoder that knew only `%6F` refused it.
        #expect(
            spellings(.url("shop://category/shoes"))[1]
                == "its route's last letter percent-encoded in lowercase hex: shop://category/shoe%73")
    }

    @Test func aUniversalLinkGetsItsHostAndSchemeInCapitalsAndItsPathEncoded() {
        #expect(
            spellings(.url("https://shop.example.com/p/p1"))
                == [
                    "its host in capitals: https://SHOP.EXAMPLE.COM/p/p1",
                    "a letter of its path percent-encoded: https://shop.example.com/%70/p1",
                    "its path's last letter percent-encoded in lowercase hex: https://shop.example.com/p/%701",
                    "its scheme in capitals: HTTPS://shop.example.com/p/p1"
                ])
    }

    @Test func onlyWhatHasALetterToEncodeAndOnlyURLsHaveOtherSpellings() {
        #expect(spellings(.url("shop://42")) == ["its scheme in capitals: SHOP://42"])
        #expect(spellings(.url("shop://?q=a")) == ["its scheme in capitals: SHOP://?q=a"], "not inside the query")
        #expect(spellings(.url("not a url")).isEmpty)
        #expect(spellings(.payload(["route": "orders/42"])).isEmpty)
        #expect(
            spellings(.url("SHOP://ORDERS"))
                == [
                    "a letter of its route percent-encoded: SHOP://%4FRDERS",
                    "its route's last letter percent-encoded in lowercase hex: SHOP://ORDER%53"
                ])
        #expect(
            spellings(.url("shop://a")) == ["a letter of its route percent-encoded: shop://%61", "its scheme in capitals: SHOP://a"],
            "one letter: once")
    }
}
