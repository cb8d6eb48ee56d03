import Foundation

/// The lines the pool writes to a worker's input: tasks, and revocations
/// of a task handed over behind the running one.
///
/// Read straight from the descriptor rather than through `readLine`, so a
/// worker can take every line already written without waiting for more:
/// before it starts a file it reads what arrived meanwhile, and a
/// revocation sent while it ran the previous file reaches it in time.
struct TaskLines {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    /// What one read takes, kept between reads (a read per line a worker waits for).
    private var chunk = [UInt8](repeating: 0, count: 65_536)
    private(set) var ended = false

    init(descriptor: Int32 = STDIN_FILENO) {
        self.descriptor = descriptor
    }

    /// The next whole line; with `waiting` false, nil unless one has
    /// already arrived (or the input ended).
    mutating func next(waiting: Bool) -> [UInt8]? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[start..<newline])
                start = newline + 1
                if start > 65_536 {
                    buffer.removeFirst(start)
                    start = 0
                }
                return line
            }
            guard !ended else { return nil }
            if !waiting {
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 0) > 0 else { return nil }
            }
            let descriptor = self.descriptor
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                ended = true
                return nil
            }
            buffer += chunk[..<count]
        }
    }
}

/// Sent by the pool to take back a task it handed a worker behind its
/// running one (`{"revoke":7}`): another worker, idle, runs it instead. The
/// worker drops it if it has not started it, and says so (``WorkerMessage/revoked(task:)``).
struct WorkerRevocation: Codable, Hashable {
    var revoke: Int
}
