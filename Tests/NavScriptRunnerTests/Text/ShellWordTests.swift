import Foundation
import Testing

@testable import NavScriptRunner

/// Replay commands are pasted into a shell as reports print them.
@Suite("Shell words")
struct ShellWordTests {
    @Test(arguments: [
        ("a.lua", "a.lua"), ("my file.lua", "'my file.lua'"), ("it's.lua", #"'it'\''s.lua'"#), ("", "''"),
        ("esc\u{1B}[31m.lua", #"$'esc\x1b[31m.lua'"#), ("tab\t'q'\\.lua", #"$'tab\x09\'q\'\\.lua'"#)
    ])
    func aWordIsQuotedAsAShellReadsItBack(word: String, quoted: String) throws {
        #expect(ShellWord.quoted(word) == quoted)
        // bash reads it back as the word itself.
        let bash = Process()
        bash.executableURL = URL(fileURLWithPath: "/bin/bash")
        bash.arguments = ["-c", "printf %s " + ShellWord.quoted(word)]
        let pipe = Pipe()
        bash.standardOutput = pipe
        try bash.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        bash.waitUntilExit()
        #expect(String(decoding: output, as: UTF8.self) == word)
    }
}
