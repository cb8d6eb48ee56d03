import Foundation
import Testing

@testable import NavigationCore

@Suite("RestorationArchive")
struct RestorationArchiveTests {
    static let state = NavigationState(
        selectedTab: "orders", tabs: ["home", "orders", "profile"],
        stacks: [
            "home": [step("home"), step("product", id: "p1")],
            "orders": [step("orders"), step("order", id: "42"), step("track", id: "42")],
            "profile": []
        ],
        modals: [[step("settings")], [step("address", ["zip": "75001", "note": "ünïcødé & \"quotes\""])]])

    @Test func aStateRoundTrips() throws {
        let data = try RestorationArchive(state: Self.state).encoded()
        let restored = try RestorationArchive.decode(data)
        #expect(restored.version == RestorationArchive.currentVersion)
        #expect(restored.state == Self.state)
        #expect(restored.state.visible == step("address", ["zip": "75001", "note": "ünïcødé & \"quotes\""]))
    }

    @Test func aLiveNavigationRoundTrips() throws {
        let world = World()
        world.push([step("home"), step("category", ["slug": "x"])], on: "home")
        world.push([step("profile")], on: "profile")
        world.nav.select("profile")
        let modal = world.nav.makeStack(name: "settings")
        modal.push(world.screen("settings"), animated: false)
        world.nav.present(modal, animated: false)

        let saved = world.nav.state
        let restored = try RestorationArchive.decode(try RestorationArchive(state: saved).encoded()).state
        #expect(restored == saved)
        // Rebuilding it on a cold start lands on the same plan-free state.
        let cold = World()
        for tab in restored.tabs { cold.push(restored.stack(tab), on: tab, animated: false) }
        cold.nav.select(restored.selectedTab)
        for steps in restored.modals {
            let stack = cold.nav.makeStack(name: "restored")
            for step in steps { stack.push(cold.screen(step.id, step.params), animated: false) }
            cold.nav.present(stack, animated: false)
        }
        #expect(cold.nav.state == saved)
    }

    @Test func anEmptyStateRoundTrips() throws {
        let empty = NavigationState(selectedTab: "home", tabs: ["home"])
        #expect(try RestorationArchive.decode(try RestorationArchive(state: empty).encoded()).state == empty)
    }

    @Test(
        "a corrupt archive is refused",
        arguments: [
            "", "not json", "{}", "[]", #"{"version": 1}"#, #"{"version": "1", "state": {}}"#,
            #"{"version": 1, "state": {"selectedTab": "home", "tabs": ["home"], "stacks": 3, "modals": []}}"#
        ])
    func corrupt(_ text: String) {
        let error = #expect(throws: RestorationError.self) { try RestorationArchive.decode(Data(text.utf8)) }
        guard case .corrupt? = error else {
            Issue.record("expected corrupt, got \(String(describing: error))")
            return
        }
    }

    @Test func aTruncatedArchiveIsRefused() throws {
        let data = try RestorationArchive(state: Self.state).encoded()
        for cut in stride(from: 1, to: data.count, by: max(1, data.count / 25)) {
            #expect(throws: RestorationError.self) { try RestorationArchive.decode(data.prefix(cut)) }
        }
    }

    @Test("another version is refused", arguments: [0, 2, -1, 99])
    func wrongVersion(_ version: Int) throws {
        var archive = RestorationArchive(state: Self.state)
        archive.version = version
        let data = try archive.encoded()
        #expect(throws: RestorationError.unsupportedVersion(version)) { try RestorationArchive.decode(data) }
        #expect(RestorationError.unsupportedVersion(version).description.contains("expected \(RestorationArchive.currentVersion)"))
    }

    /// `encoded()` sorts keys so that an archive is stable bytes, but
    /// `TabID` is not `CodingKeyRepresentable`, so `stacks` encodes as a flat
    /// `[key, value, key, value]` array in hash order — which changes from
    /// one process to the next.
    @Test func stacksAreStoredKeyedByTabSoTheBytesAreStable() throws {
        let data = try RestorationArchive(state: Self.state).encoded()
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let state = try #require(json["state"] as? [String: Any])
        #expect(state["stacks"] is [String: Any], "stacks encoded as \(type(of: state["stacks"]!))")
    }
}
