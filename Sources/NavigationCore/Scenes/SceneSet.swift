/// The windows an app has open. Each is a scene of its own — its tab bar,
/// stacks, modal chain, root flow and router — while the engine, the
/// session and the manifest are the app's, shared by all of them.
///
/// Scenes are numbered from 1 in the order they opened; a closed scene's
/// number is not reused, so "scene 2" means one window for a whole
/// scenario. One scene is in the foreground: a new window opens in front,
/// focusing one brings it there, closing the foreground one hands the
/// front to the scene focused most recently before it. The last open scene
/// cannot be closed (an app with no window is not running).
public final class SceneSet<Scene: AnyObject> {
    /// Open scenes, in opening order.
    public private(set) var scenes: [(number: Int, scene: Scene)]
    /// The number of the scene in the foreground.
    public private(set) var foreground: Int {
        didSet { foregroundScene = scene(foreground)! }
    }
    /// The scene in the foreground. Kept, not looked up: an app reads it
    /// for every navigation call, and the generic search across modules
    /// showed in every step's cost.
    public private(set) var foregroundScene: Scene
    /// Scene numbers, most recently focused last.
    private var focusOrder: [Int]
    private var nextNumber = 2
    private let log: EventLog

    /// The app's first window, in the foreground: scene 1, or the number it
    /// had in the run being restored.
    /// `next`: the number the restored run would have given its next window.
    public init(log: EventLog, first: Scene, number: Int = 1, next: Int = 2) {
        self.log = log
        scenes = [(number, first)]
        foreground = number
        foregroundScene = first
        focusOrder = [number]
        nextNumber = max(number + 1, next)
        // Said in the log, which otherwise starts with window 1 in front.
        if number != 1 { log.record(.sceneRestore(number)) }
    }

    /// The number the next window opened gets: past every number used, also a closed window's.
    public var numberOfNextScene: Int { nextNumber }

    /// Open scenes' numbers, in opening order. (A closure, not `\.number`:
    /// a key path into a tuple is built at run time on every call, and this
    /// is read after every step.)
    public var numbers: [Int] { scenes.map { $0.number } }

    public func scene(_ number: Int) -> Scene? {
        scenes.first { $0.number == number }?.scene
    }

    /// Opens a new window in front; `make` builds its scene given its number.
    /// `restoring` reopens a window of a restored run under the number it had
    /// (a system restores each scene session under its own identity).
    @discardableResult
    public func open(restoring restored: Int? = nil, _ make: (Int) -> Scene) -> Int {
        let number = restored.flatMap { scene($0) == nil ? $0 : nil } ?? nextNumber
        nextNumber = max(nextNumber, number + 1)
        log.record(.sceneOpen(number))
        scenes.append((number, make(number)))
        bringToFront(number)
        return number
    }

    /// Brings scene `number` to the foreground.
    public func focus(_ number: Int) throws(SceneError) {
        guard scene(number) != nil else { throw .noSuchScene(number, open: numbers) }
        guard number != foreground else { return }
        log.record(.sceneFocus(number))
        bringToFront(number)
    }

    /// Closes scene `number` and returns it (its owner tears it down).
    @discardableResult
    public func close(_ number: Int) throws(SceneError) -> Scene {
        guard let index = scenes.firstIndex(where: { $0.number == number }) else {
            throw .noSuchScene(number, open: numbers)
        }
        guard scenes.count > 1 else { throw .lastScene(number) }
        let closed = scenes.remove(at: index).scene
        focusOrder.removeAll { $0 == number }
        log.record(.sceneClose(number))
        if foreground == number, let next = focusOrder.last {
            foreground = next
            log.record(.sceneFocus(next))
        }
        return closed
    }

    private func bringToFront(_ number: Int) {
        foreground = number
        focusOrder.removeAll { $0 == number }
        focusOrder.append(number)
    }
}

/// A scene that cannot be focused or closed, said with what is open.
public enum SceneError: Error, Hashable, Sendable, CustomStringConvertible {
    case noSuchScene(Int, open: [Int])
    case lastScene(Int)

    public var description: String {
        switch self {
        case .noSuchScene(let number, let open):
            return "there is no scene \(number); the open scenes are " + open.map(String.init).joined(separator: ", ")
        case .lastScene(let number):
            return "scene \(number) is the app's last window and cannot be closed; open another first (open_scene{})"
        }
    }
}
