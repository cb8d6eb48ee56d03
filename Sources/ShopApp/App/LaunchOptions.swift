import NavigationCore

/// How ShopApp is cold-started: who the user is, what they have, which
/// experiment they are in, an optional link the launch carries, and which
/// faults to inject.
public struct LaunchOptions: Hashable, Sendable {
    public var loggedIn: Bool
    public var firstLaunch: Bool
    /// nil enrols the first launch in ``OnboardingExperiment/minimal``.
    public var experiment: OnboardingExperiment?
    public var twoFactor: Bool
    public var paymentMethod: Bool
    /// A link the app is launched with (stashed until the root is up).
    public var url: EntryInput?
    public var via: EntryPoint
    public var faults: Set<Fault>
    /// A state-restoration archive from a previous run (the first window's).
    public var restoration: RestorationArchive?
    /// The archives of the other windows open at the end of that run, in
    /// opening order: each is reopened and restored from its own.
    public var sceneRestorations: [RestorationArchive] = []
    /// The number of the window that was in front.
    public var restoredForeground = 1
    /// The numbers the restored windows had, in opening order (the first
    /// window's first): each comes back under its own number, so a number a
    /// scenario kept still names the same window.
    public var restoredNumbers: [Int] = []
    /// The number the run being restored would have given its next window.
    public var restoredNextNumber = 2

    public init(
        loggedIn: Bool = false, firstLaunch: Bool = false, experiment: OnboardingExperiment? = nil,
        twoFactor: Bool = false, paymentMethod: Bool = true, url: EntryInput? = nil,
        via: EntryPoint = .scheme, faults: Set<Fault> = [], restoration: RestorationArchive? = nil
    ) {
        self.loggedIn = loggedIn
        self.firstLaunch = firstLaunch
        self.experiment = experiment
        self.twoFactor = twoFactor
        self.paymentMethod = paymentMethod
        self.url = url
        self.via = via
        self.faults = faults
        self.restoration = restoration
    }
}
