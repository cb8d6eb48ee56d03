import Foundation
import Testing

@testable import NavigationCore

@Suite("RouteParams")
struct RouteParamsTests {
    @Test func readsAndWritesLikeADictionaryKeepingNameOrder() {
        var params: RouteParams = [:]
        #expect(params.isEmpty && params.count == 0 && params["id"] == nil)
        params["tab"] = "reviews"
        params["id"] = "p1"
        params["sort"] = "new"
        #expect(params.count == 3)
        #expect(params.keys == ["id", "sort", "tab"])
        #expect(params["sort"] == "new" && params["missing"] == nil)
        params["sort"] = "old"
        #expect(params["sort"] == "old" && params.count == 3)
        params["sort"] = nil
        params["nothing"] = nil
        #expect(params.map(\.key) == ["id", "tab"])
        params["tab"] = nil
        params["id"] = nil
        #expect(params.isEmpty && params == [:])
    }

    /// Equality and hashing are by content, however the pairs were added:
    /// reconciliation compares steps by their params.
    @Test func equalContentIsEqualWhateverTheOrderOfAssignment() {
        var built = RouteParams()
        built["b"] = "2"
        built["a"] = "1"
        built["c"] = "3"
        built["c"] = nil
        let literal: RouteParams = ["a": "1", "b": "2"]
        #expect(built == literal)
        #expect(built.hashValue == literal.hashValue)
        #expect(RouteParams(["b": "2", "a": "1"]) == literal)
        #expect(literal != ["a": "1"] && literal != ["a": "1", "b": "3"])
        var single = literal
        single["b"] = nil
        #expect(single == ["a": "1"] && single.hashValue == RouteParams(["a": "1"]).hashValue)
    }

    @Test func aRepeatedNameKeepsItsLastValue() {
        let params: RouteParams = ["id": "1", "id": "2"]
        #expect(params.count == 1 && params["id"] == "2")
    }

    @Test func thePrimaryParamIsIdElseTheFirstByName() {
        #expect(RouteParams().primary == nil)
        #expect((["code": "SALE"] as RouteParams).primary == "SALE")
        #expect((["a": "1", "id": "p7", "z": "9"] as RouteParams).primary == "p7")
        #expect((["z": "9", "b": "2"] as RouteParams).primary == "2")
        #expect(RouteStep("promo", params: ["z": "9", "b": "2"]).description == "promo:2")
    }

    @Test func filterKeepsParams() {
        let params: RouteParams = ["id": "9", "utm": "mail", "ref": "x"]
        #expect(params.filter { $0.key != "utm" } == ["id": "9", "ref": "x"])
        #expect(params.filter { _ in false }.isEmpty)
    }

    /// Archives and reports wrote a JSON object of strings; they still do.
    @Test func encodesAsTheJSONObjectADictionaryWould() throws {
        let params: RouteParams = ["id": "p1", "tab": "reviews"]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(params), as: UTF8.self)
        #expect(json == String(decoding: try encoder.encode(["tab": "reviews", "id": "p1"]), as: UTF8.self))
        #expect(try JSONDecoder().decode(RouteParams.self, from: Data(json.utf8)) == params)
        #expect(try JSONDecoder().decode(RouteParams.self, from: Data("{}".utf8)).isEmpty)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(RouteParams.self, from: Data("{\"id\": 1}".utf8)) }
    }

    @Test func printsLikeADictionaryInNameOrder() {
        #expect(RouteParams().description == "[:]")
        #expect((["tab": "r", "id": "p1"] as RouteParams).description == #"["id": "p1", "tab": "r"]"#)
    }
}
