import Testing

@testable import NavigationCore

/// Spelling one link for every door, from the manifest alone: what the
/// entry-point consistency checks of any app rely on.
@Suite("EntryLinkSpelling")
struct EntryLinkSpellingTests {
    let spelling = EntryLinkSpelling(scheme: "MyApp", universalHosts: ["MyApp.Example.com", "other.example.com"])
    let adapter = EntryPointAdapter(scheme: "myapp", universalHosts: ["myapp.example.com", "other.example.com"])

    @Test func eachDoorGetsItsOwnShape() {
        let url = "myapp://item/7?tab=notes"
        #expect(spelling.input(for: url, via: .scheme) == .url(url))
        #expect(spelling.input(for: url, via: .widget) == .url(url))
        #expect(spelling.input(for: url, via: .universal) == .url("https://myapp.example.com/item/7?tab=notes"))
        #expect(spelling.input(for: url, via: .push) == .payload(["route": "item/7?tab=notes"]))
        #expect(
            spelling.input(for: url, via: .spotlight)
                == .activity(type: "myapp.link", userInfo: ["identifier": "item/7?tab=notes"]))
    }

    @Test("every spelling reaches the adapter as the same link", arguments: EntryPoint.allCases)
    func roundTripsThroughTheAdapter(_ entry: EntryPoint) throws {
        let reference = try adapter.link(for: .url("myapp://item/7"), via: .scheme)
        let link = try adapter.link(for: spelling.input(for: "MYAPP://item/7", via: entry), via: entry)
        #expect(link.path == reference.path)
        #expect(link.query == reference.query)
    }

    /// A push and a Handoff carry the same link in other shapes too — a
    /// payload's `url`, an activity's `webpage_url` — and each reaches the
    /// adapter as the same link; a door that takes only a URL has none.
    @Test func aPushAndAHandoffHaveOtherShapesOfTheSameLink() throws {
        let url = "myapp://item/7?tab=notes"
        let push = spelling.otherShapes(for: url, via: .push)
        #expect(
            push.map(\.input) == [.payload(["url": url]), .payload(["url": "https://myapp.example.com/item/7?tab=notes"])])
        let handoff = spelling.otherShapes(for: url, via: .spotlight)
        #expect(
            handoff.map(\.input) == [
                .activity(type: "myapp.link", userInfo: ["webpage_url": "https://myapp.example.com/item/7?tab=notes"])
            ])
        let reference = try adapter.link(for: .url(url), via: .scheme)
        for (entry, shapes) in [(EntryPoint.push, push), (.spotlight, handoff)] {
            for shape in shapes {
                let link = try adapter.link(for: shape.input, via: entry)
                #expect(link.path == reference.path && link.query == reference.query, "\(shape.change)")
            }
        }
        for entry in [EntryPoint.scheme, .universal, .widget] { #expect(spelling.otherShapes(for: url, via: entry).isEmpty) }
        #expect(spelling.otherShapes(for: "other://item/7", via: .push).isEmpty, "not the app's link: no shapes")
        let bare = EntryLinkSpelling(scheme: "myapp", universalHosts: [])
        #expect(bare.otherShapes(for: url, via: .spotlight).isEmpty && bare.otherShapes(for: url, via: .push).count == 1)
    }

    @Test func aLinkOfAnotherSchemeIsPassedThroughForTheDoorToReject() {
        #expect(spelling.input(for: "other://item/7", via: .push) == .url("other://item/7"))
        #expect(spelling.input(for: "my", via: .universal) == .url("my"))
    }

    @Test func withoutUniversalHostsAUniversalLinkStaysAsWritten() {
        let bare = EntryLinkSpelling(scheme: "myapp", universalHosts: [], activityType: "com.example.open")
        #expect(bare.input(for: "myapp://item/7", via: .universal) == .url("myapp://item/7"))
        #expect(
            bare.input(for: "myapp://item/7", via: .spotlight)
                == .activity(type: "com.example.open", userInfo: ["identifier": "item/7"]))
    }

    @Test func theManifestDecidesSchemeAndHost() throws {
        let spelling = EntryLinkSpelling(manifest: Fixture.manifest())
        let manifest = Fixture.manifest()
        let universal = spelling.input(for: "\(manifest.scheme)://home", via: .universal)
        #expect(universal == .url("https://\(manifest.universalHosts[0])/home"))
    }
}

/// The user's thumb: each gesture opens a step before it acts, and an
/// impossible gesture is an error naming what is possible.
@Suite("SimulatedUser")
struct SimulatedUserTests {
    @Test func everyGestureOpensAStepFirst() throws {
        let world = World()
        world.push([step("home"), step("product", id: "p1")], on: Fixture.home)
        let user = SimulatedUser(navigation: world.nav)
        try user.back()
        try user.selectTab(Fixture.orders)
        #expect(world.log.stepNames == ["launch", "back", "select_tab orders"])
        let pop = try #require(world.log.entries.first { $0.text == "pop product:p1" })
        #expect(pop.step == 1)
        #expect(world.nav.selectedTab == Fixture.orders)
    }

    @Test func impossibleGesturesSayWhatIsPossible() throws {
        let world = World()
        world.push([step("home")], on: Fixture.home)
        let user = SimulatedUser(navigation: world.nav)
        #expect(throws: NavigationError.unknownTab("nope", tabs: ["home", "orders", "profile"])) { try user.selectTab("nope") }
        #expect(throws: NavigationError.nothingToPop(screen: "home")) { try user.back() }
        #expect(throws: NavigationError.nothingToPop(screen: "home")) { try user.backSwipe() }
        #expect(throws: NavigationError.noModal) { try user.dismiss() }
        #expect(throws: NavigationError.noSuchOutput(screen: "home", output: "x", available: [])) { try user.tap("x") }
        #expect(world.log.stepNames.count == 6, "a refused gesture is still a step the user took")
    }

    @Test func aTapFiresTheOutputWithItsArguments() throws {
        let world = World()
        let screen = world.screen("home")
        var received: [String: String]?
        screen.setOutput("open") { received = $0 }
        world.nav.stack(Fixture.home).push(screen)
        try SimulatedUser(navigation: world.nav).tap("open", ["id": "7"])
        #expect(received == ["id": "7"])
        #expect(NavigationError.unknownTab("x", tabs: ["a", "b"]).description == "unknown tab 'x'; tabs are: a, b")
    }
}
