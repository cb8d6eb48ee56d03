import Foundation

/// A report written once, when the run finishes (JUnit, HTML): it renders
/// the whole result, with the plan the run started from, and writes it
/// with ``ReportFile/write(_:to:kind:)``. An interrupted run still gets
/// its report — for what finished.
public final class RunReportFile: RunReporter {
    /// What the file gets rendered from.
    public struct Content {
        public var plan: RunPlan?
        public var result: RunResult
        /// Why the run stopped early, if it did.
        public var interruption: String?

        public init(plan: RunPlan?, result: RunResult, interruption: String?) {
            self.plan = plan
            self.result = result
            self.interruption = interruption
        }
    }

    public let name: String
    private let kind: String
    private let url: URL
    private let render: (Content) -> String
    private var plan: RunPlan?

    /// - Parameters:
    ///   - kind: `JUnit report`, `HTML report` (for messages).
    public init(kind: String, path: String, render: @escaping (Content) -> String) {
        self.kind = kind
        self.name = "the \(kind) \(path)"
        self.url = URL(fileURLWithPath: path)
        self.render = render
    }

    public func receive(_ event: RunEvent) throws {
        switch event {
        case .runStarted(let plan): self.plan = plan
        case .runFinished(let result, let interruption):
            try ReportFile.write(render(Content(plan: plan, result: result, interruption: interruption)), to: url, kind: kind)
        default: break
        }
    }
}
