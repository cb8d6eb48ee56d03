import Foundation

/// Where a command's text goes: its report on standard output, its notes
/// and problems on standard error. Commands of the runner layer write
/// through one of these rather than to the process's descriptors, so they
/// can be driven in process with the text captured.
package struct OutputStreams: Sendable {
    package var output: @Sendable (String) -> Void
    package var error: @Sendable (String) -> Void
    /// The executable's name as the user started it: what messages and replay lines spell.
    package var executableName: String

    package init(
        output: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void, executableName: String
    ) {
        self.output = output
        self.error = error
        self.executableName = executableName
    }

    /// This process's standard output and error, written straight to the
    /// descriptor: progress must appear as it happens, not when a buffer
    /// fills. A reader that went away (`| head`) ends only what it shows —
    /// the throwing `write`; the other traps on a broken pipe.
    package static func standard(executableName: String) -> OutputStreams {
        OutputStreams(
            output: { try? FileHandle.standardOutput.write(contentsOf: Data($0.utf8)) },
            error: { try? FileHandle.standardError.write(contentsOf: Data($0.utf8)) },
            executableName: executableName)
    }
}
