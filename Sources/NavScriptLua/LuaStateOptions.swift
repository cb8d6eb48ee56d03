import Foundation

extension LuaState {
    /// Limits and sandbox of one Lua state.
    ///
    /// Why configurable: a runner gives a scenario file generous but finite
    /// resources so a runaway script is reported instead of hanging CI or
    /// exhausting memory; tests shrink them to trip the limits quickly.
    public struct Options: Sendable {
        /// 50 million VM instructions: seconds of work, far beyond any scenario.
        public static let defaultInstructionBudget = 50_000_000
        /// 64 MiB of Lua heap.
        public static let defaultMemoryLimit = 64 * 1024 * 1024

        /// VM instructions allowed (cumulative until `resetLimits()`),
        /// counted in steps of 1,000. nil = unlimited (no hook installed).
        public var instructionBudget: Int?
        /// Bytes the Lua heap may grow to while Lua code runs. nil = unlimited.
        public var memoryLimit: Int?
        /// The suite folder. `require("x")` resolves only to
        /// `<root>/support/x.lua` or `<root>/support/x/init.lua`; `loadfile`,
        /// `dofile` and `io.open` (read-only) accept only files inside the root,
        /// relative paths being relative to it. nil = no file access at all.
        /// Chunk names use the path as given (keep it relative for short
        /// `file:line` messages; Lua truncates long names to 60 characters).
        public var sandboxRoot: URL?
        /// An extra counter for this state's open/close (see `LuaStateCounter`).
        public var counter: LuaStateCounter?
        /// A stop request the state obeys at its next instruction (see ``LuaInterruption``).
        /// Keep it alive while the state is.
        public var interruption: LuaInterruption?

        public init(
            instructionBudget: Int? = Options.defaultInstructionBudget,
            memoryLimit: Int? = Options.defaultMemoryLimit,
            sandboxRoot: URL? = nil,
            counter: LuaStateCounter? = nil,
            interruption: LuaInterruption? = nil
        ) {
            self.instructionBudget = instructionBudget
            self.memoryLimit = memoryLimit
            self.sandboxRoot = sandboxRoot
            self.counter = counter
            self.interruption = interruption
        }

        /// These options without an instruction budget: for preparing a
        /// state, whose preludes are not the script's work.
        var unbudgeted: Options {
            var options = self
            options.instructionBudget = nil
            return options
        }
    }
}
