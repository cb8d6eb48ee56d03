import Foundation
import Testing

/// Keeps the LuaLS definition file (`types/navscript.lua`) in step with the
/// scenario API the runtime really installs. Both sides are read as text
/// from the repository: the definitions' `function NAME(` declarations, and
/// the Swift sources' registrations (`define`/`action`/`observe`/`expect`
/// `(state, session, "NAME"`, `register("NAME"`) plus the Lua prelude's
/// global functions and tables. No production API is involved.
@Suite("Lua definitions (types/navscript.lua)")
struct LuaDefinitionsTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let definitionsPath = "types/navscript.lua"

    @Test("the definitions declare exactly the functions the runtime installs")
    func coverage() throws {
        let declared = Set(try Self.declarations().map(\.name))
        let implemented = try Self.implementedFunctions()
        #expect(!implemented.isEmpty, "found no registered functions: the source patterns this test greps for have changed")

        let missing = implemented.keys.filter { !declared.contains($0) }.sorted()
        let extra = declared.filter { implemented[$0] == nil }.sorted()
        #expect(missing.isEmpty, """
            implemented but missing from \(Self.definitionsPath): \
            \(missing.map { "\($0) (\(implemented[$0]!))" }.joined(separator: ", "))
            """)
        #expect(extra.isEmpty, """
            declared in \(Self.definitionsPath) but not implemented by the bindings or the prelude: \
            \(extra.joined(separator: ", "))
            """)
    }

    @Test("the file is a LuaLS meta file, and every declaration is documented with matching @param annotations")
    func documented() throws {
        let text = try Self.read(Self.definitionsPath)
        #expect(text.hasPrefix("---@meta navscript\n"), "\(Self.definitionsPath) must start with ---@meta navscript")
        for declaration in try Self.declarations() {
            let prose = declaration.doc.filter { !$0.hasPrefix("@") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            #expect(!prose.isEmpty, "\(declaration.name) (line \(declaration.line)) has no doc paragraph")
            guard let parameters = declaration.parameters else { continue }
            let annotated = declaration.doc.compactMap { line -> String? in
                guard line.hasPrefix("@param ") else { return nil }
                let name = line.dropFirst("@param ".count).prefix { !$0.isWhitespace }
                return String(name.hasSuffix("?") ? name.dropLast() : name)
            }
            #expect(annotated == parameters, """
                \(declaration.name) (line \(declaration.line)): @param annotations \(annotated) \
                do not match the parameters \(parameters)
                """)
        }
    }

    @Test("nothing the sandbox removes is declared")
    func sandboxRemovalsStayOut() throws {
        let sandbox = try Self.read("Sources/NavScript/Bridge/LuaSandbox.swift")
        var removed: Set<String> = []
        for groups in Self.captures(#"ipairs\s*\{([^}]*)\}\s*do\s*(\w+)\[name\]\s*=\s*nil"#, in: sandbox) {
            for name in Self.captures(#""(\w+)""#, in: groups[0]) { removed.insert("\(groups[1]).\(name[0])") }
        }
        for groups in Self.captures(#"^\s*([a-z]+\.[a-z]+)\s*=\s*nil\s*$"#, in: sandbox) { removed.insert(groups[0]) }
        #expect(removed.isSuperset(of: ["os.execute", "io.popen", "string.dump"]),
                "could not read the sandbox's removals (found \(removed.sorted()))")

        let declared = try Self.declarations().map(\.name)
        let leaked = declared.filter { removed.contains($0) || $0.hasPrefix("debug.") }
        #expect(leaked.isEmpty, "\(Self.definitionsPath) declares what the sandbox removes: \(leaked)")
    }

    @Test("launch options and entry points match the host and the core")
    func vocabularies() throws {
        let text = try Self.read(Self.definitionsPath)
        let host = try Self.read("Sources/ShopHost/ShopHost.swift")
        let hostOptions = Self.captures(#"launchOptionNames:\s*\[String\]\s*\{\s*\[([^\]]*)\]"#, in: host)
            .flatMap { Self.captures(#""(\w+)""#, in: $0[0]).map { $0[0] } }
        #expect(!hostOptions.isEmpty, "could not read ShopHost.launchOptionNames")
        #expect(Set(Self.classFields("navscript.LaunchOptions", in: text)) == Set(hostOptions),
                "navscript.LaunchOptions fields differ from ShopHost.launchOptionNames \(hostOptions)")

        let core = try Self.read("Sources/NavigationCore/Routing/EntryPoint.swift")
        let entryPoints = Self.captures(#"^\s*case (\w+)\s*$"#, in: core).map { $0[0] }
        #expect(!entryPoints.isEmpty, "could not read EntryPoint's cases")
        #expect(Set(Self.aliasValues("navscript.EntryPoint", in: text)) == Set(entryPoints),
                "navscript.EntryPoint differs from the core's EntryPoint cases \(entryPoints)")

        let routes = try JSONSerialization.jsonObject(
            with: Data(contentsOf: Self.root.appendingPathComponent("Sources/ShopApp/Resources/routes.json"))) as? [String: Any]
        let screens = (routes?["destinations"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(!screens.isEmpty, "could not read the destinations of routes.json")
        #expect(Set(Self.aliasValues("navscript.ScreenId", in: text)) == Set(screens),
                "navscript.ScreenId differs from the destination ids of routes.json \(screens)")
    }

    // MARK: - Reading the definitions

    struct Declaration {
        var name: String
        var line: Int
        /// The `---` comment lines above it, without the dashes.
        var doc: [String]
        /// Parameter names, nil for a global table.
        var parameters: [String]?
    }

    /// Top-level `function NAME(…) end` and `NAME = {}` in the definitions.
    static func declarations() throws -> [Declaration] {
        let lines = try read(definitionsPath).components(separatedBy: "\n")
        var result: [Declaration] = []
        var doc: [String] = []
        for (index, line) in lines.enumerated() {
            if line.hasPrefix("---") {
                doc.append(String(line.dropFirst(3)))
                continue
            }
            defer { doc = [] }
            if let groups = captures(#"^function ([A-Za-z_][\w.]*)\s*\(([^)]*)\)"#, in: line).first {
                let parameters = groups[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                result.append(Declaration(name: groups[0], line: index + 1, doc: doc, parameters: parameters))
            } else if let groups = captures(#"^([A-Za-z_]\w*)\s*="#, in: line).first {
                result.append(Declaration(name: groups[0], line: index + 1, doc: doc, parameters: nil))
            }
        }
        return result
    }

    static func classFields(_ name: String, in text: String) -> [String] {
        block(after: "---@class \(name)", in: text).compactMap {
            captures(#"^---@field (\w+)"#, in: $0).first?[0]
        }
    }

    static func aliasValues(_ name: String, in text: String) -> [String] {
        block(after: "---@alias \(name)", in: text).compactMap {
            captures(#"^---\|\s*"(\w+)""#, in: $0).first?[0]
        }
    }

    /// The annotation lines right after `header`, up to the first non-`---` line.
    static func block(after header: String, in text: String) -> [String] {
        let lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0 == header || $0.hasPrefix(header + " ") }) else { return [] }
        return Array(lines[(start + 1)...].prefix { $0.hasPrefix("---") })
    }

    // MARK: - Reading the implementation

    /// Every global function the runtime installs, with where it was found.
    static func implementedFunctions() throws -> [String: String] {
        var found: [String: String] = [:]
        let sources = root.appendingPathComponent("Sources/NavScript")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        for file in files.sorted(by: { $0.path < $1.path }) {
            let relative = String(file.path.dropFirst(root.path.count + 1))
            let text = try String(contentsOf: file, encoding: .utf8)
            for groups in captures(#"\b(?:define|action|observe|expect)\(state, session, "(\w+)""#, in: text) {
                found[groups[0]] = relative
            }
            for groups in captures(#"\.register\("(\w+)""#, in: text) {
                found[groups[0]] = relative
            }
        }

        let preludePath = "Sources/NavScript/Runtime/ScenarioPrelude.swift"
        let prelude = try read(preludePath)
        guard let lua = captures(##"#"""\n(.*?)\n\s*"""#"##, in: prelude, dotAll: true).first?[0] else {
            Issue.record("could not find the Lua source in \(preludePath)")
            return found
        }
        // Global (not `local`) functions, and global tables built with
        // setmetatable: `scenario = setmetatable({ each = each }, …)`.
        for groups in captures(#"^\s*function ([A-Za-z_][\w.]*)\s*\("#, in: lua) {
            found[groups[0]] = preludePath
        }
        for groups in captures(#"^\s*([A-Za-z_]\w*)\s*=\s*setmetatable\(\s*\{([^}]*)\}"#, in: lua) {
            found[groups[0]] = preludePath
            for field in captures(#"(\w+)\s*="#, in: groups[1]) { found["\(groups[0]).\(field[0])"] = preludePath }
        }
        return found
    }

    // MARK: - Helpers

    static func read(_ relative: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
    }

    /// The capture groups of every match (lines are anchors).
    static func captures(_ pattern: String, in text: String, dotAll: Bool = false) -> [[String]] {
        var options: NSRegularExpression.Options = [.anchorsMatchLines]
        if dotAll { options.insert(.dotMatchesLineSeparators) }
        guard let regex = try? NSRegularExpression(pattern: pattern, options: options) else {
            Issue.record("bad pattern \(pattern)")
            return []
        }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).map { match in
            (1..<match.numberOfRanges).map { index in
                Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
            }
        }
    }
}
