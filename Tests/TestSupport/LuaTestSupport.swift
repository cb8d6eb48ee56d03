import Foundation
import NavScriptLua

/// Helpers for tests of the Lua bridge and of what runs on it.

/// A fresh suite folder under the temporary directory, removed on deinit.
public final class TemporarySuite {
    public let root: URL

    public init() throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("navscript-bridge-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("support"), withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    @discardableResult
    public func write(_ relativePath: String, _ contents: String) throws -> URL {
        try write(relativePath, bytes: Array(contents.utf8))
    }

    @discardableResult
    public func write(_ relativePath: String, bytes: [UInt8]) throws -> URL {
        let url = root.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        return url
    }
}

/// A Swift object whose deinit is observable.
public final class Tracked {
    public let name: String
    public let onDeinit: () -> Void

    public init(_ name: String = "tracked", onDeinit: @escaping () -> Void) {
        self.name = name
        self.onDeinit = onDeinit
    }

    deinit { onDeinit() }
}

/// A mutable flag for deinit observation (tests are single-threaded per state).
public final class Flag {
    public var value = false
    public var count = 0

    public init() {}

    public func set() {
        value = true
        count += 1
    }
}

extension LuaState {
    /// A state with small limits so runaway tests finish fast.
    public static func forTests(
        budget: Int? = 2_000_000, memory: Int? = 16 * 1024 * 1024, root: URL? = nil,
        counter: LuaStateCounter? = nil
    ) throws -> LuaState {
        try LuaState(options: .init(instructionBudget: budget, memoryLimit: memory, sandboxRoot: root, counter: counter))
    }

    /// Registers `echo(...)`, returning its arguments unchanged through Swift.
    public func registerEcho() {
        register("echo") { call in .values(call.arguments) }
    }
}

/// The error a throwing closure raised, as a `LuaError`.
public func luaError(_ body: () throws -> Void) -> LuaError? {
    do {
        try body()
        return nil
    } catch let error as LuaError {
        return error
    } catch {
        return nil
    }
}
