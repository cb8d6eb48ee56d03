import NotesApp
import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRuntime

/// The scenario language's prepared state: generational collection, and
/// garbage still collected under the memory cap.
@Suite("Scenario language: the prepared state")
struct ScenarioLanguageStateTests {
    @Test("a file's state collects generationally and keeps a garbage-heavy script under its cap")
    func generationalUnderTheCap() throws {
        let language = ScenarioLanguage(host: try NotesHost())
        let context = BindingContext(file: "garbage.lua", language: language)
        for _ in 1...2 {  // the image is taken, then restored
            let (state, _) = try language.makeState(LuaState.Options(memoryLimit: 8 << 20), for: context)
            let results = try state.run(
                source: """
                    local kept = 0
                    for i = 1, 20000 do
                      local t = { ("x"):rep(1000) .. i }   -- about 20 MB of garbage in all
                      kept = kept + #t[1]
                    end
                    return kept, collectgarbage("incremental")
                    """, chunkName: "=garbage")
            #expect(results.count == 2)
            #expect(results.last == "generational")
            #expect(state.memoryInUse < 8 << 20)
        }
    }
}
