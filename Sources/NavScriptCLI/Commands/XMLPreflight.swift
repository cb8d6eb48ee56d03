import Foundation

/// What Foundation's XML reader must not be handed, found in one pass over
/// a report's bytes before it is: an empty processing instruction
/// (`<?pi?>`, which it passes on as a null pointer — a crash), and a start
/// tag with more attributes than ``attributeLimit`` (libxml2 checks each
/// new one against all before it: 200,000 in one tag took 35 s).
/// Comments, CDATA sections and quoted values are skipped: their `<?` and
/// `=` are text.
struct XMLPreflight {
    enum Problem: Equatable {
        case emptyInstruction(line: Int)
        case crowdedElement(line: Int)
    }

    /// The most attributes merge-junit lets one element have.
    static let attributeLimit = 1000

    /// The first problem of `data`, if any.
    static func problem(in data: Data) -> Problem? {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Problem? in
            let bytes = raw.bindMemory(to: UInt8.self)
            let count = bytes.count
            var index = 0
            var line = 1
            func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
            func starts(_ prefix: StaticString) -> Bool {
                let start = prefix.utf8Start
                let length = prefix.utf8CodeUnitCount
                return index + length <= count && (0..<length).allSatisfy { bytes[index + $0] == start[$0] }
            }
            /// Moves past `terminator` (to the end when it is missing), counting lines.
            func skip(past terminator: StaticString) {
                while index < count {
                    if starts(terminator) {
                        index += terminator.utf8CodeUnitCount
                        return
                    }
                    if bytes[index] == UInt8(ascii: "\n") { line += 1 }
                    index += 1
                }
            }
            while index < count {
                let byte = bytes[index]
                guard byte == UInt8(ascii: "<") else {
                    if byte == UInt8(ascii: "\n") { line += 1 }
                    index += 1
                    continue
                }
                if starts("<!--") {
                    skip(past: "-->")
                } else if starts("<![CDATA[") {
                    skip(past: "]]>")
                } else if starts("<?") {
                    // A name, then nothing but blanks before `?>`.
                    var at = index + 2
                    while at < count, !isSpace(bytes[at]), bytes[at] != UInt8(ascii: "?") { at += 1 }
                    while at < count, isSpace(bytes[at]) { at += 1 }
                    if at + 1 < count, bytes[at] == UInt8(ascii: "?"), bytes[at + 1] == UInt8(ascii: ">") {
                        return .emptyInstruction(line: line)
                    }
                    skip(past: "?>")
                } else {
                    // A tag: `=` outside quoted values, up to its `>`.
                    let tagLine = line
                    var quote: UInt8?
                    var attributes = 0
                    index += 1
                    while index < count {
                        let inner = bytes[index]
                        index += 1
                        if inner == UInt8(ascii: "\n") { line += 1 }
                        if let open = quote {
                            if inner == open { quote = nil }
                        } else if inner == UInt8(ascii: "\"") || inner == UInt8(ascii: "'") {
                            quote = inner
                        } else if inner == UInt8(ascii: "=") {
                            attributes += 1
                            if attributes > attributeLimit { return .crowdedElement(line: tagLine) }
                        } else if inner == UInt8(ascii: ">") {
                            break
                        }
                    }
                }
            }
            return nil
        }
    }
}
