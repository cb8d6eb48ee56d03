import NotesApp

// The app the README's and the doc comments' examples plug in, so that
// their code compiles as written: the notes fixture under the names the
// examples give it (a team's own app in their place).

/// The app: `MyApp.loadEngine()`, `MyApp(engine:signedIn:faults:restoring:)`,
/// its `dispatcher`, `navigation`, `session`, `faults` and `coordinatorPaths`.
public typealias MyApp = NotesApp

/// The app's fault catalogue, with a `summary` per fault.
public typealias MyFault = NotesFault
