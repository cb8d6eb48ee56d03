import Foundation
import TestSupport
import Testing

@testable import NavScriptLua

/// States restored from an image must be indistinguishable from freshly
/// prepared ones. Each test uses a region of its own, so which path a
/// state takes (taken, restored, or on the heap) is known.
@Suite("Lua bridge: state images")
struct LuaStateImageTests {
    /// An image whose preparation defines a global, a registered function
    /// that reads the state's context, and keeps one Lua function.
    static func image(_ region: LuaStateRegion, preparations: Flag = Flag()) -> LuaStateImage {
        LuaStateImage(region: region) { state throws(LuaError) in
            preparations.set()
            state.register("whoami") { call in
                .value(.string(LuaString((call.state.context as? Tracked)?.name ?? "nobody")))
            }
            let kept = try state.run(
                source: """
                    prepared = { count = 0 }
                    local calls = 0
                    return function() calls = calls + 1; return calls end
                    """, chunkName: "=prepare")
            guard let counter = kept.first?.functionValue else { throw LuaError(kind: .runtime, message: "no counter") }
            return [counter]
        }
    }

    static func options(budget: Int? = 2_000_000, memory: Int? = 16 << 20, root: URL? = nil) -> LuaState.Options {
        LuaState.Options(instructionBudget: budget, memoryLimit: memory, sandboxRoot: root)
    }

    @Test("the first state is prepared in the region and the image taken; later ones are restored")
    func takenThenRestored() throws {
        let region = LuaStateRegion()
        let preparations = Flag()
        let image = Self.image(region, preparations: preparations)
        #expect(!image.isTaken)
        for round in 1...3 {
            let (state, kept) = try image.makeState(options: Self.options())
            #expect(state.region != nil, "round \(round) lives in the region")
            #expect(image.isTaken)
            #expect(try state.call(kept[0]) == [1], "the kept function starts from its prepared upvalue")
            #expect(try state.call(kept[0]) == [2])
        }
        #expect(preparations.count == 1, "prepared once, restored twice")
        #expect(!region.isHeld, "each state handed the region back when it closed")
    }

    /// Compiling navscript's own chunks in the region would leave the
    /// parser's scratch memory in the image, copied for every file: the
    /// first image of a process (cold chunk cache) must be no bigger than a
    /// later one (warm cache).
    @Test func theParserLeavesNoHolesInTheImage() throws {
        // A chunk no other test loads: the first preparation compiles it.
        let source =
            "local t = {}\n" + (1...300).map { "t[\($0)] = function(x) return x + \($0) end" }.joined(separator: "\n")
            + "\nreturn t"
        let chunkName = "=image-holes-\(UUID().uuidString)"
        func image() throws -> Int {
            let image = LuaStateImage(region: LuaStateRegion()) { state throws(LuaError) in
                _ = try state.call(try state.loadPrecompiled(source: source, chunkName: chunkName))
                return []
            }
            _ = try image.makeState(options: Self.options())
            return image.byteCount
        }
        let cold = try image()
        let warm = try image()
        #expect(cold > 0 && abs(cold - warm) < 256, "cold \(cold) bytes, warm \(warm)")
    }

    @Test("nothing a file did survives into the next state")
    func restoredStatesAreFresh() throws {
        let image = Self.image(LuaStateRegion())
        do {
            let (state, _) = try image.makeState(options: Self.options())
            _ = try state.run(
                source: """
                    local t = {} for i = 1, 5000 do t[i] = ("x"):rep(i % 700) end   -- small and large blocks
                    leaked = true
                    prepared.count = 99
                    string.extra = function() end
                    getmetatable("").__index = { upper = function() return "hijacked" end }
                    package.loaded.extra = {}
                    """, chunkName: "first.lua")
        }
        let (state, _) = try image.makeState(options: Self.options())
        #expect(state.region != nil)
        let seen = try state.run(
            source: """
                return leaked, prepared.count, string.extra, ("a"):upper(), package.loaded.extra
                """, chunkName: "second.lua")
        #expect(seen == [.nil, 0, .nil, "A", .nil])
    }

    @Test("a restored state has the same globals as a state prepared on the heap")
    func sameGlobalsAsHeap() throws {
        let image = Self.image(LuaStateRegion())
        let names = "local n = {} for k in pairs(_G) do n[#n + 1] = k end table.sort(n) return table.concat(n, ' ')"
        _ = try image.makeState(options: Self.options())  // takes the image
        let (restored, _) = try image.makeState(options: Self.options())
        #expect(restored.region != nil)
        let heap = try LuaState(options: Self.options())
        heap.register("whoami") { _ in .noValues }
        _ = try heap.run(source: "prepared = {}", chunkName: "=prepare")
        #expect(try restored.run(source: names, chunkName: "=n") == heap.run(source: names, chunkName: "=n"))
    }

    @Test("while the region is held, the next state is prepared on the heap, the same way")
    func heldRegionFallsBackToHeap() throws {
        let preparations = Flag()
        let image = Self.image(LuaStateRegion(), preparations: preparations)
        let (first, _) = try image.makeState(options: Self.options())
        let (second, kept) = try image.makeState(options: Self.options())
        #expect(first.region != nil)
        #expect(second.region == nil)
        #expect(preparations.count == 2)
        #expect(try second.call(kept[0]) == [1])
        #expect(try second.run(source: "return prepared.count", chunkName: "=x") == [0])
    }

    @Test("registered functions find the file they serve through the state's context")
    func contextReachesCallbacks() throws {
        let image = Self.image(LuaStateRegion())
        for name in ["first", "second", "third"] {
            let (state, _) = try image.makeState(options: Self.options())
            state.context = Tracked(name) {}
            #expect(try state.run(source: "return whoami()", chunkName: "=c") == [.string(LuaString(name))])
        }
    }

    @Test("each restored state has its own instruction budget and memory limit")
    func limitsPerState() throws {
        let image = Self.image(LuaStateRegion())
        _ = try image.makeState(options: Self.options(budget: nil, memory: nil))
        do {
            let (tight, _) = try image.makeState(options: Self.options(budget: 20_000))
            #expect(tight.region != nil)
            let loop = luaError { _ = try tight.run(source: "while true do end", chunkName: "loop.lua") }
            #expect(loop?.kind == .budget)
        }
        do {
            let (small, _) = try image.makeState(options: Self.options(memory: 2 << 20))
            #expect(small.region != nil)
            let grow = luaError { _ = try small.run(source: "local t = {} for i = 1, 1e7 do t[i] = i end", chunkName: "grow.lua") }
            #expect(grow?.kind == .memory)
        }
        let (roomy, _) = try image.makeState(options: Self.options(budget: nil, memory: nil))
        #expect(roomy.region != nil)
        #expect(try roomy.run(source: "local t = {} for i = 1, 1e6 do t[i] = i end return #t", chunkName: "ok.lua") == [1_000_000])
    }

    @Test("the sandbox root is the restored state's own, never the image's")
    func rootPerState() throws {
        let a = try TemporarySuite()
        let b = try TemporarySuite()
        try a.write("support/which.lua", "return 'a'")
        try b.write("support/which.lua", "return 'b'")
        let image = Self.image(LuaStateRegion())
        do {
            let (first, _) = try image.makeState(options: Self.options(root: a.root))
            #expect(try first.run(source: "return (require('which'))", chunkName: "=r") == ["a"])
            let root = LuaState.displayPath(a.root)
            #expect(
                try first.run(source: "return package.path", chunkName: "=r")
                    == [.string(LuaString("\(root)/support/?.lua;\(root)/support/?/init.lua"))])
        }
        do {
            let (second, _) = try image.makeState(options: Self.options(root: b.root))
            #expect(second.region != nil)
            #expect(
                try second.run(
                    source: "return (require('which')), package.path:find('\(a.root.path)', 1, true) == nil",
                    chunkName: "=r") == ["b", true])
        }
        let (rootless, _) = try image.makeState(options: Self.options())
        #expect(rootless.region != nil)
        #expect(try rootless.run(source: "return package.path", chunkName: "=r") == [.string(LuaString(""))])
        let refused = luaError { _ = try rootless.run(source: "require('which')", chunkName: "r.lua") }
        #expect(refused?.message.contains("no sandbox root") == true)
    }

    @Test("closing a restored state runs finalizers: what Lua held of Swift is released")
    func finalizersRun() throws {
        let image = Self.image(LuaStateRegion())
        _ = try image.makeState(options: Self.options())
        let released = Flag()
        do {
            let (state, _) = try image.makeState(options: Self.options())
            #expect(state.region != nil)
            try state.setGlobal("screen", .hostObject(Tracked { released.set() }))
            try state.setGlobal("callback", .function(state.makeFunction("callback") { _ in .noValues }))
            #expect(!released.value)
        }
        #expect(released.count == 1, "lua_close ran the userdata's finalizer once")
    }

    @Test("a restored state starts from the image's memory, whatever the previous one allocated")
    func memoryStartsFresh() throws {
        let image = Self.image(LuaStateRegion())
        let fresh: Int
        do {
            let (first, _) = try image.makeState(options: Self.options())
            fresh = first.memoryInUse
            _ = try first.run(source: "kept = {} for i = 1, 2000 do kept[i] = { i, ('y'):rep(i) } end", chunkName: "=m")
            #expect(first.memoryInUse > fresh + 1_000_000)
        }
        let (second, _) = try image.makeState(options: Self.options())
        #expect(second.region != nil)
        #expect(second.memoryInUse == fresh)
    }

    @Test("a state that outgrew the region spills to the heap, is closed the full way and gives every byte back")
    func heapSpill() throws {
        let counter = LuaStateCounter()
        let image = Self.image(LuaStateRegion())
        var options = Self.options(budget: nil, memory: nil)
        options.counter = counter
        do {
            let (state, _) = try image.makeState(options: options)
            #expect(state.region != nil)
            // 24 MiB of strings: more than the region holds.
            #expect(
                try state.run(
                    source: "big = {} for i = 1, 240 do big[i] = ('z'):rep(100000) .. i end return #big",
                    chunkName: "=spill") == [240])
        }
        #expect(counter.bytesUnreleasedAtClose == 0)
        let (next, kept) = try image.makeState(options: options)
        #expect(next.region != nil)
        #expect(try next.call(kept[0]) == [1])
        #expect(try next.run(source: "return big", chunkName: "=n") == [.nil])
    }

    @Test("a file a script left open is closed with its state")
    func openFilesClosed() throws {
        let suite = try TemporarySuite()
        let data = try suite.write("data.txt", "hello")
        let image = Self.image(LuaStateRegion())
        _ = try image.makeState(options: Self.options(root: suite.root))
        do {
            let (state, _) = try image.makeState(options: Self.options(root: suite.root))
            #expect(state.region != nil)
            #expect(try state.run(source: "held = io.open('data.txt') return held:read('a')", chunkName: "=f") == ["hello"])
            #expect(try Self.descriptors(to: data) == 1)
        }
        #expect(try Self.descriptors(to: data) == 0)
    }

    /// Open descriptors of this process that point at `file` (unique per test: parallel tests do not interfere).
    static func descriptors(to file: URL) throws -> Int {
        let target = file.resolvingSymlinksInPath().path
        return try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").filter { fd in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")) == target
        }.count
    }
}
