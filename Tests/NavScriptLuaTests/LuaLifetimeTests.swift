import Foundation
import TestSupport
import Testing

@testable import NavScriptLua

@Suite("Lua bridge: lifetimes")
struct LuaLifetimeTests {
    @Test("a host object is released after Lua collects its userdata")
    func hostObjectCollected() throws {
        let lua = try LuaState.forTests()
        let released = Flag()
        do {
            let screen = Tracked("product") { released.set() }
            try lua.setGlobal("screen", .hostObject(screen))
            lua.register("name_of") { call in
                .value(.string(LuaString(try call.hostObject(1, as: Tracked.self, expected: "screen").name)))
            }
        }
        let results = try lua.run(
            source: "return name_of(screen), type(screen), tostring(screen):match('^host object'), getmetatable(screen)",
            chunkName: "h.lua")
        #expect(results == ["product", "userdata", "host object", "host object"])
        let wrong = luaError { _ = try lua.run(source: "name_of(io.stdout)", chunkName: "h.lua") }
        #expect(wrong?.message == "h.lua:1: bad argument #1 to 'name_of' (screen expected, got userdata)")
        lua.collectGarbage()
        #expect(!released.value, "still referenced by the global")
        _ = try lua.run(source: "screen = nil", chunkName: "h.lua")
        lua.collectGarbage()
        #expect(released.count == 1, "__gc released the retain exactly once")
    }

    @Test("the same Swift object is the same Lua value while it lives")
    func hostIdentity() throws {
        let lua = try LuaState.forTests()
        let object = Tracked {}
        lua.register("get") { _ in .value(.hostObject(object)) }
        let results = try lua.run(source: "return get() == get(), rawequal(get(), get())", chunkName: "id.lua")
        #expect(results == [true, true])
        let back = try lua.run(source: "return get()", chunkName: "id.lua")
        #expect(back.first?.hostObjectValue === object)
    }

    @Test("closing the state releases host objects and callback contexts")
    func closeReleases() throws {
        let hostReleased = Flag()
        let contextReleased = Flag()
        var lua: LuaState? = try LuaState.forTests()
        do {
            let host = Tracked { hostReleased.set() }
            let context = Tracked { contextReleased.set() }
            try lua?.setGlobal("keep", .hostObject(host))
            lua?.register("f") { _ in .value(.string(LuaString(context.name))) }
        }
        #expect(!hostReleased.value && !contextReleased.value)
        lua = nil
        #expect(hostReleased.count == 1)
        #expect(contextReleased.count == 1)
    }

    @Test("a LuaFunction outliving its state is harmless")
    func functionOutlivesState() throws {
        var lua: LuaState? = try LuaState.forTests()
        let function = try #require(try lua?.run(source: "return function() end", chunkName: "f.lua").first?.functionValue)
        #expect(function.isAlive)
        lua = nil
        #expect(!function.isAlive)
        let other = try LuaState.forTests()
        #expect(luaError { _ = try other.call(function) }?.kind == .conversion)
    }

    @Test("10,000 states created and closed leave no state and no byte behind")
    func noLeakedStates() throws {
        let counter = LuaStateCounter()
        let released = Flag()
        for index in 0..<10_000 {
            let lua = try LuaState(options: .init(counter: counter))
            if index % 100 == 0 {
                // Exercise the parts that own Swift references on some of them.
                lua.register("f") { _ in .noValues }
                try lua.setGlobal("h", .hostObject(Tracked { released.set() }))
                _ = try lua.run(source: "f() return h", chunkName: "s.lua")
            }
        }
        #expect(counter.createdStates == 10_000)
        #expect(counter.openStates == 0)
        #expect(counter.bytesUnreleasedAtClose == 0)
        #expect(released.count == 100)
    }
}
