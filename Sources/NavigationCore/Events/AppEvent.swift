/// An event an app adds to the core's vocabulary: the app's own typed enum,
/// logged beside the core's events and rendered the same way, as words a
/// scenario matches (`expect_events{ "stash scheme myapp://item/7" }`).
///
/// Why a protocol instead of a free-text case: an app's events are part of
/// its scenarios' contract just like the core's, so each deserves one
/// rendering, defined once, that the compiler keeps in step.
///
/// (Compiled as written: `Tests/Fixtures/DocExamples/MyAppNavScript/MyAppHost.swift`.)
/// ```swift
/// enum MyAppEvent: AppEvent {
///     case stash(EntryPoint, EntryInput)
///     var text: String {
///         switch self { case .stash(let entry, let input): return "stash \(entry) \(input)" }
///     }
/// }
/// log.record(MyAppEvent.stash(.scheme, .url("myapp://item/7")))
/// ```
public protocol AppEvent: Sendable {
    /// The words scenarios match: a leading verb of the app's own, then its
    /// arguments. Pick verbs the core does not use (see ``NavEvent``).
    var text: String { get }
}

extension EventLog {
    /// Logs an app-specific event.
    public func record(_ event: some AppEvent) {
        record(.app(event))
    }
}
