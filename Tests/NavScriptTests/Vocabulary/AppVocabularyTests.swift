import NavigationCore
import NotesApp
import Testing

@testable import NavScript
@testable import NavScriptLua

/// An event item no event of the app could match is named, with what it
/// should have been; every item an event of the app can start with passes.
@Suite("AppVocabulary")
struct AppVocabularyTests {
    let check: AppVocabulary

    init() throws { check = AppVocabulary(host: try NotesHost()) }

    @Test(arguments: [
        "push note:7", "push note", "push", "gate auth account", "gate auth", "resolve account gated auth",
        "resolve note:7 proceed", "finish app/auth completed", "finish app/auth cancelled", "select-tab settings",
        "set-stack notes notes note:7 note:8", "deliver scheme notes://note/7", "release note:7", "session-commit",
        "present sign_in", "dismiss sign_in",  // a sheet the gate presents: no destination, but declared
        "release note:7 view-model", "dealloc note:7 view-model", "deliver push {route=note, title=Big sale}",
        "reject malformed notes://search?q=red shoes", "set-stack notes notes",
        "set-stack auth sign_in",  // a modal flow's own stack
        "reject unknown_route", "warning recreated note:7", "scene-open 2", "scene-close 3",
        // Other objects' labels, and coordinators of the team's own naming.
        "release app", "dealloc scene 2 app", "start app/wizard", "finish app/wizard completed",
        "release note:7 presenter", "warning multiple-updates notes", "warning unregistered-destination NoteRoute",
        "warning multiple-updates selection", "loop-guard note auth 3", "warning multiple-updates sheet",
        "warning out-of-sync anything"
    ])
    func anItemTheAppCanLogPasses(item: String) {
        #expect(check.problem(with: item) == nil, "\(item): \(check.problem(with: item) ?? "")")
    }

    @Test(arguments: [
        ("presnt note", "no event starts with 'presnt', so this can never match; did you mean 'present'?"),
        ("present acount", "the app has no screen 'acount' (not a destination, a declared screen or in the log); did you mean 'account'?"),
        ("gate auth acount", "the app has no destination 'acount'; did you mean 'account'?"),
        ("gate payment", "the app has no precondition 'payment'"),
        ("select-tab note", "the app has no tab 'note'; did you mean 'notes'?"),
        ("finish app/auth done", "expected 'completed' or 'cancelled' here, got 'done'"),
        ("resolve note proceed now", "'resolve <dest> proceed' events have 3 words; this item has 4"),
        ("gate  auth", "'gate  auth' has a space too many"),
        (" push note", "has a space too many"),
        ("push note ", "has a space too many"),
        (
            "reject unknown-route",
            "a rejection's kind is one of malformed, unknown_route, validation_failed, not 'unknown-route'; did you mean 'unknown_route'?"
        ),
        ("warning second-presentaton", "did you mean 'second-presentation'?"),
        ("scene-open two", "a scene is a window's number as the log writes it (1, 2, …), not 'two'"),
        ("push *", "'*' is no screen label"),
        ("push note:", "'note:' is no screen label"),
        // Far from every name: the host declares its screens, so this is none (it passed for ever).
        (
            "present zzz",
            "the app has no screen 'zzz' (not a destination, a declared screen or in the log); screens are: account, note, notes, settings, sign_in"
        ),
        ("dismiss log", "the app has no screen 'log'"),
        // A label the app can never log: a parameter where the destination takes none, or one its spec refuses.
        ("push settings:x", "'settings:x' is never logged: 'settings' takes no parameter (its events read 'settings' alone)"),
        ("push note:abc", "'note:abc' is never logged: 'note' id abc does not match [0-9]{1,6}"),
        // A label's screen or a coordinator's path close to one the app has: a typo.
        ("release nte:7", "the app has no screen 'nte'; did you mean 'note'?"),
        ("start app/acount", "the app has no coordinator 'acount' in 'app/acount'; did you mean 'account'?"),
        ("release note:abc", "'note:abc' is never logged: 'note' id abc does not match [0-9]{1,6}"),
        // Closed words of other events: a door, an execution's source.
        ("deliver schme notes://note/7", "the app has no entry point 'schme'"),
        ("execute note:7 externl", "an execution's source is external or internal, not 'externl'; did you mean 'external'?"),
        // A count, a path, a warning's subject: one word, and what the app can log there.
        ("loop-guard note auth x", "a count is a whole number written as the log writes it (a loop guard's: 3), not 'x'"),
        ("loop-guard note auth 03", "not '03'"), ("scene-open +2", "not '+2'"), ("scene-focus 01", "not '01'"),
        ("start app/auth x", "'start <path>' events have 2 words; this item has 3"),
        ("warning recreated note:7 x", "'warning <kind> <subject>' events have 3 words; this item has 4"),
        ("warning multiple-updates Notes", "the app has nothing named 'Notes' to warn about; did you mean 'notes'?"),
        // As close to two names as to one: still a typo (`nots` is one edit from `note` and from `notes`).
        ("warning multiple-updates nots", "the app has nothing named 'nots' to warn about; did you mean 'note' or 'notes'?"),
        // What follows a label: `view-model`, spelled so, and nothing after it or after a path.
        ("release note:7 viewmodel", "a screen's view model is labelled 'note:7 view-model', not 'note:7 viewmodel'"),
        ("dealloc note:7 View-Model", "a screen's view model is labelled 'note:7 view-model'"),
        ("release note:7 view-model x", "'note:7 view-model' is a whole label: its events end there, not with 'x'"),
        ("release app/auth view-model", "'app/auth' is a coordinator's path: its release and dealloc events end there"),
        ("release note:7 view-model\u{200B}", "holds U+200B, a character nothing draws"),
        ("release note:", "'note:' is no label"),
        // A screen's label the declared screens do not have: with a parameter, or behind view-model.
        ("dealloc zzz:1", "the app has no screen 'zzz' (a label with a parameter is a screen's)"),
        ("release zzz view-model", "the app has no screen 'zzz' whose view model could be released"),
        // A warning's subject that is a screen label the app can never log.
        ("warning recreated note:abc", "'note:abc' is never logged: 'note' id abc does not match [0-9]{1,6}"),
        ("warning recreated note:7:7", "'note:7:7' is never logged"),
        // Far from every name the app has: a stack's, a presentation's or a screen's warning is about none.
        ("warning recreated qqqqqq", "the app has nothing named 'qqqqqq' that a recreated warning could be about"),
        ("warning dropped-write x", "the app has nothing named 'x' that a dropped-write warning could be about")
    ])
    func anItemNoEventCouldMatchSaysWhy(item: String, says: String) {
        #expect(check.problem(with: item)?.contains(says) == true, "\(item): \(check.problem(with: item) ?? "nil")")
    }

    /// A host that declares no screens may show any: only a name close to a known one is a typo.
    @Test func withoutDeclaredScreensOnlyANearNameIsATypo() throws {
        let lenient = AppVocabulary(host: NotesVariantHost(try NotesHost()))
        #expect(lenient.problem(with: "present zzz") == nil)
        #expect(lenient.problem(with: "present acount")?.contains("did you mean 'account'?") == true)
    }

    /// A host event's placeholder holds one word (`widget-opens 42 extra` could never match), but an
    /// `<input>` last holds free text.
    @Test func aHostEventHasTheWordsItsFormHas() throws {
        let host = AppVocabulary(
            host: NotesVariantHost(
                try NotesHost(),
                events: [EventDeclaration("widget-opens <id>", "an id"), EventDeclaration("note-said <input>", "free text")]))
        #expect(host.problem(with: "widget-opens 42") == nil)
        #expect(host.problem(with: "widget-opens 42 extra words") == "'widget-opens <id>' events have 2 words; this item has 4")
        #expect(host.problem(with: "note-said hello there world") == nil)
    }

    /// A screen the app showed is known from the log, however far it is from the manifest.
    @Test func aScreenInTheLogIsKnown() throws {
        let host = try NotesHost()
        #expect(AppVocabulary(host: host).problem(with: "present acount") != nil)
        #expect(AppVocabulary(host: host, log: ["present acount", "dismiss acount"]).problem(with: "present acount") == nil)
    }
}
