import ArgumentParser
import Foundation
import NavScript
import NavScriptRunner
import NavScriptRuntime

/// `navscript types`: the scenario language for this app, generated from
/// the function declarations and the host — LuaLS definitions for editors,
/// or the Markdown reference table.
struct TypesCommand: HostedCommand {
    static let configuration = CommandConfiguration(
        commandName: "types",
        abstract: "Write the LuaLS definitions (or the Markdown reference) of the scenario language for this app.",
        discussion: """
            The definitions list the app's tabs, screen ids, tap outputs, entry points and launch options as \
            literal types: an editor running lua-language-server completes them and flags a misspelt tab, \
            output, invariant or entry point. A screen id that may carry a parameter ("item:7") and an unknown \
            key of a table literal are beyond LuaLS: `navscript lint` checks them. Point .luarc.json's \
            workspace.library at the written file.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case luals
        case markdown
        case luacheck
    }

    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
    var output: String?

    @Option(help: "luals (definition file), markdown (reference table) or luacheck (a .luacheckrc).")
    var format: Format = .luals

    /// Whether `bytes` start as a LuaLS definitions file does: `---@meta`, then the end of the
    /// line or a space (`---@metadata` is not it).
    static func isDefinitionsFile(_ bytes: Data) -> Bool {
        let marker = Array("---@meta".utf8)
        guard bytes.starts(with: marker) else { return false }
        let next = bytes.dropFirst(marker.count).first
        return next == nil || next == UInt8(ascii: " ") || next == UInt8(ascii: "\n") || next == UInt8(ascii: "\r")
    }

    func validate() throws { try SuiteOptions.refuseEmptyPath(output, of: "-o") }

    func run(in context: CommandContext) throws {
        let host = try context.host()
        let library = ScriptLibrary(host: host)
        if !library.conflicts.isEmpty {
            writeStandardError(
                "\(NavScriptCLI.executableName) types: \(host.name) declares functions the language already has (ignored): "
                    + library.conflicts.joined(separator: ", ") + "\n")
        }
        let text: String
        switch format {
        case .luals: text = LuaDefinitions(host: host).render()
        case .markdown: text = LanguageReference(host: host).markdown()
        case .luacheck: text = LanguageReference(host: host).luacheckConfig(hostName: host.name)
        }
        guard let output else { return writeStandardOutput(text) }
        // A Lua file that is not a definitions file (a scenario, a support module: `-o scenarios/cart.lua`
        // for `-o types/navscript.lua`) was replaced without a word.
        if output.lowercased().hasSuffix(".lua"), let existing = FileManager.default.contents(atPath: output),
            !existing.isEmpty, !Self.isDefinitionsFile(existing)
        {
            throw ValidationError(
                "-o \(output) would replace a Lua file that is not a definitions file (it does not start with ---@meta): "
                    + "give the definitions a path of their own (e.g. -o types/navscript.lua)")
        }
        do {
            try ReportFile.write(text, to: URL(fileURLWithPath: output), kind: "definitions")
        } catch {
            throw ValidationError(error.description)
        }
    }
}
