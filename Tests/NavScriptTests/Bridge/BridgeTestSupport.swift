import Foundation

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRunner
@testable import NavScriptRuntime

/// A fresh suite folder under the temporary directory, removed on deinit.
final class TemporarySuite {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("navscript-bridge-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("support"), withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    @discardableResult
    func write(_ relativePath: String, _ contents: String) throws -> URL {
        try write(relativePath, bytes: Array(contents.utf8))
    }

    @discardableResult
    func write(_ relativePath: String, bytes: [UInt8]) throws -> URL {
        let url = root.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        return url
    }
}

/// A Swift object whose deinit is observable.
final class Tracked {
    let name: String
    let onDeinit: () -> Void

    init(_ name: String = "tracked", onDeinit: @escaping () -> Void) {
        self.name = name
        self.onDeinit = onDeinit
    }

    deinit { onDeinit() }
}

/// A mutable flag for deinit observation (tests are single-threaded per state).
final class Flag {
    var value = false
    var count = 0

    func set() {
        value = true
        count += 1
    }
}

extension LuaState {
    /// A state with small limits so runaway tests finish fast.
    static func forTests(
        budget: Int? = 2_000_000, memory: Int? = 16 * 1024 * 1024, root: URL? = nil,
        counter: LuaStateCounter? = nil
    ) throws -> LuaState {
        try LuaState(options: .init(instructionBudget: budget, memoryLimit: memory, sandboxRoot: root, counter: counter))
    }

    /// Registers `echo(...)`, returning its arguments unchanged through Swift.
    func registerEcho() {
        register("echo") { call in .values(call.arguments) }
    }
}

/// The error a throwing closure raised, as a `LuaError`.
func luaError(_ body: () throws -> Void) -> LuaError? {
    do {
        try body()
        return nil
    } catch let error as LuaError {
        return error
    } catch {
        return nil
    }
}
