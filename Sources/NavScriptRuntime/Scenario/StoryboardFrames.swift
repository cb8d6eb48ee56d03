/// The frames a storyboard draws of one scenario, kept in bounded memory:
/// the first and last frames, and every frame a problem was shown on.
///
/// Why a type of its own: the scenario world keeps these while it runs, and
/// a worker's parent keeps the same from the frames the worker streams, so
/// a scenario whose worker crashed or timed out still has its storyboard —
/// drawn the same way whichever side kept it.
package struct StoryboardFrames {
    /// A frame holds the whole navigation, so a long scenario cannot keep them all.
    private var kept = BoundedHistory<StepFrame>(headLimit: 20, tailLimit: 100)
    /// Frames pushed out of ``kept`` that a problem was shown on, with their
    /// ordinal (a storyboard draws every failing frame); at most 100.
    private var failingLeftOut: [(ordinal: Int, frame: StepFrame)] = []

    package init() {}

    package var isEmpty: Bool { kept.isEmpty }

    package mutating func append(_ frame: StepFrame) {
        let ordinal = kept.count + 1 - kept.tailLimit  // of the frame the append would push out
        if let evicted = kept.append(frame), !evicted.problems.isEmpty, failingLeftOut.count < 100 {
            failingLeftOut.append((ordinal, evicted))
        }
    }

    /// Shows `problem` on the last frame (none yet: nothing to show it on).
    package mutating func attach(_ problem: StepFrame.Problem) {
        kept.updateLast { $0.problems.append(problem) }
    }

    /// The frames oldest first: the first and last, and every failing one
    /// between; each says how many before it were left out.
    package var frames: [StepFrame] {
        var frames = kept.numbered.map { (ordinal: $0.number, frame: $0.element) }
        if !failingLeftOut.isEmpty {
            frames.insert(contentsOf: failingLeftOut, at: kept.head.count)
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
