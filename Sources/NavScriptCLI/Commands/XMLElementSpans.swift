/// Where the elements directly under a document's root are in its text —
/// for `merge-junit`, which copies each shard's suites into the merged
/// report as they were written, without holding a document tree.
///
/// Only for text an XML parser has already accepted as well-formed: it
/// skips declarations, comments, CDATA and quoted attribute values, and
/// counts tags, but reports no errors of its own.
struct XMLElementSpans {
    /// An element as written: `range` from its `<` to after its end tag (or
    /// its `/>`), `startTag` from its `<` to after its start tag's `>`.
    struct Span: Equatable {
        var name: String
        var range: Range<Int>
        var startTag: Range<Int>
    }

    /// The root element.
    private(set) var root: Span?
    /// The elements directly inside the root, in order.
    private(set) var children: [Span] = []

    init(_ text: [UInt8]) {
        var index = 0
        var depth = 0
        var openChild: Span?
        let count = text.count

        func starts(_ prefix: String, at position: Int) -> Bool {
            var at = position
            for byte in prefix.utf8 {
                guard at < count, text[at] == byte else { return false }
                at += 1
            }
            return true
        }
        /// The index just after `terminator`, searched from `position` (the end when it is missing).
        func after(_ terminator: String, from position: Int) -> Int {
            let bytes = Array(terminator.utf8)
            var at = position
            while at + bytes.count <= count {
                if text[at] == bytes[0] && Array(text[at..<at + bytes.count]) == bytes { return at + bytes.count }
                at += 1
            }
            return count
        }
        /// The index after a tag's closing `>`, quoted values skipped (and, for a DOCTYPE, its `[…]` subset).
        func tagEnd(from position: Int) -> Int {
            var at = position
            var quote: UInt8?
            var brackets = 0
            while at < count {
                let byte = text[at]
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: "[") {
                    brackets += 1
                } else if byte == UInt8(ascii: "]") {
                    brackets -= 1
                } else if byte == UInt8(ascii: ">") && brackets <= 0 {
                    return at + 1
                }
                at += 1
            }
            return count
        }
        func name(from position: Int) -> String {
            var end = position
            while end < count, !" \t\r\n/>".utf8.contains(text[end]) { end += 1 }
            return String(decoding: text[position..<end], as: UTF8.self)
        }

        while index < count {
            guard text[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            if starts("<?", at: index) {
                index = after("?>", from: index + 2)
            } else if starts("<!--", at: index) {
                index = after("-->", from: index + 4)
            } else if starts("<![CDATA[", at: index) {
                index = after("]]>", from: index + 9)
            } else if starts("<!", at: index) {
                index = tagEnd(from: index + 2)
            } else if starts("</", at: index) {
                let end = tagEnd(from: index + 2)
                depth -= 1
                if depth == 1, var child = openChild {
                    child.range = child.range.lowerBound..<end
                    children.append(child)
                    openChild = nil
                } else if depth == 0, var root {
                    root.range = root.range.lowerBound..<end
                    self.root = root
                }
                index = end
            } else {
                let end = tagEnd(from: index + 1)
                let selfClosing = end >= 2 && text[end - 2] == UInt8(ascii: "/")
                let span = Span(name: name(from: index + 1), range: index..<end, startTag: index..<end)
                if depth == 0 {
                    root = span
                } else if depth == 1 {
                    if selfClosing { children.append(span) } else { openChild = span }
                }
                if !selfClosing { depth += 1 }
                index = end
            }
        }
    }
}
