import Foundation
import NavScriptRuntime

/// The links a suite delivers, as written: every string literal with the app's scheme in its
/// scenario files and in the modules of their `support/` folders — where suites keep their links
/// (`support/links.lua`), and where `routes diff --suite` missed one a rollout rejects.
package enum SuiteLinks {
    /// Each `scheme://…` string literal (any Lua quoting) of `files` and of their suite roots'
    /// support modules, in file order, each once.
    package static func literals(in files: [SuiteFile], scheme: String) -> [String] {
        var sources = files.map(\.url)
        var roots: [URL] = []
        for file in files where !roots.contains(file.suiteRoot.standardizedFileURL) { roots.append(file.suiteRoot.standardizedFileURL) }
        for root in roots {
            let support = root.appendingPathComponent("support")
            guard let walker = FileManager.default.enumerator(at: support, includingPropertiesForKeys: nil) else { continue }
            let modules = walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "lua" }
            sources += modules.sorted { $0.path < $1.path }
        }
        let prefix = scheme.lowercased() + "://"
        var seen: Set<String> = []
        var links: [String] = []
        for source in sources {
            // Read as Lua reads it, bytes and all: a Latin-1 comment dropped the file's links without a word.
            guard let bytes = try? Data(contentsOf: source) else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            for token in LuaTokens(text).tokens {
                guard case .string(let literal) = token.kind, literal.lowercased().hasPrefix(prefix) else { continue }
                if seen.insert(literal).inserted { links.append(literal) }
            }
        }
        return links
    }
}
