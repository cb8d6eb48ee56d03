import NavigationCore

/// A ShopApp screen. It talks back to its coordinator through a weak
/// delegate reference — or, with the `strong-back-reference` fault, a
/// strong one, which closes a retain cycle through the coordinator's stack.
final class ShopScreen: Screen {
    weak var delegate: AnyObject?
    /// Set only under `strong-back-reference`: the bug, kept deliberately.
    var retainedDelegate: AnyObject?
}

/// A screen's view model: display state only, no navigation knowledge.
/// It exists so leaks are reported at the granularity a team would see
/// them in a memory graph: screen, view model, coordinator.
final class ScreenModel: LifecycleTracked {
    let step: RouteStep
    var lifecycleToken: LifecycleToken?

    init(step: RouteStep) { self.step = step }
}
