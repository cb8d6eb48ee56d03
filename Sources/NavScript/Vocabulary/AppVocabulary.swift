import NavigationCore

/// The names an app's scenarios can use — the core's event vocabulary and
/// the host's events, the manifest's destinations, tabs and preconditions,
/// the host's declared screens and those the log shows — to tell a typo
/// from a name the app has.
///
/// Why: `expect_no_event` and `expect_event_count(item, 0)` pass when
/// nothing matches, so a misspelt item (`"presnt login"`, `"present
/// sign_in"` in an app whose sheet is `login`, two spaces) checks nothing
/// and passes for ever; and a failing `expect_screen("dicsover")` reads
/// like the app's fault. Only asked when such a check found no match or
/// failed, so passing checks pay nothing. A screen may be one the manifest
/// does not route to (a sign-in sheet a gate presents): one that is not a
/// destination, a declared screen or in the log is only called a typo when
/// it is close to one that is — unless the host declares its screens
/// (``ScenarioHost/screens``): then the list is the app's, and any other
/// name is an error (`present zzz`, or `present log` for `login`, passed for
/// ever because no near name was found).
package struct AppVocabulary {
    /// Every form's words (`["gate", "<precondition>", "<dest>"]`), by first word.
    private let forms: [String: [[String]]]
    private let destinations: Set<String>
    /// Destinations, the host's declared screens and every screen the log names.
    private let screens: Set<String>
    private let tabs: Set<String>
    /// What else names a stack (`set-stack checkout …`: a modal flow's own stack): the
    /// manifest's flows and the words the log shows. A modal flow's name may be neither
    /// (a sign-in sheet's `auth`), so another stack's name is only called a typo when it is
    /// close to a tab.
    private let stacks: Set<String>
    private let preconditions: Set<String>
    /// For a label's parameter: a destination that takes none, or a value its spec refuses, is never logged.
    private let engine: RoutingEngine
    /// The host lists its screens: a name outside destinations, declarations and the log is no screen.
    private let screensDeclared: Bool
    /// Destinations and declared screens: the names an error lists (the log's words hold other things too).
    private let namedScreens: Set<String>
    /// Every word and path part the log shows (coordinator names the app used).
    private let logWords: Set<String>

    /// `log`: the app's events so far (screens it showed that the manifest does not route to).
    package init(host: any ScenarioHost, log: [String] = []) {
        var forms: [String: [[String]]] = [:]
        let spelled = NavEvent.vocabulary.map(\.form) + host.events.map(\.form)
        for form in spelled {
            let words = form.split(separator: " ").map(String.init)
            if let first = words.first { forms[first, default: []].append(words) }
        }
        self.forms = forms
        engine = host.engine
        let manifest = host.engine.manifest
        destinations = Set(manifest.destinations.map(\.id.rawValue))
        let declared = host.screens
        screensDeclared = !declared.isEmpty
        namedScreens = destinations.union(declared.map(\.id.rawValue))
        var screens = namedScreens
        var logWords: Set<String> = []
        for event in log {
            for word in event.split(separator: " ").dropFirst() {
                screens.insert(Self.destination(of: word))
                for part in word.split(separator: "/") { logWords.insert(Self.destination(of: part)) }
            }
        }
        self.logWords = logWords
        self.screens = screens
        tabs = Set(manifest.tabs.map(\.rawValue))
        var stacks = Set(manifest.destinations.map(\.flow))
        for event in log where event.hasPrefix("set-stack ") {
            if let name = event.split(separator: " ").dropFirst().first { stacks.insert(String(name)) }
        }
        self.stacks = stacks
        preconditions = Set(manifest.preconditions.map(\.rawValue))
    }

    /// Whether the app has a screen of this name (a destination, or one its log shows).
    package func hasScreen(_ name: String) -> Bool { screens.contains(name) }

    /// Every screen name the app has, sorted (for suggestions).
    package var screenNames: [String] { screens.sorted() }

    /// For a failed check of screens: the first of `labels` (`"item:7"`, `"item"`) whose
    /// screen the app has no such name for and that is close to one it has.
    package func typoHint(forScreens labels: [String]) -> String? {
        for label in labels {
            let screen = Self.destination(of: label)
            // `product:P1`: a label whose parameter the destination's spec refuses is never on screen.
            let parts = label.split(separator: ":", maxSplits: 1)
            if parts.count == 2, destinations.contains(screen),
                let problem = engine.primaryParamProblem(of: DestinationID(screen), value: String(parts[1]))
            {
                return "'\(label)' is never shown: '\(screen)' \(problem)"
            }
            guard !screens.contains(screen),
                let close = NameSuggestion.didYouMean(NameSuggestion.nearest(to: screen, among: Array(screens)))
            else { continue }
            return "'\(screen)' is no screen of the app; \(close)"
        }
        return nil
    }

    /// What is wrong with event `item`, or nil when every word can occur.
    package func problem(with item: String) -> String? {
        if item.hasPrefix(" ") || item.hasSuffix(" ") || item.contains("  ") {
            return "'\(item)' has a space too many: events are words separated by one space"
        }
        let words = item.split(separator: " ").map(String.init)
        guard let first = words.first else { return nil }
        guard let candidates = forms[first] else {
            let kinds = forms.keys.sorted()
            let suggestion = NameSuggestion.closest(to: first, among: kinds).map { "did you mean '\($0)'? " } ?? ""
            return "no event starts with '\(first)', so this can never match; \(suggestion)events start with: "
                + kinds.joined(separator: ", ") + " (an app event of your own: declare it in the host's `events`)"
        }
        // Each further word against what the forms of that kind have at its place.
        var problems: [String] = []
        for form in candidates {
            if let problem = mismatch(words, form: form) { problems.append(problem) } else { return nil }
        }
        return problems.first
    }

    /// Why `words` cannot be a prefix of an event of `form`, or nil.
    private func mismatch(_ words: [String], form: [String]) -> String? {
        for (index, word) in words.enumerated().dropFirst() {
            guard index < form.count else {
                // Past the form's words: a form whose last word repeats (`<screen>…`) goes on, and
                // free text (an input, a label: `release product:p1 view-model`) may hold spaces.
                guard let last = form.last else { return nil }
                if last.hasSuffix("…") {
                    if let problem = check(word, against: last, in: form[0]) { return problem }
                    continue
                }
                if last == "<label>" { return labelTail(words[index...], label: words[index - 1]) }
                if last == "<input>" { return nil }
                return "'\(form.joined(separator: " "))' events have \(form.count) words; this item has \(words.count)"
            }
            if let problem = check(word, against: form[index], in: form[0], after: words[index - 1]) { return problem }
        }
        return nil
    }

    /// `word` as a number the log could write: plain decimal digits, no sign, no leading zero.
    private static func decimal(_ word: String) -> Int? {
        guard let value = Int(word), String(value) == word else { return nil }
        return value
    }

    /// The destination of a label (`order` of `order:42`, `order` itself).
    private static func destination(of label: some StringProtocol) -> String {
        String(label.split(separator: ":", maxSplits: 1).first ?? label[...])
    }

    /// What may follow a label (`release product:p1 view-model`): the core tracks a screen's view
    /// model as its label and `view-model`; a team's own labels may hold other words. A word close
    /// to `view-model` and not it (`viewmodel`, `View-Model`), a word after it, a word after a
    /// coordinator's path, or a character nothing draws can never be logged.
    private func labelTail(_ tail: ArraySlice<String>, label: String) -> String? {
        let viewModel = LifecycleTracker.Kind.viewModel.rawValue
        for (offset, word) in tail.enumerated() {
            if let hidden = word.unicodeScalars.first(where: { $0.properties.isDefaultIgnorableCodePoint }) {
                return "'\(word)' holds U+\(String(hidden.value, radix: 16, uppercase: true)), a character nothing draws: "
                    + "no label of the app has it"
            }
            if label.contains("/") {
                return "'\(label)' is a coordinator's path: its release and dealloc events end there, not with '\(word)'"
            }
            // A view model's label is a screen's: with the screens declared, another name is none.
            let screen = Self.destination(of: label)
            if offset == 0, word == viewModel, screensDeclared, !screens.contains(screen), !logWords.contains(screen) {
                return "the app has no screen '\(screen)' whose view model could be released; screens are: "
                    + namedScreens.sorted().joined(separator: ", ")
            }
            if offset > 0, tail[tail.startIndex] == viewModel {
                return "'\(label) \(viewModel)' is a whole label: its events end there, not with '\(word)'"
            }
            if offset == 0, word != viewModel,
                word.lowercased() == viewModel || NameSuggestion.closest(to: word.lowercased(), among: [viewModel]) != nil
            {
                return "a screen's view model is labelled '\(label) \(viewModel)', not '\(label) \(word)'"
            }
        }
        return nil
    }

    /// Places that hold one word the app names.
    private static let closedSlots: Set<String> = [
        "<dest>", "<screen>", "<tab>", "<precondition>", "<count>", "<source>", "<kind>", "<entry>", "<scene>", "<path>",
        "<subject>"
    ]

    /// `word` at a place the form writes as `placeholder` (`<dest>`, a literal such as `proceed`).
    /// `previous`: the word before it in the item (a warning's kind, for its subject).
    private func check(_ word: String, against placeholder: String, in kind: String, after previous: String? = nil) -> String? {
        let slot = placeholder.hasSuffix("…") ? String(placeholder.dropLast()) : placeholder
        func known(_ value: String, in set: Set<String>, _ what: String) -> String? {
            guard !set.contains(value) else { return nil }
            let suggestion = NameSuggestion.closest(to: value, among: Array(set)).map { "; did you mean '\($0)'?" } ?? ""
            return "the app has no \(what) '\(value)'\(suggestion)"
        }
        // A label's destination is a name, and `id:` promises a parameter: `push *` or
        // `push product:` is no label, so the item can never match.
        if slot == "<dest>" || slot == "<screen>" {
            let parts = word.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts.first ?? ""
            let isName =
                !name.isEmpty
                && name.unicodeScalars.allSatisfy {
                    $0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0)
                }
            if !isName || (parts.count == 2 && parts[1].isEmpty) {
                return "'\(word)' is no screen label (a destination's name, optionally ':' and its primary parameter: 'item:7'); "
                    + "events are matched word by word, with no wildcards"
            }
            // `present login:x`, `push product:P1`: a label the app can never log, so a check of its absence
            // could never fail.
            if parts.count == 2, destinations.contains(String(name)),
                let problem = engine.primaryParamProblem(of: DestinationID(String(name)), value: String(parts[1]))
            {
                return "'\(word)' is never logged: '\(name)' \(problem)"
                    + (problem == "takes no parameter" ? " (its events read '\(name)' alone)" : "")
            }
        }
        switch slot {
        case "<kind>" where kind == "reject":
            let kinds = LinkOutcome.Rejection.allCases.filter { $0 != .loopGuard }.map(\.rawValue)
            return kinds.contains(word)
                ? nil
                : "a rejection's kind is one of \(kinds.joined(separator: ", ")), not '\(word)'"
                    + (NameSuggestion.closest(to: word, among: kinds).map { "; did you mean '\($0)'?" } ?? "")
        case "<kind>" where kind == "warning":
            let kinds = PlatformWarning.Kind.allCases.map(\.rawValue)
            return kinds.contains(word)
                ? nil
                : "a warning's kind is one of \(kinds.joined(separator: ", ")), not '\(word)'"
                    + (NameSuggestion.closest(to: word, among: kinds).map { "; did you mean '\($0)'?" } ?? "")
        case "<entry>":
            // A door (`deliver scheme …`): one of the app's entry points.
            return known(word, in: Set(EntryPoint.allCases.map(\.rawValue)), "entry point")
        case "<source>" where kind == "execute":
            return ["external", "internal"].contains(word)
                ? nil
                : "an execution's source is external or internal, not '\(word)'"
                    + (NameSuggestion.closest(to: word, among: ["external", "internal"]).map { "; did you mean '\($0)'?" } ?? "")
        case "<count>":
            // As the log writes it: `03` and `+3` read as 3 but never match the `3` it logs.
            return Self.decimal(word).map { $0 >= 0 } == true
                ? nil : "a count is a whole number written as the log writes it (a loop guard's: 3), not '\(word)'"
        case "<subject>" where kind == "warning":
            // A stack, a presentation, a value type, a screen: a name close to one the app has, and not
            // one itself, is a typo (`placse`, `Places`: the warning names `places`).
            let names = stacks.union(screens).union(tabs).union(logWords).union(["selection"])
                .union(["sheet", "full-screen-cover", "alert"])
            let name = Self.destination(of: word)  // a screen's label names its screen
            let parts = word.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2, destinations.contains(name),
                let problem = parts[1].isEmpty
                    ? "takes no empty parameter" : engine.primaryParamProblem(of: DestinationID(name), value: String(parts[1]))
            {
                return "'\(word)' is never logged: '\(name)' \(problem)"
            }
            guard !names.contains(name) else { return nil }
            if let close = NameSuggestion.didYouMean(NameSuggestion.nearest(to: name, among: Array(names))) {
                return "the app has nothing named '\(word)' to warn about; \(close)"
            }
            // Far from every name: for a warning about a stack, the tab selection, a presentation or a
            // screen, a host that declares its screens names them all (a value type's name is the app's own).
            guard screensDeclared, let warning = previous, !["unregistered-destination", "out-of-sync"].contains(warning)
            else { return nil }
            return "the app has nothing named '\(word)' that a \(warning) warning could be about: its subjects are "
                + "stacks, the tab selection, presentations (sheet, full-screen-cover, alert) and screens"
        case "<scene>":
            return Self.decimal(word).map { $0 >= 1 } == true
                ? nil : "a scene is a window's number as the log writes it (1, 2, …), not '\(word)'"
        case "<dest>":
            // A label (`order:42`) or its destination alone (`order`): the destination must exist.
            let destination = Self.destination(of: word)
            return known(destination, in: destinations, "destination")
        case "<screen>":
            let screen = Self.destination(of: word)
            guard !screens.contains(screen) else { return nil }
            let close = NameSuggestion.didYouMean(NameSuggestion.nearest(to: screen, among: Array(screens)))
            guard close != nil || screensDeclared else { return nil }
            let suggestion = close ?? "screens are: " + namedScreens.sorted().joined(separator: ", ")
            return "the app has no screen '\(screen)' (not a destination, a declared screen or in the log); \(suggestion) "
                + "(a screen outside the manifest: declare it in the host's `screens`)"
        case "<tab>" where kind == "set-stack":
            // A tab, or another stack's name (a modal flow's: `set-stack checkout …`).
            guard !tabs.contains(word), !stacks.contains(word),
                let close = NameSuggestion.didYouMean(NameSuggestion.nearest(to: word, among: Array(tabs)))
            else { return nil }
            return "the app has no tab '\(word)' and no stack of that name was seen; \(close)"
        case "<tab>": return known(word, in: tabs, "tab")
        case "<path>",
            "<label>" where word.contains("/"):
            // A coordinator's path (`app/auth`): a name close to one the app has, and not its own, is a typo
            // (`start app/auht` could never match). Other names pass: a team's coordinators need not be
            // destinations or flows of the manifest.
            let names = stacks.union(destinations).union(tabs).union(["app"])
            for part in word.split(separator: "/").map(String.init) where !names.contains(part) && !logWords.contains(part) {
                if let close = NameSuggestion.didYouMean(NameSuggestion.nearest(to: part, among: Array(names))) {
                    return "the app has no coordinator '\(part)' in '\(word)'; \(close)"
                }
            }
            return nil
        case "<label>":
            // A screen's label (`product:p1`), or another object's (`app`, `scene 2 app`): a name close to a
            // screen the app has, and not one itself, is a typo; a destination's label the app can never
            // log (a parameter it takes none of, a value its spec refuses) too.
            let screen = Self.destination(of: word)
            let parts = word.split(separator: ":", maxSplits: 1)
            if word.hasSuffix(":") {
                return "'\(word)' is no label ('\(screen)' alone, or with its primary parameter: '\(screen):7'); "
                    + "events are matched word by word, with no wildcards"
            }
            if parts.count == 2, destinations.contains(screen),
                let problem = engine.primaryParamProblem(of: DestinationID(screen), value: String(parts[1]))
            {
                return "'\(word)' is never logged: '\(screen)' \(problem)"
            }
            guard !screens.contains(screen), !logWords.contains(screen) else { return nil }
            if let close = NameSuggestion.didYouMean(NameSuggestion.nearest(to: screen, among: Array(namedScreens))) {
                return "the app has no screen '\(screen)'; \(close)"
            }
            // `zzz:1` is a screen's label (a parameter after a colon): with the screens declared, another name is none.
            guard parts.count == 2, screensDeclared else { return nil }
            return "the app has no screen '\(screen)' (a label with a parameter is a screen's); screens are: "
                + namedScreens.sorted().joined(separator: ", ")
        case "<precondition>": return known(word, in: preconditions, "precondition")
        default:
            if slot.hasPrefix("<") { return nil }  // an input, an id of the app's own: anything
            // Literal words, alternatives written `a|b`.
            let literals = slot.split(separator: "|").map(String.init)
            return literals.contains(word) ? nil : "expected \(literals.map { "'\($0)'" }.joined(separator: " or ")) here, got '\(word)'"
        }
    }
}
