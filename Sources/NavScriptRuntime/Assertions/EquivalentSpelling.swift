import NavigationCore

/// Other spellings of one link that every URL parser must read as the same
/// link (RFC 3986): the scheme and a universal link's host in capitals
/// (both are case-insensitive), and a letter of the route percent-encoded
/// (`%6F` is `o`). The routing engine reads them alike; a door that parses
/// links itself — a push handler's own parser, a widget's quick path — is
/// where they part, and `expect_same_outcome(url, nil, { spellings = true })`
/// shows it. Only URL-shaped inputs have other spellings: a payload's or an
/// activity's fields are not URLs.
package enum EquivalentSpelling {
    /// Each other spelling of `input`, with what was changed.
    package static func variants(of input: EntryInput) -> [(change: String, input: EntryInput)] {
        guard case .url(let url) = input, let separator = url.range(of: "://") else { return [] }
        let scheme = url[..<separator.lowerBound]
        let rest = url[separator.upperBound...]
        var variants: [(String, EntryInput)] = []
        if scheme.lowercased() == "https" || scheme.lowercased() == "http" {
            let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            let path = rest.dropFirst(host.count)
            if host.uppercased() != host { variants.append(("its host in capitals", .url(scheme + "://" + host.uppercased() + path))) }
            if let encoded = encodingFirstLetter(of: path.dropFirst()) {
                variants.append(("a letter of its path percent-encoded", .url(scheme + "://" + host + "/" + encoded)))
            }
            if let encoded = encodingLastLetter(of: path.dropFirst()), encoded != encodingFirstLetter(of: path.dropFirst()) {
                variants.append(("its path's last letter percent-encoded in lowercase hex", .url(scheme + "://" + host + "/" + encoded)))
            }
        } else {
            if let encoded = encodingFirstLetter(of: rest) {
                variants.append(("a letter of its route percent-encoded", .url(scheme + "://" + encoded)))
            }
            if let encoded = encodingLastLetter(of: rest), encoded != encodingFirstLetter(of: rest) {
                variants.append(("its route's last letter percent-encoded in lowercase hex", .url(scheme + "://" + encoded)))
            }
        }
        if scheme.uppercased() != scheme { variants.append(("its scheme in capitals", .url(scheme.uppercased() + "://" + rest))) }
        return variants
    }

    /// `text` with the last ASCII letter before its query or fragment as
    /// `%xx` in lowercase hex — usually inside a parameter's value, where a
    /// hand-written decoder that knows only `%6F` or only the route's
    /// literals parts from the engine; nil when it has none.
    static func encodingLastLetter(of text: Substring) -> String? {
        let route = text.prefix { $0 != "?" && $0 != "#" }
        guard let index = route.lastIndex(where: { $0.isASCII && $0.isLetter }), let value = text[index].asciiValue else { return nil }
        return String(text[..<index]) + "%" + String(value, radix: 16, uppercase: false) + String(text[text.index(after: index)...])
    }

    /// `text` with its first ASCII letter as `%XX`; nil when it has none
    /// before a query or fragment.
    static func encodingFirstLetter(of text: Substring) -> String? {
        guard let index = text.firstIndex(where: { $0.isASCII && $0.isLetter }),
            !text[..<index].contains(where: { $0 == "?" || $0 == "#" }),
            let value = text[index].asciiValue
        else { return nil }
        let hex = String(value, radix: 16, uppercase: true)
        return String(text[..<index]) + "%" + hex + String(text[text.index(after: index)...])
    }
}
