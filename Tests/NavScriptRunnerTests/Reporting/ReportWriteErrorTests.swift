import Foundation
import Testing

@testable import NavScriptRunner

/// A report that cannot be written says why in the system's words, not
/// Foundation's wrapper ("NSCocoaErrorDomain error 512").
@Suite("Report write errors")
struct ReportWriteErrorTests {
    @Test func theSystemErrorUnderFoundationsIsSaid() {
        let wrapped = NSError(
            domain: NSCocoaErrorDomain, code: 512,
            userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))])
        #expect(ReportFile.reason(wrapped) == String(cString: strerror(ENOSPC)))
    }

    @Test func aReaderThatWentAwayIsNamed() {
        let pipe = NSError(domain: NSPOSIXErrorDomain, code: Int(EPIPE))
        #expect(ReportFile.reason(pipe).hasPrefix("its reader went away (broken pipe"))
    }

    @Test func anythingElseKeepsItsOwnWords() {
        struct Odd: Error, LocalizedError { var errorDescription: String? { "odd" } }
        #expect(ReportFile.reason(Odd()) == "odd")
    }
}
