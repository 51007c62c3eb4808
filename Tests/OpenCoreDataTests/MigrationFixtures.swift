import Foundation
import GRDB
import OpenCoreData

/// Small model builders and a store harness for the migration tests.
enum MF {
    static func attr(_ name: String, _ type: NSAttributeType = .stringAttributeType, optional: Bool = true,
                     default value: Any? = nil, rid: String? = nil, indexed: Bool = false) -> NSAttributeDescription {
        let a = NSAttributeDescription(name: name, type: type, optional: optional, defaultValue: value)
        a.renamingIdentifier = rid
        a.isIndexed = indexed
        return a
    }

    static func entity(_ name: String, _ properties: [NSPropertyDescription], rid: String? = nil, abstract: Bool = false) -> NSEntityDescription {
        let e = NSEntityDescription(name: name, properties: properties, abstract: abstract)
        e.renamingIdentifier = rid
        return e
    }

    static func model(_ entities: [NSEntityDescription]) -> NSManagedObjectModel {
        let m = NSManagedObjectModel()
        m.entities = entities
        return m
    }

    /// Makes `a` and `b` inverses and adds them to their entities.
    static func link(_ from: NSEntityDescription, _ a: NSRelationshipDescription, _ to: NSEntityDescription, _ b: NSRelationshipDescription) {
        a.destinationEntity = to
        b.destinationEntity = from
        a.inverseRelationship = b
        b.inverseRelationship = a
        from.properties += [a]
        to.properties += [b]
    }

    static var automatic: [AnyHashable: Any] { [NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true] }

    static func url() -> URL { Fixtures.temporaryStoreURL("migration") }

    /// A coordinator and a context on one store.
    final class Opened {
        let coordinator: NSPersistentStoreCoordinator
        let store: NSPersistentStore
        let context: NSManagedObjectContext

        init(_ model: NSManagedObjectModel, _ url: URL, options: [AnyHashable: Any]) throws {
            coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: options)
            context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
        }

        func fetch(_ entity: String, _ format: String? = nil, sortedBy key: String? = nil) throws -> [NSManagedObject] {
            try context.performAndWait {
                let request = NSFetchRequest<NSManagedObject>(entityName: entity)
                if let format { request.predicate = NSPredicate(format: format) }
                if let key { request.sortDescriptors = [NSSortDescriptor(key: key, ascending: true)] }
                return try context.fetch(request)
            }
        }

        func insert(_ entity: String, _ values: [String: Any]) -> NSManagedObject {
            context.performAndWait {
                let object = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
                for (k, v) in values { object.setValue(v, forKey: k) }
                return object
            }
        }

        func save() throws { try context.performAndWait { try context.save() } }

        func close() throws { for store in coordinator.persistentStores { try coordinator.remove(store) } }
    }

    /// Creates a store at `url` with `model` and fills it.
    static func create(_ model: NSManagedObjectModel, at url: URL, fill: (Opened) throws -> Void) throws {
        let opened = try Opened(model, url, options: [:])
        try fill(opened)
        try opened.save()
        try opened.close()
    }

    /// Opens the file read-only with SQLite, for checks on the raw layout.
    static func sql<T>(_ url: URL, _ body: (Database) throws -> T) throws -> T {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read(body)
    }

    static func columns(_ url: URL, _ table: String) throws -> [String] {
        try sql(url) { try String.fetchAll($0, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table]) }
    }

    /// Every table's rows and the schema, as text: equal dumps mean an unchanged store.
    static func dump(_ url: URL) throws -> String {
        try sql(url) { db in
            var text = try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name").joined(separator: "\n")
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1") { text += "\n\(table): \(row)" }
            }
            return text
        }
    }

    static func metadata(_ url: URL) throws -> [String: Any] {
        try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
    }
}
