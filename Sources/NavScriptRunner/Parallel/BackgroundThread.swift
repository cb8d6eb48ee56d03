import Foundation

/// A detached thread with a small stack, started or refused — never
/// silently not started.
///
/// Why not Foundation's `Thread`: it takes the default stack (8 MiB, the
/// stack limit's size) and, when the thread cannot be created, neither
/// throws nor runs the block. Under an address-space limit (`ulimit -v` of a
/// hundred megabytes or two) a worker's reader thread was quietly never
/// started: the pool waited forever for messages nobody read. The threads
/// here only read pipes and decode messages of a fixed shape, so a small
/// stack is room enough and makes the limit far harder to reach; a thread that cannot be
/// created is the caller's to handle (a worker that cannot be read is not
/// started).
package enum BackgroundThread {
    /// The stack each gets: deep enough for decoding a worker's message
    /// (debug builds included), an eighth of the default.
    static let stackSize = 1 << 20

    /// Starts `body` on a thread of its own; whether it could be started.
    @discardableResult
    package static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        var attributes = pthread_attr_t()
        guard pthread_attr_init(&attributes) == 0 else { return false }
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        // Signals are not these threads' to take: a handler run on one (the backtracer's, on a
        // SIGQUIT) interrupted its read, which Foundation's FileHandle turns into a fatal error.
        // The new thread starts with every signal blocked (the mask is inherited), this one's after.
        var all = sigset_t(), previous = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let status = pthread_create(
            &thread, &attributes,
            { context in
                Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, context)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return false
        }
        return true
    }

    /// The block, carried through C's `void *`.
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
