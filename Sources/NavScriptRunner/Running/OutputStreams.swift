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
    /// fills. A reader that went away (`| head`) ends only what it shows;
    /// any other failure to write standard output (a full disk, `> /dev/full`)
    /// is kept in ``StandardOutputFailure/shared``, so that the command does
    /// not exit 0 having shown nothing.
    package static func standard(executableName: String) -> OutputStreams {
        OutputStreams(
            output: { text in
                let failure = writeAll(text, to: STDOUT_FILENO)
                if failure != 0, failure != EPIPE { StandardOutputFailure.shared.note(failure) }
            },
            error: { _ = writeAll($0, to: STDERR_FILENO) },
            executableName: executableName)
    }

    /// Writes `text` whole to `descriptor` (a short write goes on where it stopped); 0, or the
    /// `errno` of the write that failed (EIO for one that wrote nothing).
    static func writeAll(_ text: String, to descriptor: Int32) -> Int32 {
        var text = text
        return text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written < 0 { return errno }
                if written == 0 { return EIO }
                offset += written
            }
            return 0
        }
    }
}

/// The first error writing this process's standard output through
/// ``OutputStreams/standard(executableName:)``, other than a reader that went
/// away. Why a process-wide record: the output is the process's, and what
/// writes it (the console report, a listing) runs on whatever thread reports;
/// the command's exit reads it once, at the end.
package final class StandardOutputFailure: @unchecked Sendable {  // state guarded by `lock`
    package static let shared = StandardOutputFailure()
    private let lock = NSLock()
    private var first: Int32 = 0

    /// Keeps `error` unless an earlier one was kept.
    func note(_ error: Int32) {
        lock.withLock { if first == 0 { first = error } }
    }

    /// The `errno` of the first failed write, if any.
    package var error: Int32? {
        lock.withLock { first == 0 ? nil : first }
    }
}
