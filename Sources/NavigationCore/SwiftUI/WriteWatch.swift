import Observation

/// Counts the writes to the observable state a binding reads, between two
/// frames — how the platform sees SwiftUI's "update multiple times per
/// frame" (a pop-to-root and a push written as two assignments) and a
/// setter that dropped a write.
///
/// Observation tells a change once per registration, in the property's
/// `willSet`; the watch registers again from inside that call, so every
/// write is counted. State that is not `@Observable` is not seen: its
/// writes count as zero and only the frame's diff notices them.
///
/// `@unchecked Sendable` because `withObservationTracking` wants a
/// sendable change handler; a scenario world is single-threaded and the
/// watch never leaves it.
final class WriteWatch: @unchecked Sendable {
    private let read: () -> Void
    /// Writes seen since the last ``reset()``.
    private(set) var writes = 0

    init(read: @escaping () -> Void) {
        self.read = read
        arm()
    }

    /// Starts a new frame's count.
    func reset() { writes = 0 }

    private func arm() {
        guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
        withObservationTracking(read) { [weak self] in
            guard let self else { return }
            self.writes += 1
            self.arm()
        }
    }
}
