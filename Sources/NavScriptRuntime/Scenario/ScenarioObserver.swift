/// What sees a scenario as it runs, before its result exists.
///
/// Why: a worker streams all of it to its parent, so a scenario that
/// crashes its process or hangs still has its timeline, the call it was
/// in, what it printed and its storyboard; the in-process runner publishes
/// steps and output live. Each closure is optional: a caller watches only
/// what it reports.
package struct ScenarioObserver {
    /// Every timeline step as it is recorded.
    package var step: ((TimelineStep) -> Void)?
    /// Every driving or asserting call before it runs (a crash or a hang names it).
    package var call: ((String) -> Void)?
    /// That call has returned (a hang after it is not in it).
    package var returned: (() -> Void)?
    /// What the scenario prints, as it prints it.
    package var output: ((String) -> Void)?
    /// Every change to the storyboard, when frames are recorded (`--html`).
    package var frame: ((FrameChange) -> Void)?
    /// Every failure the scenario keeps, as it is recorded: one recorded
    /// before a crash or a hang of the worker is reported with it.
    package var failure: ((ExpectationFailure) -> Void)?

    /// A change to a scenario's storyboard, in order: a worker's parent keeps
    /// the same frames by applying them to its ``StoryboardFrames``.
    package enum FrameChange {
        /// A step's frame.
        case appended(StepFrame)
        /// A problem shown on the last frame.
        case problem(StepFrame.Problem)
    }

    package init(
        step: ((TimelineStep) -> Void)? = nil, call: ((String) -> Void)? = nil, returned: (() -> Void)? = nil,
        output: ((String) -> Void)? = nil, frame: ((FrameChange) -> Void)? = nil,
        failure: ((ExpectationFailure) -> Void)? = nil
    ) {
        self.step = step
        self.call = call
        self.returned = returned
        self.output = output
        self.frame = frame
        self.failure = failure
    }
}
