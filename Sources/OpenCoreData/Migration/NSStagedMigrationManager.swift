import Foundation

/// Describes every version of a model in order, as stages, and migrates a store through the ones it
/// has not reached yet. Put it in a store's options under `NSPersistentStoreStagedMigrationManagerOptionKey`.
///
/// Apple raises an exception for stages with duplicate checksums when the manager is made; Swift
/// cannot catch that, so the manager records the problem and loading the store throws it.
open class NSStagedMigrationManager: NSObject, @unchecked Sendable {
    /// The stages, in order.
    public let stages: [NSMigrationStage]
    /// While a custom stage's handler runs: a container on the store at the stage's source model
    /// (`willMigrateHandler`) or destination model (`didMigrateHandler`). Nil otherwise.
    open internal(set) var container: NSPersistentContainer? {
        get { lock.withLock { _container } }
        set { lock.withLock { _container = newValue } }
    }
    /// Progress of the last migration: one unit per stage step, plus rows copied by table rebuilds
    /// (an Orchard addition; Core Data reports none).
    public let progress = Progress(totalUnitCount: 0)

    let lock = NSLock()
    private var _container: NSPersistentContainer?
    /// The problem with the stages, found when the manager was made.
    let stageProblem: NSError?

    /// Creates a manager for stages in order.
    public init(_ stages: [NSMigrationStage]) {
        self.stages = stages
        var seen = Set<String>()
        var duplicate: String?
        for stage in stages {
            let checksums: [String]
            if let light = stage as? NSLightweightMigrationStage { checksums = light.versionChecksums }
            else if let custom = stage as? NSCustomMigrationStage { checksums = [custom.currentModel.versionChecksum, custom.nextModel.versionChecksum] }
            else { checksums = [] }
            // A custom stage's source may repeat the model that ends the previous stage.
            for (i, checksum) in checksums.enumerated() {
                if i == 0, stage is NSCustomMigrationStage, checksum == Self.lastChecksum(before: stage, in: stages) { continue }
                if !seen.insert(checksum).inserted, duplicate == nil { duplicate = checksum }
            }
        }
        stageProblem = duplicate.map {
            coreDataError(NSMigrationError, "Duplicate version checksums across stages detected. (\($0))")
        }
        super.init()
    }

    private static func lastChecksum(before stage: NSMigrationStage, in stages: [NSMigrationStage]) -> String? {
        guard let index = stages.firstIndex(where: { $0 === stage }), index > 0 else { return nil }
        let previous = stages[index - 1]
        if let light = previous as? NSLightweightMigrationStage { return light.versionChecksums.last }
        return (previous as? NSCustomMigrationStage)?.nextModel.versionChecksum
    }
}
