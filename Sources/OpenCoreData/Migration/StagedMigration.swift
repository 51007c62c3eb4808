import Foundation
import GRDB

/// Metadata key (an Orchard addition) set while a custom stage's did-migrate handler has not finished:
/// the checksum of the stage's destination model. The next load runs the handler before anything else.
let OrchardPendingDidMigrateKey = "OrchardStagedMigrationPendingDidMigrate"

/// Runs a staged migration manager's remaining stages on a store file.
struct StagedMigration {
    let manager: NSStagedMigrationManager
    let writer: any DatabaseWriter
    let url: URL
    let finalModel: NSManagedObjectModel
    let deferCleanup: Bool
    let reporter: MigrationProgressReporter

    /// The ordered version checksums, and for each custom stage the index of its source version.
    func versions() throws -> (checksums: [String], custom: [Int: NSCustomMigrationStage], models: [String: NSManagedObjectModel]) {
        if let problem = manager.stageProblem { throw problem }
        var checksums: [String] = []
        var custom: [Int: NSCustomMigrationStage] = [:]
        var models: [String: NSManagedObjectModel] = [:]
        for stage in manager.stages {
            if let light = stage as? NSLightweightMigrationStage {
                for c in light.versionChecksums where checksums.last != c { checksums.append(c) }
            } else if let stage = stage as? NSCustomMigrationStage {
                let from = try stage.currentModel.resolve()
                let to = try stage.nextModel.resolve()
                models[stage.currentModel.versionChecksum] = from
                models[stage.nextModel.versionChecksum] = to
                if checksums.last != stage.currentModel.versionChecksum { checksums.append(stage.currentModel.versionChecksum) }
                custom[checksums.count - 1] = stage
                checksums.append(stage.nextModel.versionChecksum)
            }
        }
        let final = finalModel.versionChecksum
        models[final] = finalModel
        if !checksums.contains(final) { checksums.append(final) }
        return (checksums, custom, models)
    }

    func run() throws {
        var metadata = try writer.read(StoreMetadataFile.read) ?? [:]
        guard let current = StoreMetadataFile.checksum(metadata) else {
            throw coreDataError(
                NSPersistentStoreIncompatibleVersionHashError,
                "The store at \(url.path) has no model version in its metadata, so staged migration can't tell which "
                    + "stage it is at.", [NSFilePathErrorKey: url.path])
        }
        var (checksums, custom, models) = try versions()
        if let cached = try writer.read(StoreModelCache.read) { models[cached.versionChecksum] = models[cached.versionChecksum] ?? cached }
        guard let start = checksums.firstIndex(of: current) else {
            throw coreDataError(NSPersistentStoreIncompatibleVersionHashError,
                                "The store's model version (checksum \(current)) is not one of the staged migration manager's versions (\(checksums.joined(separator: ", "))).")
        }
        let target = checksums.firstIndex(of: finalModel.versionChecksum)!
        if start > target {
            throw coreDataError(NSStagedMigrationBackwardMigrationError, "A store file cannot be migrated backwards with staged migration. (The store is at \(current); the model is at \(finalModel.versionChecksum).)")
        }
        // A did-migrate handler interrupted in an earlier run goes first.
        if let pending = metadata[OrchardPendingDidMigrateKey] as? String, pending == current,
           let stage = custom.values.first(where: { $0.nextModel.versionChecksum == pending }) {
            try runHandler(stage.didMigrateHandler, stage, model: models[pending]!)
            metadata = try clearPending()
        }
        guard start < target else { return }
        // Steps: custom stages one by one, consecutive lightweight versions as one jump.
        var steps: [(from: Int, to: Int, stage: NSCustomMigrationStage?)] = []
        var i = start
        while i < target {
            if let stage = custom[i] { steps.append((i, i + 1, stage)); i += 1; continue }
            var j = i + 1
            while j < target, custom[j] == nil { j += 1 }
            steps.append((i, j, nil))
            i = j
        }
        reporter.begin(steps: steps.count)
        if !DeferredMigration.tasks(in: metadata).isEmpty { _ = try DeferredMigration.finishAll(in: writer) }
        for (n, step) in steps.enumerated() {
            let isLast = n == steps.count - 1
            reporter.step(step.stage?.label ?? lightweightLabel(checksums[step.from]))
            let chain = try (step.from...step.to).compactMap { index -> NSManagedObjectModel? in
                let checksum = checksums[index]
                if let model = models[checksum] ?? locate(checksum) { models[checksum] = model; return model }
                if index == step.from || index == step.to {
                    throw coreDataError(NSMigrationMissingMappingModelError, "Missing mapping model: no model with version checksum \(checksum) was found for staged migration (give it to a custom stage's model reference, or put its model files in the main bundle).")
                }
                return nil
            }
            if n > 0, try !DeferredMigration.tasks(in: writer.read { try StoreMetadataFile.read($0) ?? [:] }).isEmpty {
                _ = try DeferredMigration.finishAll(in: writer)
            }
            if let stage = step.stage {
                try runHandler(stage.willMigrateHandler, stage, model: chain.first!)
                try LightweightMigration.migrate(writer, chain: chain, deferCleanup: deferCleanup && isLast,
                                                 code: NSMigrationMissingMappingModelError, reporter: reporter) { metadata in
                    var m = metadata
                    if stage.didMigrateHandler != nil { m[OrchardPendingDidMigrateKey] = stage.nextModel.versionChecksum }
                    return m
                }
                if stage.didMigrateHandler != nil {
                    try runHandler(stage.didMigrateHandler, stage, model: chain.last!)
                    _ = try clearPending()
                }
            } else {
                try LightweightMigration.migrate(writer, chain: chain, deferCleanup: deferCleanup && isLast,
                                                 code: NSMigrationMissingMappingModelError, reporter: reporter)
            }
            reporter.finishedStep()
        }
    }

    private func lightweightLabel(_ checksum: String) -> String? {
        manager.stages.compactMap { $0 as? NSLightweightMigrationStage }.first { $0.versionChecksums.contains(checksum) }?.label
    }

    /// A model of the main bundle with this checksum, if any.
    private func locate(_ checksum: String) -> NSManagedObjectModel? {
        ModelLocator.models(in: .main).first { $0.model.versionChecksum == checksum }?.model
    }

    private func clearPending() throws -> [String: Any] {
        try writer.write { db in
            var metadata = try StoreMetadataFile.read(db) ?? [:]
            metadata[OrchardPendingDidMigrateKey] = nil
            try StoreMetadataFile.write(metadata, db)
            return metadata
        }
    }

    /// Runs a handler with `manager.container` open on the store at `model`.
    private func runHandler(_ handler: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)?,
                            _ stage: NSCustomMigrationStage, model: NSManagedObjectModel) throws {
        guard let handler else { return }
        let container = NSPersistentContainer(name: url.deletingPathExtension().lastPathComponent, managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: url)
        description.shouldMigrateStoreAutomatically = false
        description.shouldInferMappingModelAutomatically = false
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        manager.container = container
        defer {
            manager.container = nil
            // Detaching the handler's container only closes its connections (its work is committed): a
            // failure here loses nothing, and the migration goes on with its own connection.
            for store in container.persistentStoreCoordinator.persistentStores { try? container.persistentStoreCoordinator.remove(store) }
        }
        try handler(manager, stage)
    }
}
