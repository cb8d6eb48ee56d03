import Foundation
import Testing

/// Shared by the reporting tests and the CLI end-to-end tests.
/// `xmllint`, as CI's schema check runs it.
public enum XMLLint {
    public struct Result {
        public var status: Int32
        public var messages: String
    }

    /// The JUnit schema the reports must validate against (strict Ant/Jenkins + file/line).
    public static let schema: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // TestSupport
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("NavScriptRunnerTests/Reporting/Fixtures/junit.xsd")

    public static func executable() -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"] {
            let candidate = URL(fileURLWithPath: folder).appendingPathComponent("xmllint")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// `xmllint --noout [--schema xsd] file`. Missing xmllint (or schema) is
    /// a recorded failure, never a silent pass.
    public static func run(_ file: URL, schema: URL? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> Result? {
        guard let xmllint = executable() else {
            Issue.record(
                """
                xmllint not found on PATH: the JUnit validity tests need it. \
                Install it (Debian/Ubuntu: apt-get install libxml2-utils; macOS ships it).
                """, sourceLocation: sourceLocation)
            return nil
        }
        if let schema, !FileManager.default.fileExists(atPath: schema.path) {
            Issue.record("the JUnit schema is missing at \(schema.path)", sourceLocation: sourceLocation)
            return nil
        }
        let process = Process()
        process.executableURL = xmllint
        process.arguments = ["--noout"] + (schema.map { ["--schema", $0.path] } ?? []) + [file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do {
            try process.run()
        } catch {
            Issue.record("cannot start \(xmllint.path): \(error)", sourceLocation: sourceLocation)
            return nil
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, messages: String(decoding: data, as: UTF8.self))
    }

    /// Well-formed and schema-valid, both checked.
    public static func expectValid(_ file: URL, sourceLocation: SourceLocation = #_sourceLocation) {
        if let wellFormed = run(file, sourceLocation: sourceLocation) {
            #expect(wellFormed.status == 0, "xmllint --noout: \(wellFormed.messages)", sourceLocation: sourceLocation)
        }
        if let valid = run(file, schema: schema, sourceLocation: sourceLocation) {
            #expect(valid.status == 0, "xmllint --schema junit.xsd: \(valid.messages)", sourceLocation: sourceLocation)
        }
    }
}
