/// One `.sheet(item:)`, `.fullScreenCover(item:)` or `.alert(item:)`
/// modifier, headless: an optional item binding, the content it shows for
/// an item, and what runs when it is dismissed.
///
/// The item's `id` is its identity: a new id while presented dismisses the
/// old content and presents the new. A user's swipe-down writes `nil`
/// through the binding and runs `onDismiss`; an alert's button runs its
/// action and then writes `nil`, as SwiftUI does.
public final class Presenter {
    public enum Style: String, Hashable, Sendable {
        case sheet
        case fullScreenCover = "full-screen-cover"
        case alert
    }

    public let style: Style
    /// `.interactiveDismissDisabled()` on the content: a swipe-down bounces.
    public var interactiveDismissDisabled = false
    /// The item's identity, nil when nothing should be presented.
    let identity: () -> AnyHashable?
    /// Writes `nil` to the binding.
    let clear: () -> Void
    /// The content for the current item (nil when the item is nil).
    let content: () -> PresentedContent?
    let onDismiss: (() -> Void)?
    let watch: WriteWatch

    public init<Item: Identifiable>(
        _ style: Style, item: ViewBinding<Item?>, onDismiss: (() -> Void)? = nil,
        content: @escaping (Item) -> PresentedContent
    ) {
        self.style = style
        identity = { item.get().map { AnyHashable($0.id) } }
        clear = { item.set(nil) }
        self.content = { item.get().map(content) }
        self.onDismiss = onDismiss
        watch = WriteWatch { _ = item.get() }
    }

    /// `.sheet(item:onDismiss:content:)`.
    public static func sheet<Item: Identifiable>(
        item: ViewBinding<Item?>, onDismiss: (() -> Void)? = nil, content: @escaping (Item) -> PresentedContent
    ) -> Presenter {
        Presenter(.sheet, item: item, onDismiss: onDismiss, content: content)
    }

    /// `.fullScreenCover(item:onDismiss:content:)`: no swipe-down.
    public static func fullScreenCover<Item: Identifiable>(
        item: ViewBinding<Item?>, onDismiss: (() -> Void)? = nil, content: @escaping (Item) -> PresentedContent
    ) -> Presenter {
        Presenter(.fullScreenCover, item: item, onDismiss: onDismiss, content: content)
    }

    /// `.alert(item:)`: its content is a screen whose outputs are the
    /// buttons; any button dismisses it after its action.
    public static func alert<Item: Identifiable>(item: ViewBinding<Item?>, content: @escaping (Item) -> Screen) -> Presenter {
        Presenter(.alert, item: item) { .screen(content($0)) }
    }
}

/// What a presentation shows: one screen, or a stack with its own path;
/// with the presentation modifiers of that content (the next level up).
public struct PresentedContent {
    public enum Body {
        case screen(Screen)
        case stack(PathStack)
    }

    public let body: Body
    public let presenters: [Presenter]

    public static func screen(_ screen: Screen, presenters: [Presenter] = []) -> PresentedContent {
        PresentedContent(body: .screen(screen), presenters: presenters)
    }

    public static func stack(_ stack: PathStack, presenters: [Presenter] = []) -> PresentedContent {
        PresentedContent(body: .stack(stack), presenters: presenters)
    }

    /// The content's screens, bottom first.
    var screens: [Screen] {
        switch body {
        case .screen(let screen): return [screen]
        case .stack(let stack): return stack.screens
        }
    }

    var stack: PathStack? {
        if case .stack(let stack) = body { return stack }
        return nil
    }
}
