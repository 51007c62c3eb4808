/// One side of a workload: ours or a baseline, with the closure that runs it once.
///
/// The closure does its own set-up and tear-down outside the part it times (see `timed`), and returns
/// what the run measured.
@MainActor
public struct Contender {
    /// The side's name as the table shows it ("OpenCoreData", "SQLite C API", ...).
    public var name: String
    /// Runs the side once.
    public var run: @MainActor () async throws -> Measured

    /// A side called `name` that `run` runs once per call.
    public init(_ name: String, _ run: @escaping @MainActor () async throws -> Measured) {
        self.name = name
        self.run = run
    }
}
