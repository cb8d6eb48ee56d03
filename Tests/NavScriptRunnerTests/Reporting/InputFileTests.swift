import Foundation
import Testing

@testable import NavScriptRunner

/// Files named on the command line are read to their end, but never a
/// device, and never more than a limit (a pipe that does not end).
@Suite("Input files")
final class InputFileTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("input-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    @Test func aFileIsReadWholeUpToItsLimit() throws {
        let file = folder.appendingPathComponent("ten")
        try Data(repeating: 7, count: 10).write(to: file)
        #expect(try InputFile.contents(of: file.path, limit: 10) == Data(repeating: 7, count: 10))
        #expect(throws: InputFile.Failure.tooLarge(limit: 9)) { try InputFile.contents(of: file.path, limit: 9) }
        let empty = folder.appendingPathComponent("empty")
        try Data().write(to: empty)
        #expect(try InputFile.contents(of: empty.path, limit: 10).isEmpty)
    }

    @Test func aDeviceAFolderAndNothingAreRefusedUnread() {
        #expect(throws: InputFile.Failure.device) { try InputFile.contents(of: "/dev/zero", limit: 1 << 30) }
        #expect(throws: InputFile.Failure.folder) { try InputFile.contents(of: folder.path, limit: 10) }
        #expect(throws: InputFile.Failure.missing) {
            try InputFile.contents(of: folder.appendingPathComponent("gone").path, limit: 10)
        }
    }

    /// A pipe is read in growing pieces to its end — or to the limit, where
    /// the writer has not stopped yet (what it wrote past fits the pipe's
    /// buffer, so it finishes).
    @Test(arguments: [(20_000, 30_000), (40_000, 10_000)])
    func aPipeIsReadToItsEndOrItsLimit(writes: Int, limit: Int) throws {
        let pipe = Pipe()
        let writer = Thread {
            pipe.fileHandleForWriting.write(Data(repeating: 1, count: writes))
            try? pipe.fileHandleForWriting.close()
        }
        writer.start()
        let path = "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)"
        if writes <= limit {
            #expect(try InputFile.contents(of: path, limit: limit).count == writes)
        } else {
            #expect(throws: InputFile.Failure.tooLarge(limit: limit)) { try InputFile.contents(of: path, limit: limit) }
        }
    }

    @Test func sizesAreSaidInTheirUnit() {
        #expect(InputFile.size(1 << 30) == "1 GiB")
        #expect(InputFile.size(64 << 20) == "64 MiB")
        #expect(InputFile.size(3000) == "3000 bytes")
    }
}
