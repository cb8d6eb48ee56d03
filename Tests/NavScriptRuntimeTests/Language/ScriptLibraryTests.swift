import Foundation
import NavigationCore
import NotesApp
import TestSupport
import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRuntime

/// The scenario language is declared once (`ScriptFunction`): these tests
/// check that what a file's Lua state really defines is exactly what is
/// declared, and that the LuaLS definitions and the reference table are
/// generated from those declarations for whichever host is plugged in.
@Suite("Script library: declared once")
struct ScriptLibraryTests {
    /// Lua 5.4's own globals, which the language may shadow but not add to.
    static let standardGlobals: Set<String> = [
        "_G", "_VERSION", "assert", "collectgarbage", "coroutine", "debug", "dofile", "error", "getmetatable",
        "io", "ipairs", "load", "loadfile", "math", "next", "os", "package", "pairs", "pcall", "print",
        "rawequal", "rawget", "rawlen", "rawset", "require", "select", "setmetatable", "string", "table",
        "tonumber", "tostring", "type", "utf8", "warn", "xpcall"
    ]

    static func loadedFile(host: any ScenarioHost) throws -> ScenarioFile {
        let suite = try TemporarySuite()
        let url = try suite.write("empty.lua", "-- declares nothing\n")
        let entry = SuiteFile(path: url.path, url: url, suiteRoot: suite.root)
        return try ScenarioFile(entry: entry, language: ScenarioLanguage(host: host), options: RunOptions())
    }

    @Test("every global a scenario file sees beyond standard Lua is declared, and every declaration is defined")
    func globalsMatchDeclarations() throws {
        let host = try NotesHost()
        let globals = Set(try Self.loadedFile(host: host).definedGlobals())
        let library = ScriptLibrary(host: host)
        let declared = Set(library.functions.filter { !$0.name.contains(".") }.map(\.name))

        let undeclared = globals.subtracting(Self.standardGlobals).subtracting(declared)
        #expect(undeclared.isEmpty, "defined in a scenario's Lua state but declared nowhere: \(undeclared.sorted())")
        let missing = declared.subtracting(globals)
        #expect(missing.isEmpty, "declared but not defined in a scenario's Lua state: \(missing.sorted())")
        #expect(declared.isSuperset(of: ["sign_in", "signed_in"]), "the host's own functions are part of the library")
    }

    @Test("every declaration is documented with an example")
    func documented() throws {
        for function in ScriptLibrary(host: try NotesHost()).functions {
            #expect(!function.documentation.isEmpty, "\(function.name) has no documentation")
            #expect(function.example?.isEmpty == false, "\(function.name) has no example")
            #expect(function.summary.hasSuffix("."), "\(function.name)'s summary is not a sentence: \(function.summary)")
        }
    }

    @Test("a host function named like a built-in is refused, not registered twice")
    func conflictsAreReported() throws {
        let clashing = NotesVariantHost(
            try NotesHost(), name: "Clashing", functions: { [.verb("back", documentation: "A second back.", example: "back()") { _ in }] })
        let library = ScriptLibrary(host: clashing)
        #expect(library.conflicts == ["back"])
        #expect(library.functions.filter { $0.name == "back" }.count == 1)
    }

    @Test("the LuaLS definitions list the host's vocabulary as literal types and every function")
    func definitions() throws {
        let host = try NotesHost()
        let text = LuaDefinitions(host: host).render()
        #expect(text.hasPrefix("---@meta navscript\n"))
        for function in ScriptLibrary(host: host).functions {
            let declaration =
                function.isGlobalFunction || function.name.contains(".")
                ? "function \(function.name)(" : "\(function.name) = {}"
            #expect(text.contains("\n" + declaration), "no declaration of \(function.name)")
        }
        for literal in ["\"notes\"", "\"settings\"", "\"note\"", "\"account\"", "\"auth\""] {
            #expect(text.contains("---| \(literal)"), "literal \(literal) missing")
        }
        #expect(text.contains("---@field signed_in? boolean # signed in at start"))
        #expect(text.contains("---| \"push\""))
        #expect(!text.contains("---| \"widget\""), "NotesApp has no widget entry point")
        #expect(text.contains("`notes://…`"), "entry points are described with the app's own scheme")
    }

    @Test("each @param of a generated function matches its parameters")
    func parametersAnnotated() throws {
        let text = LuaDefinitions(host: try NotesHost()).render()
        var annotated: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("---@param ") {
                let name = line.dropFirst("---@param ".count).prefix { !$0.isWhitespace }
                annotated.append(String(name.hasSuffix("?") ? name.dropLast() : name))
            } else if line.hasPrefix("function ") {
                let inside = line.drop { $0 != "(" }.dropFirst().prefix { $0 != ")" }
                let parameters = inside.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                #expect(annotated == parameters, "\(line): @param \(annotated)")
                annotated = []
            } else if !line.hasPrefix("---") {
                annotated = []
            }
        }
    }

    @Test("the reference table has one row per function, with its summary")
    func referenceTable() throws {
        let host = try NotesHost()
        let table = LanguageReference(host: host).markdown()
        let rows = table.split(separator: "\n").dropFirst(2)
        #expect(rows.count == ScriptLibrary(host: host).functions.count)
        #expect(table.contains("| driving | `sign_in()` | Submits the sign-in sheet on screen. | `sign_in()` |"))
        #expect(table.contains("| asserting | `expect_stack(entries)` |"))
    }

    @Test("nothing the sandbox removes is declared")
    func sandboxRemovalsStayOut() throws {
        let names = ScriptLibrary(host: try NotesHost()).functions.map(\.name)
        let removed = ["os.execute", "io.popen", "string.dump", "os.exit", "io.tmpfile", "package.loadlib"]
        #expect(names.filter { removed.contains($0) || $0.hasPrefix("debug.") }.isEmpty)
    }
}
