// coredata-tool: Core Data model and store chores without Xcode.
//   coredata-tool checksum <model>              versionChecksum and entity version hashes
//   coredata-tool metadata <store>              a store's metadata, version and pending deferred work
//   coredata-tool check <from-model> <to-model> whether lightweight migration can infer the change
//   coredata-tool finish-deferred <store>       finish pending deferred lightweight migration work
// A model is a .xcdatamodeld folder (its current version), a .xcdatamodel folder or its contents file.
import ArgumentParser
import Foundation
import OpenCoreData

@main
struct CoreDataTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coredata-tool",
        abstract: "Core Data model and store chores without Xcode.",
        subcommands: [Checksum.self, Metadata.self, Check.self, FinishDeferred.self]
    )
}

func loadModel(_ path: String) throws -> NSManagedObjectModel {
    try NSManagedObjectModel.load(contentsOf: URL(fileURLWithPath: path))
}

struct Checksum: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print a model's versionChecksum and its entities' version hashes (what Xcode's build log shows).")

    @Argument(help: "The model (.xcdatamodeld, .xcdatamodel or contents).")
    var model: String

    func run() throws {
        let model = try loadModel(model)
        print("version checksum: \(model.versionChecksum)")
        for (name, hash) in model.entityVersionHashesByName.sorted(by: { $0.key < $1.key }) {
            print("  \(name): \(hash.base64EncodedString())")
        }
    }
}

struct Metadata: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show a store's metadata, its model version and pending deferred work.")

    @Argument(help: "The SQLite store file.")
    var store: String

    @Option(name: .customLong("model"), help: "Models to compare the store with (repeatable).")
    var models: [String] = []

    func run() throws {
        let url = URL(fileURLWithPath: store)
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        for key in metadata.keys.sorted() {
            let value = metadata[key]!
            if let hashes = value as? [String: Data] {
                print("\(key):")
                for (name, hash) in hashes.sorted(by: { $0.key < $1.key }) { print("  \(name): \(hash.base64EncodedString())") }
            } else if let list = value as? [Any] {
                print("\(key):")
                for item in list { print("  \(item)") }
            } else {
                print("\(key): \(value)")
            }
        }
        let checksum = metadata[NSStoreModelVersionChecksumKey] as? String
        print("store version: \(checksum ?? "unknown")")
        print("deferred work pending: \(metadata[NSPersistentStoreDeferredLightweightMigrationOptionKey] as? Bool ?? false)")
        for path in models {
            let model = try loadModel(path)
            print("\(path): \(model.versionChecksum == checksum ? "matches the store" : "differs (\(model.versionChecksum))")")
        }
    }
}

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Check whether lightweight migration can infer the change from one model to another (exit status 1 if not).")

    @Argument(help: "The source model.")
    var from: String
    @Argument(help: "The destination model.")
    var to: String

    func run() throws {
        let source = try loadModel(from)
        let destination = try loadModel(to)
        do {
            let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: destination)
            print("lightweight: yes (\(source.versionChecksum) -> \(destination.versionChecksum))")
            for change in mapping.changeDescriptions { print("  \(change)") }
        } catch let error as NSError {
            print("lightweight: no")
            for fault in error.userInfo["faults"] as? [String] ?? [error.localizedDescription] { print("  \(fault)") }
            throw ExitCode(1)
        }
    }
}

struct FinishDeferred: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "finish-deferred", abstract: "Finish a store's pending deferred lightweight migration work.")

    @Argument(help: "The SQLite store file.")
    var store: String
    @Option(help: "The store's model (default: the model the store recorded).")
    var model: String?
    @Flag(help: "Do one task only.")
    var one = false

    func run() throws {
        let url = URL(fileURLWithPath: store)
        let model = try self.model.map(loadModel) ?? NSPersistentStoreCoordinator.cachedModel(forPersistentStoreAt: url)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        let before = coordinator.metadata(for: store)[OrchardDeferredLightweightMigrationTasksKey] as? [String] ?? []
        if one { try coordinator.finishDeferredLightweightMigrationTask() } else { try coordinator.finishDeferredLightweightMigration() }
        let after = coordinator.metadata(for: store)[OrchardDeferredLightweightMigrationTasksKey] as? [String] ?? []
        print("finished \(before.count - after.count) deferred task(s); \(after.count) pending")
        try coordinator.remove(store)
    }
}
