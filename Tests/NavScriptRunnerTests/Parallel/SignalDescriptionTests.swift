import Foundation
import Testing

@testable import NavScriptRunner

/// A worker's death is named by its signal and what that usually means.
@Suite("Signal descriptions")
struct SignalDescriptionTests {
    @Test func aNotedSignalSaysWhatItUsuallyMeans() {
        #expect(WorkerPool.signalDescription(SIGHUP).hasPrefix("signal 1 (SIGHUP: "))
        #expect(WorkerPool.signalDescription(SIGILL).contains("a Swift runtime trap"))
    }

    /// Any other signal is named by the system, never "signal N (signal N)".
    @Test func anyOtherSignalHasItsSystemName() {
        let description = WorkerPool.signalDescription(SIGWINCH)
        #expect(description.hasPrefix("signal \(SIGWINCH) ("), "\(description)")
        #expect(!description.contains("(signal "), "\(description)")
    }
}
