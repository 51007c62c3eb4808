import Foundation

/// Option key (an Orchard addition): a `@Sendable (MigrationProgress) -> Void` closure called as a
/// migration advances — after each stage and after each batch of rows copied by a table rebuild.
public let OrchardMigrationProgressHandlerOptionKey = "OrchardMigrationProgressHandlerOptionKey"

/// How far a migration has come (an Orchard addition; Core Data reports no progress).
public struct MigrationProgress: Sendable, Equatable {
    /// Migration steps finished (a lightweight jump or a custom stage each count one).
    public var stepsCompleted: Int
    /// Migration steps in this load.
    public var stepCount: Int
    /// Rows copied so far by table rebuilds (tables changed in place copy none).
    public var rowsCopied: Int
    /// The label of the step under way, if it has one.
    public var label: String?
}

/// Sends progress to the handler in the options and to a staged migration manager's `Progress`.
final class MigrationProgressReporter: @unchecked Sendable {
    private let handler: (@Sendable (MigrationProgress) -> Void)?
    private let progress: Progress?
    private var state = MigrationProgress(stepsCompleted: 0, stepCount: 0, rowsCopied: 0, label: nil)

    init(options: [AnyHashable: Any], progress: Progress?) {
        handler = options[OrchardMigrationProgressHandlerOptionKey] as? @Sendable (MigrationProgress) -> Void
        self.progress = progress
    }

    func begin(steps: Int) {
        state.stepCount = steps
        progress?.totalUnitCount = Int64(steps)
        progress?.completedUnitCount = 0
        handler?(state)
    }

    func step(_ label: String?) { state.label = label }

    func copied(_ rows: Int) {
        guard rows > 0 else { return }
        state.rowsCopied += rows
        progress?.setUserInfoObject(state.rowsCopied, forKey: ProgressUserInfoKey("rowsCopied"))
        handler?(state)
    }

    func finishedStep() {
        state.stepsCompleted += 1
        progress?.completedUnitCount = Int64(state.stepsCompleted)
        handler?(state)
    }
}
