import Testing

@testable import NavigationCore

/// Applies a plan to a state as the root coordinator would, so tests can
/// check where a plan lands and not only what it says.
func apply(_ ops: [NavOp], to state: NavigationState) -> NavigationState {
    var state = state
    for op in ops {
        switch op {
        case .dismissModals:
            state.modals = []
        case .selectTab(let tab):
            state.selectedTab = tab
        case .updateTop(let step):
            var stack = state.stack(state.selectedTab)
            if !stack.isEmpty { stack[stack.count - 1] = step }
            state.stacks[state.selectedTab] = stack
        case .popTo(let id):
            let stack = state.stack(state.selectedTab)
            if let index = stack.lastIndex(where: { $0.id == id }) {
                state.stacks[state.selectedTab] = Array(stack[...index])
            }
        case .setStack(let tab, let steps, _):
            state.stacks[tab] = steps
        case .setModalStack(let level, let steps):
            state.modals[level] = steps
        case .present(let chain):
            state.modals += chain
        }
    }
    return state
}

private let tabs: [TabID] = ["home", "orders", "profile"]

private func state(_ selected: TabID, _ stacks: [TabID: [RouteStep]], modals: [[RouteStep]] = []) -> NavigationState {
    NavigationState(selectedTab: selected, tabs: tabs, stacks: stacks, modals: modals)
}

@Suite("Reconciler")
struct ReconcilerTests {
    let engine: RoutingEngine
    init() throws { engine = try Fixture.engine() }

    func target(_ id: DestinationID, _ params: RouteParams = [:]) throws -> Target {
        try engine.target(for: RouteRequest(id, params: params))
    }

    @Test func noOpWhenTheTargetIsAlreadyShown() throws {
        let current = state("home", ["home": [step("home"), step("product", id: "p1")]])
        for source in [RouteSource.internal, .external] {
            #expect(Reconciler.plan(current: current, target: try target("product", ["id": "p1"]), source: source) == [])
        }
    }

    @Test func noOpWithAMatchingModal() throws {
        let current = state("home", ["home": [step("home")]], modals: [[step("cart"), step("checkout")]])
        #expect(Reconciler.plan(current: current, target: try target("checkout"), source: .external) == [])
    }

    @Test func updateInPlaceWhenOnlyTheLeafParamsChange() throws {
        let current = state("home", ["home": [step("home"), step("product", id: "p1")]])
        let ops = Reconciler.plan(current: current, target: try target("product", ["id": "p2"]), source: .external)
        #expect(ops == [.updateTop(step("product", id: "p2"))])
    }

    @Test func popToWithoutParamChange() throws {
        let current = state("home", ["home": [step("home"), step("product", id: "p1"), step("reviews", id: "p1")]])
        let ops = Reconciler.plan(current: current, target: try target("product", ["id": "p1"]), source: .internal)
        #expect(ops == [.popTo("product")])
    }

    @Test func popToWithParamChangeThenUpdates() throws {
        let current = state("home", ["home": [step("home"), step("product", id: "p1"), step("reviews", id: "p1")]])
        let ops = Reconciler.plan(current: current, target: try target("product", ["id": "p2"]), source: .internal)
        #expect(ops == [.popTo("product"), .updateTop(step("product", id: "p2"))])
    }

    /// Popping to the leaf is only reuse when the screens below it are the
    /// target's ancestry; otherwise the stack is rebuilt to the canonical path.
    @Test func popToRequiresTheCanonicalAncestryBelow() throws {
        let current = state(
            "home",
            [
                "home": [
                    step("home"), step("category", ["slug": "a"]),
                    step("category", ["slug": "b"]), step("product", id: "p1")
                ]
            ])
        let target = Target(tab: "home", baseRun: [step("home"), step("category", ["slug": "b"])])
        let ops = Reconciler.plan(current: current, target: target, source: .internal)
        #expect(ops == [.setStack("home", target.baseRun, keeping: 1)])
        #expect(apply(ops, to: current).stack("home") == target.baseRun)
    }

    @Test func resetToCanonicalForExternal() throws {
        let current = state("home", ["home": [step("home"), step("category", ["slug": "shoes"])]])
        let ops = Reconciler.plan(current: current, target: try target("product", ["id": "p1"]), source: .external)
        #expect(ops == [.setStack("home", [step("home"), step("product", id: "p1")], keeping: 0)])
    }

    @Test func keepPrefixForInternalCountsTheSharedScreens() throws {
        let current = state("home", ["home": [step("home"), step("category", ["slug": "shoes"])]])
        let ops = Reconciler.plan(current: current, target: try target("reviews", ["id": "p1"]), source: .internal)
        #expect(ops == [.setStack("home", [step("home"), step("product", id: "p1"), step("reviews", id: "p1")], keeping: 1)])
    }

    /// The documented decision: prefix identity is id **plus params**.
    @Test("keep-prefix compares ids plus params", arguments: [("41", 1), ("42", 2)])
    func keepPrefixComparesParams(_ shownOrder: String, _ keeping: Int) throws {
        let current = state("orders", ["orders": [step("orders"), step("order", id: shownOrder)]])
        let ops = Reconciler.plan(current: current, target: try target("track", ["id": "42"]), source: .internal)
        #expect(
            ops == [
                .setStack(
                    "orders", [step("orders"), step("order", id: "42"), step("track", id: "42")],
                    keeping: keeping)
            ])
    }

    @Test func anEmptyStackIsBuiltFromScratch() throws {
        let current = state("orders", [:])
        for source in [RouteSource.internal, .external] {
            let ops = Reconciler.plan(current: current, target: try target("order", ["id": "1"]), source: source)
            #expect(ops == [.setStack("orders", [step("orders"), step("order", id: "1")], keeping: 0)])
        }
    }

    @Test func staleModalIsDismissed() throws {
        let current = state("profile", ["profile": [step("profile")]], modals: [[step("settings")]])
        #expect(Reconciler.plan(current: current, target: try target("profile"), source: .external) == [.dismissModals])
    }

    @Test func aModalWithOtherRootParamsIsStale() throws {
        let current = state("home", ["home": [step("home")]], modals: [[step("cart")]])
        let other = Target(tab: "home", baseRun: [step("home")], modals: [[step("cart", ["v": "2"])]])
        #expect(
            Reconciler.plan(current: current, target: other, source: .external)
                == [.dismissModals, .present([[step("cart", ["v": "2"])]])])
    }

    @Test func matchingModalRootsReconcileInsideTheModal() throws {
        let current = state("home", ["home": [step("home")]], modals: [[step("cart")]])
        let ops = Reconciler.plan(current: current, target: try target("checkout"), source: .internal)
        #expect(ops == [.setModalStack(level: 0, [step("cart"), step("checkout")])])
        #expect(!ops.contains(.dismissModals))
    }

    @Test func modalChainIsPresentedLast() throws {
        let current = state("profile", ["profile": [step("profile")]])
        let ops = Reconciler.plan(current: current, target: try target("address"), source: .external)
        #expect(ops == [.present([[step("settings")], [step("address")]])])
        let fromHome = state("home", ["home": [step("home"), step("product", id: "p1")]])
        #expect(
            Reconciler.plan(current: fromHome, target: try target("cart"), source: .external)
                == [.popTo("home"), .present([[step("cart")]])])
    }

    @Test func tabOnlyChangeSelectsTheTab() throws {
        let current = state("home", ["home": [step("home")], "profile": [step("profile")]])
        #expect(Reconciler.plan(current: current, target: try target("profile"), source: .external) == [.selectTab("profile")])
    }

    /// All four phases in one plan: dismiss → select tab → stack → present.
    @Test func opOrderIsDismissSelectStackPresent() throws {
        let current = state(
            "profile", ["home": [step("home"), step("product", id: "p1")], "profile": [step("profile")]],
            modals: [[step("settings")]])
        let checkout = try target("checkout")
        let ops = Reconciler.plan(current: current, target: checkout, source: .external)
        #expect(ops == [.dismissModals, .selectTab("home"), .popTo("home"), .present([[step("cart"), step("checkout")]])])
        let landed = apply(ops, to: current)
        #expect(landed.selectedTab == "home")
        #expect(landed.stack("home") == checkout.baseRun)
        #expect(landed.modals == checkout.modals)
        #expect(landed.stack("profile") == [step("profile")])
        #expect(landed.visible == checkout.leaf)

        // The same shape with a stack reset in the middle.
        let reset = state("profile", ["home": [step("home"), step("category", ["slug": "x"])]], modals: [[step("settings")]])
        let ops2 = Reconciler.plan(current: reset, target: try target("product", ["id": "p3"]), source: .external)
        #expect(
            ops2 == [
                .dismissModals, .selectTab("home"),
                .setStack("home", [step("home"), step("product", id: "p3")], keeping: 0)
            ])
    }

    @Test func opsDescribeThemselves() {
        #expect(NavOp.dismissModals.description == "dismiss-modals")
        #expect(NavOp.selectTab("home").description == "select-tab home")
        #expect(NavOp.updateTop(step("product", id: "p1")).description == "update product:p1")
        #expect(NavOp.popTo("home").description == "pop-to home")
        #expect(
            NavOp.setStack("home", [step("home"), step("product", id: "p1")], keeping: 1).description
                == "set-stack home [home, product:p1] keeping 1")
        #expect(NavOp.setModalStack(level: 0, [step("cart")]).description == "set-modal-stack 0 [cart]")
        #expect(NavOp.present([[step("settings")], [step("address")]]).description == "present [settings] [address]")
    }

    /// Generated states and targets: wherever it starts, the plan lands on
    /// the target's tab, modal chain and leaf, and `keeping` never exceeds
    /// what is really shared.
    @Test func everyPlanLandsOnTheTarget() throws {
        var rng = SplitMix64(seed: 0xC0FFEE)
        let requests: [RouteRequest] = [
            RouteRequest("home"), RouteRequest("product", params: ["id": "p1"]), RouteRequest("product", params: ["id": "p2"]),
            RouteRequest("reviews", params: ["id": "p1"]), RouteRequest("category", params: ["slug": "a"]),
            RouteRequest("cart"), RouteRequest("checkout"), RouteRequest("orders"),
            RouteRequest("order", params: ["id": "1"]), RouteRequest("track", params: ["id": "1"]),
            RouteRequest("track", params: ["id": "2"]), RouteRequest("profile"), RouteRequest("settings"),
            RouteRequest("address")
        ]
        let targets = try requests.map { try engine.target(for: $0) }
        for _ in 0..<2_000 {
            // A reachable state: some tabs' stacks built from targets, some modals.
            var current = state(tabs.randomElement(using: &rng)!, [:])
            for tab in tabs {
                let from = targets.filter { $0.tab == tab }
                let base = from.randomElement(using: &rng)!.baseRun
                current.stacks[tab] = Array(base.prefix(Int.random(in: 1...base.count, using: &rng)))
            }
            if Bool.random(using: &rng) { current.modals = targets.randomElement(using: &rng)!.modals }
            let target = targets.randomElement(using: &rng)!
            let source: RouteSource = Bool.random(using: &rng) ? .internal : .external
            let ops = Reconciler.plan(current: current, target: target, source: source)
            let landed = apply(ops, to: current)
            #expect(landed.selectedTab == target.tab)
            #expect(landed.modals == target.modals)
            #expect(landed.stack(target.tab).last == target.baseRun.last)
            #expect(landed.visible == target.leaf)
            for case .setStack(_, let steps, let keeping) in ops {
                #expect(keeping <= current.stack(target.tab).count)
                #expect(Array(current.stack(target.tab).prefix(keeping)) == Array(steps.prefix(keeping)))
                if source == .external { #expect(keeping == 0) }
            }
            // The phases never run out of order.
            let phase = ops.map { op -> Int in
                switch op {
                case .dismissModals: 0
                case .selectTab: 1
                case .updateTop, .popTo, .setStack: 2
                case .setModalStack, .present: 3
                }
            }
            #expect(phase == phase.sorted(), "\(ops)")
            if ops.isEmpty { #expect(current.visible == target.leaf) }
        }
    }

    /// The reconciler's own documentation: "`order:41` is not a prefix of a
    /// path through `order:42`, so tracking order 42 never lands on top of
    /// order 41's screen". The leaf test looks at ids only and returns
    /// update-in-place (or pop-to + update) without checking the screens
    /// below, so the ancestors keep the old order's params.
    @Test func aLeafUpdateNeverLeavesAncestorsWithOtherParams() throws {
        let onTop = state("orders", ["orders": [step("orders"), step("order", id: "41"), step("track", id: "41")]])
        let below = state(
            "orders",
            [
                "orders": [
                    step("orders"), step("order", id: "41"), step("track", id: "41"),
                    step("order", id: "41")
                ]
            ])
        let track42 = try target("track", ["id": "42"])
        for current in [onTop, below] {
            for source in [RouteSource.internal, .external] {
                let ops = Reconciler.plan(current: current, target: track42, source: source)
                let landed = apply(ops, to: current).stack("orders")
                #expect(landed == track42.baseRun, "\(source): \(ops) lands on \(landed)")
            }
        }
    }
}
