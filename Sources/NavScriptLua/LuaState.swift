import CLua
import CNavScriptLua
import Foundation

/// One sandboxed Lua 5.4 interpreter, owned by Swift.
///
/// Why a class that owns the `lua_State*`: the state must be closed exactly
/// once, after the last Swift use, and `deinit` is that moment (closing
/// releases every Swift object Lua still held). Not `Sendable`: a state is
/// single-threaded (one per scenario world); use it from one thread at a time.
///
/// Safety contract of the bridge (see CNavScriptLua/include/navscript_lua.h): no Lua error ever
/// unwinds through a Swift frame. Swift only calls Lua API functions that do
/// not raise (or raise only on allocation failure, which the allocator makes
/// impossible while Swift is on the stack); everything else runs under a
/// protected call, and Swift callbacks return their errors for a C
/// trampoline to raise.
public final class LuaState {
    let mainThread: OpaquePointer
    let control: UnsafeMutablePointer<clua_Control>
    /// The process's state region when this state lives there (see
    /// `LuaStateImage`), nil when it lives on the heap.
    let region: UnsafeMutablePointer<clua_Region>?
    /// The options the state was created with.
    public let options: Options
    /// The image this state was prepared into or restored from: it keeps
    /// the Swift contexts of the image's functions alive while they can run.
    var image: LuaStateImage?

    /// What the state's Swift callbacks work for, for callbacks that are
    /// registered once for many states (a prepared image) and so cannot
    /// capture it: a scenario file's binding context, say. Set by the owner.
    public var context: AnyObject?

    /// Hears of an argument that could not cross into Swift (a cyclic or
    /// too deeply nested table) before the error is raised for it: the call
    /// (its name and caller) and the message. Why: the error is raised by
    /// the bridge, before any callback runs, and a language that keeps its
    /// wrong calls whatever a `pcall` catches must see this one too.
    public var onBadArgument: ((LuaCall, String) -> Void)?

    /// The thread Swift API calls operate on: the main thread, or the
    /// coroutine that is currently calling into Swift.
    var L: OpaquePointer { control.pointee.current }

    /// Identifies this state for the lifetime of its references (not the
    /// control block's address: states restored into the region share it).
    var stateIdentity: UInt { UInt(bitPattern: ObjectIdentifier(self).hashValue) }

    /// States created and not yet closed, process-wide (see `LuaStateCounter`).
    public static var openStateCount: Int { LuaStateCounter.global.openStates }

    /// `file:12` of the first frame of a traceback that is not a C function
    /// (`\tsuite/a.lua:12: in function <suite/a.lua:10>`); nil when none is.
    static func firstScriptPlace(in traceback: String) -> String? {
        for line in traceback.split(separator: "\n") {
            let frame = line.drop { $0 == "\t" || $0 == " " }
            guard !frame.hasPrefix("["), let end = frame.range(of: ": in ") ?? frame.range(of: ": ") else { continue }
            let place = frame[..<end.lowerBound]
            guard let colon = place.lastIndex(of: ":"), Int(place[place.index(after: colon)...]) != nil else { continue }
            return String(place)
        }
        return nil
    }

    /// The Lua release navscript was built against (`5.4.6`), from the
    /// headers' `LUA_VERSION_RELEASE_NUM`: a scenario's behaviour can differ
    /// between releases (error messages, `string.format`), so `--version`
    /// says which one a bug report was made with.
    public static var release: String {
        let number = Int(clua_release_number())
        return "\(number / 10_000).\(number / 100 % 100).\(number % 100)"
    }

    /// Creates a state with the safe standard libraries, the sandbox and the
    /// limits in `options`. Throws `.file` when `sandboxRoot` cannot be
    /// resolved and `.memory` when the limit is too small to start.
    public convenience init(options: Options = Options()) throws(LuaError) {
        try self.init(options: options, region: nil)
    }

    /// A state set up from scratch: on the heap, or in `region` (which the
    /// caller holds) as the start of an image. The region is handed back if
    /// this throws.
    init(options: Options, region: UnsafeMutablePointer<clua_Region>?) throws(LuaError) {
        let limit = options.memoryLimit.map { max(1, $0) } ?? 0
        let budget = options.instructionBudget.map { Int64(max(1, $0)) } ?? 0
        let control: UnsafeMutablePointer<clua_Control>
        if let region {
            control = clua_region_begin(region, limit, budget)
        } else {
            guard let heapControl = clua_control_new(limit, budget) else {
                throw LuaError(kind: .memory, message: "cannot allocate a Lua state")
            }
            control = heapControl
        }
        func discard() {
            if let region {
                clua_control_clearroot(control)
                clua_region_release(region)
            } else {
                clua_control_free(control)
            }
        }
        do {
            try Self.setRoot(control, options.sandboxRoot.map(Self.resolveRoot))
        } catch {
            discard()
            throw error
        }
        guard let L = region.map({ clua_region_newstate($0) }) ?? clua_newstate(control) else {
            discard()
            throw LuaError(kind: .memory, message: "cannot allocate a Lua state")
        }
        mainThread = L
        self.control = control
        self.region = region
        self.options = options
        // From here on deinit closes the state, even if the rest of init throws.
        attach()
        let status = clua_opensandbox(L)
        guard status == LUA_OK else { throw takeError(L, status: status) }
        try runPrelude()
        clua_resetlimits(L)
    }

    /// A state restored from an image into `region` (which the caller
    /// holds): identical to the state the image was taken from when it was
    /// taken, with `options`' limits and `root` (`options.sandboxRoot`,
    /// resolved by the caller). The region is handed back if this throws.
    init(
        restoring bytes: UnsafeRawBufferPointer, into region: UnsafeMutablePointer<clua_Region>,
        options: Options, root: SandboxRoot?, image: LuaStateImage
    ) throws(LuaError) {
        let limit = options.memoryLimit.map { max(1, $0) } ?? 0
        let budget = options.instructionBudget.map { Int64(max(1, $0)) } ?? 0
        let control = clua_region_restore(region, bytes.baseAddress, bytes.count, limit, budget)!
        do {
            try Self.setRoot(control, root)
        } catch {
            clua_control_clearroot(control)
            clua_region_release(region)
            throw error
        }
        mainThread = control.pointee.main!
        self.control = control
        self.region = region
        self.options = options
        self.image = image
        sourceNames = image.sourceNames
        attach()
        clua_resetlimits(mainThread)
    }

    /// Counts the state as open and points its control block at this object.
    private func attach() {
        LuaStateCounter.global.stateOpened()
        options.counter?.stateOpened()
        control.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
        control.pointee.interrupt = options.interruption?.flag
        control.pointee.dispatch = { L, object in LuaState.dispatch(L!, object!) }
        control.pointee.release = { object in Unmanaged<AnyObject>.fromOpaque(object!).release() }
    }

    /// A sandbox root as the control block records it.
    struct SandboxRoot {
        /// As the host spelled it: chunk names and messages use it.
        let display: String
        /// Resolved (`realpath`): files must resolve inside it.
        let real: String
        /// The two as C strings, made once per root rather than once per
        /// file (a state records its root each time it is restored).
        fileprivate let cDisplay: ContiguousArray<CChar>
        fileprivate let cReal: ContiguousArray<CChar>

        init(display: String, real: String) {
            self.display = display
            self.real = real
            cDisplay = display.utf8CString
            cReal = real.utf8CString
        }
    }

    /// Resolves `url` as a sandbox root. Throws `.file` when it cannot be.
    static func resolveRoot(_ url: URL) throws(LuaError) -> SandboxRoot {
        let display = LuaState.displayPath(url)
        guard let resolved = realpath(display, nil) else {
            let reason = String(cString: strerror(errno))
            throw LuaError(kind: .file, message: "sandbox root '\(display)' cannot be opened (\(reason))")
        }
        defer { free(resolved) }
        return SandboxRoot(display: display, real: String(cString: resolved))
    }

    /// Records `root` in the control block.
    private static func setRoot(_ control: UnsafeMutablePointer<clua_Control>, _ root: SandboxRoot?) throws(LuaError) {
        guard let root else { return }
        let recorded = root.cReal.withUnsafeBufferPointer { real in
            root.cDisplay.withUnsafeBufferPointer { display in
                clua_control_setroot(control, real.baseAddress, display.baseAddress)
            }
        }
        guard recorded != 0 else {
            throw LuaError(kind: .memory, message: "cannot record the sandbox root '\(root.display)'")
        }
    }

    /// Chunk names as Lua spells them (`@suite/a.lua`, `=navscript`) and as
    /// they are shown (`suite/a.lua`, `navscript`): those of the chunks this
    /// state loaded (a restored state starts with its image's), then those
    /// met in call frames. See `cachedSourceName`.
    var sourceNames: [(chunk: String, name: String)] = []

    /// Storage the arguments and caller locations of a call from Lua are
    /// built in, kept between calls: a call takes it, its `LuaCall` shares it
    /// (copy on write) and lets go when the call returns, and the call puts it
    /// back emptied, so the next call reuses it instead of allocating two
    /// arrays. (A call made while another is being served finds none and
    /// makes its own.)
    var argumentScratch: [LuaValue] = []
    var locationScratch: [LuaSourceLocation] = []

    /// Remembers a chunk this state loads, so that frames in it are named
    /// without a String made per state: `shown` is its name without the
    /// `@`/`=` prefix, when the caller has it at hand.
    func rememberChunk(_ chunk: String, shown: String? = nil) {
        guard sourceNames.count < 16, !sourceNames.contains(where: { $0.chunk == chunk }) else { return }
        let first = chunk.utf8.first
        let prefixed = first == UInt8(ascii: "@") || first == UInt8(ascii: "=")
        sourceNames.append((chunk, shown ?? (prefixed ? String(chunk.dropFirst()) : chunk)))
    }

    /// The Swift contexts of the global functions `register` defined,
    /// released when the state closes (after Lua, which can call them until
    /// then) — unless an image took them over.
    var ownedCallbacks: [Unmanaged<LuaCallbackBox>] = []

    deinit {
        var unreleased = 0
        if let region, clua_region_can_abandon(region) != 0 {
            // Nothing to finalize and every block in the region: the next
            // state restored there overwrites this one, so freeing it object
            // by object (most of a small file's closing cost) is skipped.
        } else {
            if let region { clua_region_closing(region) }
            lua_close(mainThread)
            unreleased = Int(control.pointee.bytes_in_use)
        }
        for box in ownedCallbacks { box.release() }
        if let region {
            clua_control_clearroot(control)
            clua_region_release(region)
        } else {
            clua_control_free(control)
        }
        LuaStateCounter.global.stateClosed(unreleasedBytes: unreleased)
        options.counter?.stateClosed(unreleasedBytes: unreleased)
    }

    /// A relative file URL keeps its relative spelling, and a path under the
    /// current directory is spelled from there (short chunk names: Lua cuts
    /// a long one to its last 60 characters, and a message from a suite's
    /// `support/helpers.lua` named `…ndings/suite/support/helpers.lua`);
    /// anything else uses the absolute path.
    package static func displayPath(_ url: URL) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        if url.baseURL == nil || url.baseURL?.standardizedFileURL.path == URL(fileURLWithPath: cwd).standardizedFileURL.path {
            let relative = url.relativePath
            guard relative.hasPrefix("/") else { return relative.isEmpty ? "." : relative }
        }
        let path = url.standardizedFileURL.path
        let here = URL(fileURLWithPath: cwd).standardizedFileURL.path
        if path == here { return "." }
        if here != "/", path.hasPrefix(here + "/") { return String(path.dropFirst(here.count + 1)) }
        return url.path
    }

    private func runPrelude() throws(LuaError) {
        let L = mainThread
        try loadPrecompiled(L, source: LuaSandbox.prelude, chunkName: LuaSandbox.chunkName)
        clua_pushsandboxhelpers(L)
        _ = try callOnStack(L, argumentCount: 6)
    }

    // MARK: - Limits

    /// Gives the state fresh limits: a full instruction budget and no memory
    /// error caught. A runner calls this before each scenario so one long
    /// file does not starve its last scenarios; it also clears an exhausted
    /// budget (which otherwise keeps failing every later run, by design).
    ///
    /// `timeout`: seconds from now after which the script is stopped at the
    /// line it runs (an error of kind ``LuaError/Kind/timeout``, raised again
    /// at every instruction, so no `pcall` or coroutine keeps it going);
    /// nil for none. Only Lua code is stopped: a hang inside one Swift or C
    /// call is its caller's to end (a worker's parent kills it).
    public func resetLimits(timeout: Double? = nil) {
        if let timeout, timeout > 0, timeout.isFinite {
            control.pointee.deadline_ns = clua_now_ns() + Int64(min(timeout, 1e9) * 1e9)
            control.pointee.timeout_seconds = timeout
        } else {
            control.pointee.deadline_ns = 0
        }
        clua_resetlimits(mainThread)
    }

    /// Counts `work` (in instructions: an entry, or 64 bytes, each one)
    /// that a Swift function does for the Lua call it serves against the
    /// instruction budget — charged once the function has returned, so a
    /// loop of cheap-looking calls that each copy or scan a lot is stopped
    /// like a loop of Lua's own string copies, naming navscript's functions.
    public func charge(work: Int) {
        guard work > 0 else { return }
        control.pointee.pending_charge += Int64(work)
    }

    /// Sets the instruction budget (nil: none), counted from the next
    /// ``resetLimits(timeout:)``. Why: a state is prepared — the language's
    /// own preludes run — under no budget, and given the script's after; a
    /// budget of a few thousand instructions failed every file as "the
    /// script may loop forever" before any of its code ran.
    package func setInstructionBudget(_ budget: Int?) {
        control.pointee.instruction_budget = budget.map { Int64(max(1, $0)) } ?? 0
    }

    /// Whether the time limit ``resetLimits(timeout:)`` set has passed
    /// (false when none is set: no clock is read then).
    public var isPastDeadline: Bool {
        let deadline = control.pointee.deadline_ns
        return deadline != 0 && clua_now_ns() > deadline
    }

    /// Ends the time limit ``resetLimits(timeout:)`` set (what runs between
    /// scenarios is not the scenario's).
    public func clearTimeLimit() {
        control.pointee.deadline_ns = 0
    }

    /// Whether what Lua allocates counts against the budget (64 bytes an
    /// instruction; on from every ``resetLimits()``). A host turns it off
    /// while it sets a state up (its own preludes are not the script's work)
    /// and the next reset turns it on again.
    package func chargesAllocations(_ on: Bool) {
        control.pointee.budget_armed = on ? 1 : 0
    }

    /// Whether the cap refused an allocation during the last call into Lua —
    /// Lua may have recovered by collecting garbage (then no error came of it).
    public var memoryLimitWasReached: Bool { control.pointee.memory_refused != 0 }

    /// The memory-limit error a script caught (`pcall` around an allocation
    /// the cap refused) since the last ``resetLimits()``, if one was raised.
    /// Why: Lua raises "not enough memory" as an ordinary error a `pcall`
    /// can swallow, and a limit a script can recover from limits nothing —
    /// a runner checks this after a call that returned and fails it anyway,
    /// as the instruction budget (which keeps raising) always does.
    /// The budget's error when it ran out and the script went on all the
    /// same: the error was raised inside a coroutine (`coroutine.resume`
    /// returns it as a value) or caught by `pcall`. Only the budget's own
    /// hooks in other threads would raise it again, and a short script may
    /// never reach one — so a caller asks after every call that returned.
    /// Sticky until ``resetLimits()``.
    public func caughtBudgetError() -> LuaError? {
        guard control.pointee.budget_tripped != 0 else { return nil }
        let at = Self.text(of: control.pointee.budget_at)
        return LuaError(
            kind: .budget,
            message: (at.isEmpty ? "" : at + ": ")
                + "instruction budget exceeded (\(control.pointee.instruction_budget) instructions): the script may loop "
                + "forever; it caught the error (in a coroutine or with pcall) and went on, but a budget once spent stays spent",
            traceback: at.isEmpty ? nil : "stack traceback:\n\t\(at): where the budget ran out",
            dataOnlyValue: .nil, budgetSpentBy: budgetSpentBy)
    }

    /// The run was stopped while the script ran (``LuaInterruption``) and a
    /// `pcall` caught the error, or the script returned before its next
    /// instruction raised it again: kept for the caller. Sticky until
    /// ``resetLimits()``.
    public func caughtInterruption() -> LuaError? {
        guard control.pointee.interrupted != 0 else { return nil }
        return LuaError(kind: .interrupted, message: "interrupted: the run was stopped", dataOnlyValue: .nil)
    }

    /// The time limit the script ran past and caught (a `pcall` or a
    /// coroutine around the code that ran long), kept for the caller.
    /// Sticky until ``resetLimits(timeout:)``.
    public func caughtTimeout() -> LuaError? {
        guard control.pointee.timed_out != 0 else { return nil }
        let at = Self.text(of: control.pointee.timed_out_at)
        return LuaError(
            kind: .timeout,
            message: (at.isEmpty ? "" : at + ": ") + Self.timeoutMessage(control.pointee.timeout_seconds)
                + "; it caught the error (in a coroutine or with pcall) and went on, but a time limit once passed stays passed",
            traceback: at.isEmpty ? nil : "stack traceback:\n\t\(at): where the time ran out",
            dataOnlyValue: .nil)
    }

    /// A C `char[N]` field of the control block as text (up to its NUL).
    private static func text<Field>(of field: Field) -> String {
        withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// `timeout: ran longer than 2s (--timeout) in its own Lua code`, as the hook words it.
    static func timeoutMessage(_ seconds: Double) -> String {
        let shown = seconds == seconds.rounded() && seconds < 1e15 ? String(Int(seconds)) : String(seconds)
        return "timeout: ran longer than \(shown)s (--timeout) in its own Lua code"
    }

    /// Starts a new list of the coroutines that call a Swift function (see
    /// ``suspendedCoroutineThatCalledSwift()``).
    public func forgetCoroutinesThatCalledSwift() { clua_forgetdrivers(L) }

    /// Where a coroutine that called a Swift function since
    /// ``forgetCoroutinesThatCalledSwift()`` stands suspended (its innermost
    /// Lua frame: the line of its `coroutine.yield`), or nil when none does.
    /// Why: a coroutine that drove the host and was never resumed again
    /// stopped at that yield, and what came after it never ran.
    public func suspendedCoroutineThatCalledSwift() -> LuaSourceLocation? {
        var record = lua_Debug()
        guard clua_suspendeddriver(L, &record) != 0 else { return nil }
        return LuaSourceLocation(source: Self.sourceName(&record), line: Int(record.currentline))
    }

    /// The limit a script hit and caught, if any — a memory error first (it
    /// is the cause of what came after it: a loop retrying the allocation
    /// until the budget runs out), then a spent budget, then the time
    /// limit, then an interruption.
    public func caughtLimitError() -> LuaError? {
        caughtMemoryError() ?? caughtBudgetError() ?? caughtTimeout() ?? caughtInterruption()
    }

    public func caughtMemoryError() -> LuaError? {
        guard clua_memory_raised(control) != 0 else { return nil }
        control.pointee.memory_raised = 0
        control.pointee.refused_last = 0
        return memoryError()
    }

    /// The cap's memory error as the bridge reports it: where the cap last
    /// refused, noted by the allocator (no message handler runs for memory
    /// errors: clua_note_refusal).
    private func memoryError() -> LuaError {
        let at = String(cString: clua_refused_at(control))
        let lines = String(cString: clua_refused_frames(control))
        let message =
            (at.isEmpty ? "" : at + ": ") + "memory limit exceeded (\(control.pointee.memory_limit) bytes): "
            + "the script may grow without bound"
        return LuaError(
            kind: .memory, message: message, traceback: lines.isEmpty ? nil : "stack traceback:" + lines,
            dataOnlyValue: .string(LuaString(message)))
    }

    /// Whether a memory-limit error names the line and frames it happened in.
    /// Lua runs no message handler for memory errors, so the allocator notes
    /// them when it refuses; that is only safe with Lua 5.4.0–5.4.4 (from
    /// 5.4.5 a growing stack holds offsets, not pointers, while it allocates).
    public static var memoryErrorsNameTheirLine: Bool { clua_refusals_have_lines() != 0 }

    /// VM instructions counted since creation or the last reset (granularity 1,000).
    public var instructionsUsed: Int { Int(control.pointee.instructions) }

    /// Whether the instruction budget has been exhausted (until reset).
    public var isInstructionBudgetExhausted: Bool { control.pointee.budget_tripped != 0 }

    /// Bytes currently allocated by this state.
    public var memoryInUse: Int { Int(control.pointee.bytes_in_use) }

    /// Switches the collector to generational mode: objects that survive a
    /// collection become old and are no longer traversed by the frequent
    /// young collections. Why: a prepared state is mostly old objects (the
    /// libraries, the bindings, the prelude) and a scenario file allocates
    /// short-lived ones; incremental mode re-marked the whole prepared state
    /// during every file (Benchmarks/README.md has what it cost).
    public func useGenerationalCollector() {
        clua_gcgenerational(mainThread)
    }

    /// Runs a full garbage collection (host objects and callbacks no longer
    /// referenced by Lua are released).
    public func collectGarbage() {
        clua_gccollect(L)
    }

    // MARK: - Running code

    /// `@name` unless the caller already chose `@` or `=`: Lua then prints
    /// positions as `name:line:`.
    static func chunkName(_ name: String) -> String {
        name.hasPrefix("@") || name.hasPrefix("=") ? name : "@" + name
    }

    /// Compiles `source` (text only) into a function without running it.
    /// `chunkName` is how messages name it (`chunkName:line: …`).
    public func load(source: String, chunkName: String) throws(LuaError) -> LuaFunction {
        try load(bytes: Array(source.utf8), chunkName: chunkName)
    }

    /// Compiles raw bytes as a text chunk (binary chunks are refused).
    public func load(bytes: [UInt8], chunkName: String) throws(LuaError) -> LuaFunction {
        let L = self.L
        let base = lua_gettop(L)
        try loadChunk(L, bytes: bytes, chunkName: LuaState.chunkName(chunkName))
        defer { lua_settop(L, base) }
        return try functionReference(L)
    }

    /// Compiles and runs `source`; returns what the chunk returns.
    public func run(source: String, chunkName: String) throws(LuaError) -> [LuaValue] {
        let L = self.L
        try loadChunk(L, bytes: Array(source.utf8), chunkName: LuaState.chunkName(chunkName))
        return try callOnStack(L, argumentCount: 0)
    }

    /// Compiles a file as a text chunk. The chunk is named `@<chunkName>`,
    /// by default the path spelled as in `url` (relative when the URL is
    /// relative): Lua truncates names beyond 60 characters in its `file:line`
    /// prefixes, so pass a short, suite-relative name for readable messages.
    /// Not confined to the sandbox root: the host decides which files to run.
    public func loadFile(at url: URL, chunkName: String? = nil) throws(LuaError) -> LuaFunction {
        // Opened by its absolute path when the caller names the chunk: spelling
        // it relative to the working directory (for the default name) costs a getcwd.
        let path = chunkName == nil ? LuaState.displayPath(url) : url.path
        return try loadFile(atPath: path, chunkName: chunkName ?? path)
    }

    /// Compiles the file at `path` as a text chunk named `@<chunkName>`
    /// (see `loadFile(at:chunkName:)`), for a caller that has the path at
    /// hand: a URL's `path` is decoded again on every read.
    public func loadFile(atPath path: String, chunkName: String) throws(LuaError) -> LuaFunction {
        let L = self.L
        let base = lua_gettop(L)
        try loadFileChunk(L, path: path, chunkName: chunkName)
        defer { lua_settop(L, base) }
        return try functionReference(L)
    }

    /// Compiles and runs a file (see `loadFile(at:chunkName:)`).
    public func runFile(at url: URL, chunkName: String? = nil) throws(LuaError) -> [LuaValue] {
        let L = self.L
        let path = chunkName == nil ? LuaState.displayPath(url) : url.path
        try loadFileChunk(L, path: path, chunkName: chunkName ?? path)
        return try callOnStack(L, argumentCount: 0)
    }

    /// Calls a Lua function, protected, with a full traceback on error.
    public func call(_ function: LuaFunction, _ arguments: [LuaValue] = []) throws(LuaError) -> [LuaValue] {
        let L = self.L
        let base = lua_gettop(L)
        let count = Int32(clamping: arguments.count)
        guard lua_checkstack(L, count + 4) != 0 else {
            throw LuaError(kind: .runtime, message: "too many arguments (\(arguments.count)) for a Lua call")
        }
        do {
            try pushReference(L, function)
            for argument in arguments { try push(L, argument) }
        } catch {
            lua_settop(L, base)
            throw LuaError(kind: .conversion, message: "cannot pass a value to Lua: \(error.reason)")
        }
        return try callOnStack(L, argumentCount: count)
    }

    // MARK: - Globals

    /// The global `name` (raw access: `_G` metamethods are not consulted).
    public func global(_ name: String) throws(LuaError) -> LuaValue {
        let L = self.L
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        precondition(lua_checkstack(L, 3) != 0, "Lua stack exhausted")
        lua_rawgeti(L, clua_registryindex(), lua_Integer(LUA_RIDX_GLOBALS))
        pushString(L, name)
        lua_rawget(L, -2)
        do {
            return try read(L, -1)
        } catch {
            throw LuaError(kind: .conversion, message: "cannot convert global '\(name)' to Swift: \(error.reason)")
        }
    }

    /// Sets the global `name` (raw access: `_G` metamethods are not consulted).
    public func setGlobal(_ name: String, _ value: LuaValue) throws(LuaError) {
        try setRawGlobal(name) { L throws(LuaError) in
            do throws(LuaConversionFailure) {
                try push(L, value)
            } catch {
                throw LuaError(kind: .conversion, message: "cannot set global '\(name)': \(error.reason)")
            }
        }
    }

    /// `_G[name] = <what pushValue pushes>`, raw, with the stack restored:
    /// the one place globals are written (values and registered functions).
    func setRawGlobal<E: Error>(_ name: String, _ pushValue: (OpaquePointer) throws(E) -> Void) throws(E) {
        let L = self.L
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        precondition(lua_checkstack(L, 4) != 0, "Lua stack exhausted")
        lua_rawgeti(L, clua_registryindex(), lua_Integer(LUA_RIDX_GLOBALS))
        pushString(L, name)
        try pushValue(L)
        lua_rawset(L, -3)
    }

    /// Makes `require(name)` return `value` (sets `package.loaded[name]`), the
    /// idiomatic way to offer a Swift-built module.
    public func setLoadedModule(_ name: String, _ value: LuaValue) throws(LuaError) {
        let L = self.L
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        precondition(lua_checkstack(L, 4) != 0, "Lua stack exhausted")
        pushString(L, LUA_LOADED_TABLE)
        lua_rawget(L, clua_registryindex())
        guard lua_type(L, -1) == LUA_TTABLE else {
            throw LuaError(kind: .runtime, message: "package.loaded is missing")
        }
        pushString(L, name)
        do {
            try push(L, value)
        } catch {
            throw LuaError(kind: .conversion, message: "cannot set module '\(name)': \(error.reason)")
        }
        lua_rawset(L, -3)
    }

    // MARK: - Internals shared by the bridge

    /// Pushes a compiled text chunk or throws (stack unchanged on error).
    func loadChunk(_ L: OpaquePointer, bytes: [UInt8], chunkName: String) throws(LuaError) {
        precondition(lua_checkstack(L, 2) != 0, "Lua stack exhausted")
        rememberChunk(chunkName)
        let status = bytes.withUnsafeBytes { buffer in
            chunkName.withCString { name in
                clua_loadbuffer(L, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), buffer.count, name)
            }
        }
        guard status == LUA_OK else { throw takeError(L, status: status) }
    }

    private func loadFileChunk(_ L: OpaquePointer, path: String, chunkName: String) throws(LuaError) {
        precondition(lua_checkstack(L, 2) != 0, "Lua stack exhausted")
        let name = LuaState.chunkName(chunkName)
        rememberChunk(name, shown: name == chunkName ? nil : chunkName)  // `chunkName` as shown, unless it had its prefix
        let status = path.withCString { path in
            name.withCString { name in clua_loadfile(L, path, name) }
        }
        guard status == LUA_OK else { throw takeError(L, status: status) }
    }

    /// Runs the function below `argumentCount` arguments on top of the stack
    /// under the bridge's protected call; pops them and returns the results.
    func callOnStack(_ L: OpaquePointer, argumentCount: Int32) throws(LuaError) -> [LuaValue] {
        let base = lua_gettop(L) - argumentCount - 1
        guard lua_checkstack(L, 2) != 0 else {
            lua_settop(L, base)
            throw LuaError(kind: .runtime, message: "Lua stack exhausted")
        }
        let status = clua_bridgecall(L, argumentCount, clua_multret())
        guard status == LUA_OK else {
            let error = takeError(L, status: status)
            lua_settop(L, base)
            throw error
        }
        defer { lua_settop(L, base) }
        let top = lua_gettop(L)
        guard top > base else { return [] }
        var results: [LuaValue] = []
        results.reserveCapacity(Int(top - base))
        do {
            for index in (base + 1)...top { results.append(try read(L, index)) }
        } catch {
            throw LuaError(kind: .conversion, message: "cannot convert a result to Swift: \(error.reason)")
        }
        return results
    }

    /// Converts the error value on top (and pops it) into a `LuaError`.
    func takeError(_ L: OpaquePointer, status: Int32) -> LuaError {
        precondition(lua_checkstack(L, 3) != 0, "Lua stack exhausted")
        clua_taketraceback(L)
        var traceback: String?
        if lua_type(L, -1) == LUA_TSTRING { traceback = stringAt(L, -1) }
        clua_pop(L, 1)
        clua_taketostring(L)
        let ownWords = lua_type(L, -1) == LUA_TSTRING ? stringAt(L, -1) : nil
        clua_pop(L, 1)
        let hostObject = clua_tohostobject(L, -1).map { Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue() }
        let value: LuaValue
        do {
            value = try read(L, -1, mode: .dataOnly)
        } catch {
            value = .string(LuaString("the script raised a value that cannot be shown: a \(error.reason)"))
        }
        clua_pop(L, 1)

        let kind: LuaError.Kind
        switch status {
        case LUA_ERRSYNTAX: kind = .syntax
        case LUA_ERRMEM: kind = .memory
        case LUA_ERRERR: kind = .errorInHandler
        case clua_errfile(): kind = .file
        default:
            kind =
                control.pointee.interrupted != 0
                ? .interrupted
                : control.pointee.budget_tripped != 0 ? .budget : control.pointee.timed_out != 0 ? .timeout : .runtime
        }
        if kind == .memory {
            // Reported here, uncaught: not again as one a script caught.
            control.pointee.memory_raised = 0
            control.pointee.refused_last = 0
            guard control.pointee.memory_refused != 0 else {
                return LuaError(
                    kind: .memory, message: "not enough memory", traceback: nil,
                    dataOnlyValue: .string(LuaString("not enough memory")))
            }
            return memoryError()
        }
        var message: String
        switch value {
        case .string(let s): message = s.string
        case .integer, .number: message = value.description
        case .table(let t):
            if case .string(let s) = t["message"] {
                message = s.string
            } else if let ownWords {
                // What its own __tostring says, as `tostring(err)` would.
                message = ownWords
            } else {
                // Its contents, as a script would have wanted them read (`error({ code = 42 })`).
                let shown = t.description
                message = "(error object is a table: " + (shown.count > 300 ? shown.prefix(300) + "…" : shown) + ")"
            }
        default: message = "(error object is a \(value.typeName) value)"
        }
        // Lua places only a string error (`error("x")` → `file:12: x`): `error(nil)` or
        // `error({})`, which have no words of their own, say where they were raised too,
        // from the first frame of the script in the traceback.
        if kind == .runtime, hostObject == nil, message.hasPrefix("(error object is"), let traceback,
            let place = Self.firstScriptPlace(in: traceback)
        {
            message = place + ": " + message
        }
        if let hostObject {
            // Its placeholder is no message: the object's own words, when it has some.
            message = (hostObject as? CustomStringConvertible)?.description ?? "(error object is a host object)"
        }
        return LuaError(
            kind: kind, message: message, traceback: traceback, dataOnlyValue: value,
            errorObject: hostObject.map(ObjectIdentifier.init), budgetSpentBy: kind == .budget ? budgetSpentBy : nil)
    }

    /// The library function that spent the budget inside one call, if one did.
    private var budgetSpentBy: String? { control.pointee.budget_by.map { String(cString: $0) } }
}
