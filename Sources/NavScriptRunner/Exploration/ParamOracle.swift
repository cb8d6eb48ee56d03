import Foundation
import NavigationCore

/// Whether a route parameter's value meets its spec, judged from the
/// manifest's words alone — not with the routing engine's code.
///
/// Why: the explorer judges the app with the app's own engine (what a link
/// resolves to), so a slip in the engine's validation — a length limit off
/// by one, a pattern matched only in part — is the explorer's slip too, and
/// nothing is found. This oracle reads the spec the plain way: a value is
/// not empty, has `min_length`…`max_length` characters, is digits that fit
/// 64 bits for an integer, and matches the whole pattern. Each pattern is
/// compiled once (an explorer asks thousands of times a second).
final class ParamOracle {
    private var compiled: [String: NSRegularExpression?] = [:]

    func accepts(_ value: String, spec: ParamSpec) -> Bool {
        guard !value.isEmpty else { return false }
        let length = value.count
        if let min = spec.minLength, length < min { return false }
        if let max = spec.maxLength, length > max { return false }
        if spec.kind == .integer, !(value.allSatisfy { $0.isASCII && $0.isNumber } && Int64(value) != nil) { return false }
        guard let pattern = spec.pattern else { return true }
        let regex: NSRegularExpression?
        if let known = compiled[pattern] {
            regex = known
        } else {
            regex = try? NSRegularExpression(pattern: "^(?:" + pattern + ")$")
            compiled[pattern] = .some(regex)
        }
        guard let regex else { return false }
        let range = NSRange(value.startIndex..., in: value)
        return regex.firstMatch(in: value, options: [], range: range).map { $0.range == range } ?? false
    }
}
