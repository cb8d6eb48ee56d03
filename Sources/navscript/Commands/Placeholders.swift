import ArgumentParser
import Foundation

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run scenarios (not yet implemented).")
    func run() throws { throw UsageError("navscript run: not yet implemented") }
}

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List scenarios (not yet implemented).")
    func run() throws { throw UsageError("navscript list: not yet implemented") }
}

struct MutateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "mutate", abstract: "Kill matrix over the fault catalogue (not yet implemented).")
    func run() throws { throw UsageError("navscript mutate: not yet implemented") }
}
