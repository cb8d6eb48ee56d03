import ArgumentParser

struct MutateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "mutate", abstract: "Kill matrix over the fault catalogue (not yet implemented).")
    func run() throws {
        writeStandardError("navscript mutate: not yet implemented\n")
        throw ExitCode(2)
    }
}
