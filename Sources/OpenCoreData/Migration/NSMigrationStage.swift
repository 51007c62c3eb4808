import Foundation

/// A step of a staged migration.
open class NSMigrationStage: NSObject, @unchecked Sendable {
    /// A name for the stage, used in errors and progress reports.
    open var label: String?

    override init() { super.init() }
}

/// A run of model versions that lightweight migration can take the store through: the store goes
/// from whichever of them it is at to the model that follows the run, in one inferred jump.
open class NSLightweightMigrationStage: NSMigrationStage, @unchecked Sendable {
    /// The checksums of the model versions of the run, oldest first.
    public let versionChecksums: [String]

    /// Creates a stage for the models with these checksums, oldest first.
    public init(_ versionChecksums: [String]) {
        self.versionChecksums = versionChecksums
        super.init()
    }
}

/// A step between two model versions that runs the app's code before and after the schema change.
open class NSCustomMigrationStage: NSMigrationStage, @unchecked Sendable {
    /// The model the stage starts from.
    public let currentModel: NSManagedObjectModelReference
    /// The model the stage ends at.
    public let nextModel: NSManagedObjectModelReference
    /// Runs with `migrationManager.container` open on the store at `currentModel`, before the change.
    open var willMigrateHandler: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)?
    /// Runs with `migrationManager.container` open on the store at `nextModel`, after the change.
    open var didMigrateHandler: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)?

    /// Creates a stage from one model version to the next.
    public init(migratingFrom currentModel: NSManagedObjectModelReference, to nextModel: NSManagedObjectModelReference) {
        self.currentModel = currentModel
        self.nextModel = nextModel
        super.init()
    }
}
