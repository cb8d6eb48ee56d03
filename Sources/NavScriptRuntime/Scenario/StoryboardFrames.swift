import Foundation

/// The frames a storyboard draws of one scenario, kept in bounded memory:
/// the first and last frames, and every frame a problem was shown on.
///
/// Why a type of its own: the scenario world keeps these while it runs, and
/// a worker's parent keeps the same from the frames the worker streams, so
/// a scenario whose worker crashed or timed out still has its storyboard —
/// drawn the same way whichever side kept it.
package struct StoryboardFrames {
    /// A frame as it was handed over: a frame, or (from a worker's stream)
    /// its JSON, decoded only if the storyboard is drawn — a long scenario
    /// streams a frame per step, and nearly all of them are pushed out.
    private enum Kept {
        case frame(StepFrame)
        case json([UInt8])

        var hasProblems: Bool {
            if case .frame(let frame) = self { return !frame.problems.isEmpty }
            return false  // a streamed frame's problems arrive after it (see `attach`)
        }

        var frame: StepFrame? {
            switch self {
            case .frame(let frame): frame
            case .json(let bytes): try? JSONDecoder().decode(StepFrame.self, from: Data(bytes))
            }
        }
    }

    /// A frame holds the whole navigation, so a long scenario cannot keep them all.
    private var kept = BoundedHistory<Kept>(headLimit: 20, tailLimit: 100)
    /// Frames pushed out of ``kept`` that a problem was shown on, with their
    /// ordinal (a storyboard draws every failing frame); at most 100.
    private var failingLeftOut: [(ordinal: Int, frame: StepFrame)] = []

    package init() {}

    package var isEmpty: Bool { kept.isEmpty }

    package mutating func append(_ frame: StepFrame) { append(.frame(frame)) }

    /// Appends a frame given as the JSON of a ``StepFrame`` without problems.
    package mutating func append(json: [UInt8]) { append(.json(json)) }

    private mutating func append(_ entry: Kept) {
        let ordinal = kept.count + 1 - kept.tailLimit  // of the frame the append would push out
        if let evicted = kept.append(entry), evicted.hasProblems, failingLeftOut.count < 100, let frame = evicted.frame {
            failingLeftOut.append((ordinal, frame))
        }
    }

    /// Shows `problem` on the last frame (none yet: nothing to show it on).
    package mutating func attach(_ problem: StepFrame.Problem) {
        kept.updateLast { entry in
            guard var frame = entry.frame else { return }
            frame.problems.append(problem)
            entry = .frame(frame)
        }
    }

    /// The frames oldest first: the first and last, and every failing one
    /// between; each says how many before it were left out.
    package var frames: [StepFrame] {
        var frames = kept.numbered.compactMap { entry in entry.element.frame.map { (ordinal: entry.number, frame: $0) } }
        if !failingLeftOut.isEmpty {
            frames.insert(contentsOf: failingLeftOut, at: min(kept.head.count, frames.count))
        }
        var previous = 0
        return frames.map { ordinal, frame in
            var frame = frame
            frame.framesLeftOutBefore = ordinal - previous > 1 ? ordinal - previous - 1 : nil
            previous = ordinal
            return frame
        }
    }
}
