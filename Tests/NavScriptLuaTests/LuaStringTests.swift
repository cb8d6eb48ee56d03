import Testing

@testable import NavScriptLua

/// LuaString is bytes: equality and hashing by bytes, text views on top.
@Suite("Lua bridge: LuaString")
struct LuaStringTests {
    @Test("the same bytes are equal and hash alike however the string was made")
    func equalityIgnoresHowItWasMade() {
        let made = [
            LuaString("café"), LuaString(bytes: Array("café".utf8)),
            "café".withCString { LuaString(bytes: UnsafeRawBufferPointer(start: $0, count: 5)) },
            "café".withCString { LuaString(copying: UnsafeRawBufferPointer(start: $0, count: 5)) }
        ]
        for string in made {
            #expect(string == made[0])
            #expect(string.hashValue == made[0].hashValue)
            #expect(string.bytes == Array("café".utf8))
            #expect(string.count == 5)
            #expect(string.validUTF8 == "café")
        }
        #expect(LuaString("cafe\u{301}") != LuaString("café"), "bytes, not canonical equivalence")
    }

    @Test("invalid UTF-8 and embedded zeros keep their exact bytes")
    func rawBytes() {
        let invalid = LuaString(bytes: [0x61, 0xFF, 0x62])
        #expect(invalid.bytes == [0x61, 0xFF, 0x62])
        #expect(invalid.count == 3)
        #expect(invalid.validUTF8 == nil)
        #expect(invalid.string == "a\u{FFFD}b")
        #expect(invalid != LuaString("a\u{FFFD}b"))
        let copied = [UInt8]([0x61, 0xFF, 0x62]).withUnsafeBytes { LuaString(copying: $0) }
        #expect(copied == invalid && copied.validUTF8 == nil, "the bridge's copy keeps invalid bytes too")
        #expect(copied.withBytes { Array($0) } == [0x61, 0xFF, 0x62])
        let zero = LuaString(bytes: [0x61, 0x00, 0x62])
        #expect(zero.validUTF8 == "a\u{0}b")
        #expect(zero.bytes == [0x61, 0x00, 0x62])
    }

    @Test("setting bytes changes the text views")
    func settingBytes() {
        var string = LuaString("ok")
        string.bytes = [0xC3]
        #expect(string.validUTF8 == nil)
        #expect(string == LuaString(bytes: [0xC3]))
        string.bytes = Array("fine".utf8)
        #expect(string.validUTF8 == "fine")
        #expect(string == "fine")
    }
}
