import Foundation
import GRDB
import OpenCoreData
import Testing

/// Stores whose model version is found as Core Data finds it: by hashes among the model versions
/// available, and by schema when the hashes are ones Orchard doesn't reproduce (an Apple-written store).
/// Entity names are unique to this suite: the search also looks at the models of every live coordinator.
@Suite("Finding a store's model version")
struct SourceModelSearchTests {
    private static func contents(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22130" systemVersion="23A5257q" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="ShelfAuthor" representedClassName="ShelfAuthor" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="ShelfBook" inverseName="author" inverseEntity="ShelfBook"/>
            </entity>
            <entity name="ShelfBook" representedClassName="ShelfBook" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
                <attribute name="pages" optional="YES" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                \(body)
                <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="ShelfAuthor" inverseName="books" inverseEntity="ShelfAuthor"/>
            </entity>
        </model>
        """
    }

    /// `Shelf.xcdatamodeld` in a fresh folder: V1, V2 (adds `isbn`), V3 (adds `isbn` and `subtitle`), `current` current.
    private static func makeModelBundle(current: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("orchard-shelf-\(UUID().uuidString)")
        let bundle = folder.appendingPathComponent("Shelf.xcdatamodeld")
        let versions = [
            "Shelf.xcdatamodel": contents(""),
            "Shelf 2.xcdatamodel": contents(#"<attribute name="isbn" optional="YES" attributeType="String"/>"#),
            "Shelf 3.xcdatamodel": contents(
                #"<attribute name="isbn" optional="YES" attributeType="String"/><attribute name="subtitle" optional="YES" attributeType="String"/>"#
            ),
        ]
        for (name, text) in versions {
            let version = bundle.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: version.appendingPathComponent("contents"))
        }
        let plist = try PropertyListSerialization.data(
            fromPropertyList: ["_XCCurrentVersionName": current], format: .xml, options: 0)
        try plist.write(to: bundle.appendingPathComponent(".xccurrentversion"))
        return bundle
    }

    private static func coordinator(
        _ model: NSManagedObjectModel, _ url: URL, migrate: Bool = true
    ) throws
        -> (NSPersistentStoreCoordinator, NSPersistentStore)
    {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let options: [AnyHashable: Any] = [
            NSMigratePersistentStoresAutomaticallyOption: migrate, NSInferMappingModelAutomaticallyOption: migrate,
        ]
        let store = try coordinator.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: options)
        return (coordinator, store)
    }

    /// Writes a store with `model`: one author with two books.
    private static func writeStore(_ model: NSManagedObjectModel, at url: URL) throws {
        let (coordinator, store) = try coordinator(model, url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let author = NSEntityDescription.insertNewObject(forEntityName: "ShelfAuthor", into: context)
            author.setValue("Le Guin", forKey: "name")
            for (title, pages) in [("The Dispossessed", 387), ("Lavinia", 279)] {
                let book = NSEntityDescription.insertNewObject(forEntityName: "ShelfBook", into: context)
                book.setValue(title, forKey: "title")
                book.setValue(Int32(pages), forKey: "pages")
                book.setValue(author, forKey: "author")
            }
            try context.save()
        }
        try coordinator.remove(store)
    }

    /// Makes an Orchard store look like one Apple's Core Data wrote with hashes Orchard doesn't reproduce:
    /// every entity hash replaced, the checksum and digest recomputed from them as Apple's would be, and
    /// Orchard's model cache replaced by one in Apple's shape (`Z_CONTENT` only, an archive Orchard can't read).
    private static func makeForeignHashes(at url: URL) throws -> [String: Data] {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.write { db in
            let data = try #require(try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA"))
            var metadata = try #require(
                try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
            var hashes = try #require(metadata[NSStoreModelVersionHashesKey] as? [String: Data])
            for name in hashes.keys { hashes[name] = Data((0..<32).map { _ in UInt8.random(in: 0...255) }) }
            metadata[NSStoreModelVersionHashesKey] = hashes
            metadata.removeValue(forKey: NSStoreModelVersionChecksumKey)
            metadata.removeValue(forKey: "NSStoreModelVersionHashesDigest")
            let plist = try PropertyListSerialization.data(fromPropertyList: metadata, format: .binary, options: 0)
            try db.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ?", arguments: [plist])
            try db.execute(sql: "DROP TABLE Z_MODELCACHE")
            try db.execute(sql: "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
            try db.execute(
                sql: "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", arguments: [Data([0x78, 0x9c, 1, 2, 3])])
            return hashes
        }
    }

    private static func titles(_ coordinator: NSPersistentStoreCoordinator) throws -> [String] {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "ShelfBook")
            request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
            return try context.fetch(request).compactMap { $0.value(forKey: "title") as? String }
        }
    }

    private static func storeMetadata(_ url: URL) throws -> [String: Any] {
        try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
    }

    @Test func aStoreWithHashesWeDontReproduceOpensByItsSchemaAndKeepsThem() throws {
        let bundle = try Self.makeModelBundle(current: "Shelf 2.xcdatamodel")
        let model = try NSManagedObjectModel.load(contentsOf: bundle)
        let url = Fixtures.temporaryStoreURL()
        try Self.writeStore(model, at: url)
        let foreign = try Self.makeForeignHashes(at: url)

        // Without migration (as a read-only or cautious app opens it) and with it: the schema is the model's.
        for migrate in [false, true] {
            let (coordinator, store) = try Self.coordinator(model, url, migrate: migrate)
            let titles = try Self.titles(coordinator)
            #expect(titles.contains("Lavinia") && titles.contains("The Dispossessed"))
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            try context.performAndWait {
                let book = NSEntityDescription.insertNewObject(forEntityName: "ShelfBook", into: context)
                book.setValue("Always Coming Home \(migrate)", forKey: "title")
                try context.save()
            }
            try coordinator.remove(store)
        }
        // The store's hashes are still the ones it was written with, and Apple's model cache is as it was.
        let metadata = try Self.storeMetadata(url)
        #expect(metadata[NSStoreModelVersionHashesKey] as? [String: Data] == foreign)
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        try queue.read { (db: Database) throws -> Void in
            #expect(try db.columns(in: "Z_MODELCACHE").map(\.name) == ["Z_CONTENT"])
            #expect(try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE") == Data([0x78, 0x9c, 1, 2, 3]))
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZSHELFBOOK") == 4)
        }
    }

    @Test func migrationFindsItsSourceAmongTheXcodeModelVersionsByHashes() throws {
        let bundle = try Self.makeModelBundle(current: "Shelf 3.xcdatamodel")
        let v1 = try NSManagedObjectModel.load(contentsOf: bundle.appendingPathComponent("Shelf.xcdatamodel"))
        let url = Fixtures.temporaryStoreURL()
        try Self.writeStore(v1, at: url)
        // As in a store Apple's Core Data wrote, the model cache is one Orchard can't read: the source
        // model must come from the .xcdatamodeld's versions.
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: "DROP TABLE Z_MODELCACHE")
            try db.execute(sql: "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
        }
        try queue.close()

        let current = try NSManagedObjectModel.load(contentsOf: bundle)
        let (coordinator, _) = try Self.coordinator(current, url)
        #expect(try Self.titles(coordinator) == ["Lavinia", "The Dispossessed"])
        let metadata = try Self.storeMetadata(url)
        #expect(metadata[NSStoreModelVersionHashesKey] as? [String: Data] == current.entityVersionHashesByName)
        #expect(current.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        // Apple's model cache described the model before the migration: it is emptied, not left stale.
        let after = try DatabaseQueue(path: url.path)
        defer { try? after.close() }
        try after.read { (db: Database) throws -> Void in
            #expect(try db.columns(in: "Z_MODELCACHE").map(\.name) == ["Z_CONTENT"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM Z_MODELCACHE") == 0)
        }
    }

    @Test func migrationFindsItsSourceByTheStoresSchemaWhenNoHashesMatch() throws {
        let bundle = try Self.makeModelBundle(current: "Shelf 3.xcdatamodel")
        let v2 = try NSManagedObjectModel.load(contentsOf: bundle.appendingPathComponent("Shelf 2.xcdatamodel"))
        let url = Fixtures.temporaryStoreURL()
        try Self.writeStore(v2, at: url)
        _ = try Self.makeForeignHashes(at: url)

        // Version 1 doesn't have ZISBN, version 3 has ZSUBTITLE too: only version 2's schema is the store's.
        let current = try NSManagedObjectModel.load(contentsOf: bundle)
        let (coordinator, store) = try Self.coordinator(current, url)
        #expect(try Self.titles(coordinator) == ["Lavinia", "The Dispossessed"])
        try coordinator.remove(store)
        let metadata = try Self.storeMetadata(url)
        #expect(current.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        try queue.read { (db: Database) throws -> Void in
            #expect(try db.columns(in: "ZSHELFBOOK").map(\.name).contains("ZSUBTITLE"))
        }
    }

    @Test func aStoreNoVersionMatchesIsAClearErrorAndIsLeftAsItWas() throws {
        let bundle = try Self.makeModelBundle(current: "Shelf 3.xcdatamodel")
        let v1 = try NSManagedObjectModel.load(contentsOf: bundle.appendingPathComponent("Shelf.xcdatamodel"))
        let url = Fixtures.temporaryStoreURL()
        try Self.writeStore(v1, at: url)
        _ = try Self.makeForeignHashes(at: url)
        // A column no version has: the store was written with a model the app doesn't ship.
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in try db.execute(sql: "ALTER TABLE ZSHELFBOOK ADD COLUMN ZSHELFMARK VARCHAR") }
        try queue.close()
        let before = try Data(contentsOf: url)

        let current = try NSManagedObjectModel.load(contentsOf: bundle)
        for migrate in [true, false] {
            let error = #expect(throws: NSError.self) { _ = try Self.coordinator(current, url, migrate: migrate) }
            let message = error?.localizedDescription ?? ""
            #expect(
                error?.code
                    == (migrate ? NSMigrationMissingSourceModelError : NSPersistentStoreIncompatibleVersionHashError))
            #expect(message.contains("ZSHELFBOOK has ZSHELFMARK"), "\(message)")
            #expect(message.contains("Shelf 2.xcdatamodel"), "\(message)")
            #expect(message.contains(url.path), "\(message)")
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func historyTablesLeftByApplesCoreDataAreKept() throws {
        let bundle = try Self.makeModelBundle(current: "Shelf 3.xcdatamodel")
        let v1 = try NSManagedObjectModel.load(contentsOf: bundle.appendingPathComponent("Shelf.xcdatamodel"))
        let url = Fixtures.temporaryStoreURL()
        try Self.writeStore(v1, at: url)
        // The tables persistent-history tracking adds (their columns as in Apple-written stores).
        var queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE ATRANSACTION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER,
                        ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER,
                        ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR,
                        ZQUERYGEN BLOB);
                    CREATE TABLE ACHANGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER,
                        ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB);
                    CREATE TABLE ATRANSACTIONSTRING (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
                    INSERT INTO ATRANSACTION (Z_PK, ZTIMESTAMP, ZAUTHOR) VALUES (1, 700000000.0, 'app');
                    INSERT INTO ACHANGE (Z_PK, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID) VALUES (1, 0, 2, 1, 1);
                    INSERT INTO ATRANSACTIONSTRING (Z_PK, ZNAME) VALUES (1, 'NSCoreDataCoreSpotlightExporter');
                    """)
        }
        try queue.close()
        // Open as it is, then migrate to version 3 (columns added in place).
        for model in [v1, try NSManagedObjectModel.load(contentsOf: bundle)] {
            let (coordinator, store) = try Self.coordinator(model, url)
            #expect(try Self.titles(coordinator).count == 2)
            try coordinator.remove(store)
        }
        queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        try queue.read { (db: Database) throws -> Void in
            #expect(try String.fetchOne(db, sql: "SELECT ZAUTHOR FROM ATRANSACTION") == "app")
            #expect(try Int.fetchOne(db, sql: "SELECT ZENTITYPK FROM ACHANGE") == 1)
            #expect(
                try String.fetchOne(db, sql: "SELECT ZNAME FROM ATRANSACTIONSTRING")
                    == "NSCoreDataCoreSpotlightExporter")
        }
    }

    @Test func mergedModelFromBundlesPicksTheVersionAStoreWasWrittenWith() throws {
        let bundle = try Self.makeModelBundle(current: "Shelf 3.xcdatamodel")
        let folder = try #require(Bundle(url: bundle.deletingLastPathComponent()))
        let v2 = try NSManagedObjectModel.load(contentsOf: bundle.appendingPathComponent("Shelf 2.xcdatamodel"))
        let url = Fixtures.temporaryStoreURL()
        try Self.writeStore(v2, at: url)
        let metadata = try Self.storeMetadata(url)

        let found = try #require(NSManagedObjectModel.mergedModel(from: [folder], forStoreMetadata: metadata))
        #expect(found.versionChecksum == v2.versionChecksum)
        #expect(found.entitiesByName["ShelfBook"]?.attributesByName["isbn"] != nil)
        #expect(found.entitiesByName["ShelfBook"]?.attributesByName["subtitle"] == nil)
        // The bundle's current version, for a newly made store.
        let current = try #require(NSManagedObjectModel.mergedModel(from: [folder]))
        #expect(current.entitiesByName["ShelfBook"]?.attributesByName["subtitle"] != nil)
        // Hashes of no version in the bundle.
        var other = metadata
        other[NSStoreModelVersionHashesKey] = ["ShelfBook": Data(count: 32), "ShelfAuthor": Data(count: 32)]
        #expect(NSManagedObjectModel.mergedModel(from: [folder], forStoreMetadata: other) == nil)
        #expect(
            NSManagedObjectModel(byMerging: [v2], forStoreMetadata: metadata)?.versionChecksum == v2.versionChecksum)
        #expect(NSManagedObjectModel(byMerging: [v2], forStoreMetadata: other) == nil)
    }

    @Test func mergingModelsCombinesTheirEntitiesAndRefusesTwoOfOneName() throws {
        let a = NSEntityDescription(name: "MergeA")
        a.properties = [NSAttributeDescription(name: "x", type: .integer64AttributeType)]
        let b = NSEntityDescription(name: "MergeB")
        b.properties = [NSAttributeDescription(name: "y", type: .stringAttributeType)]
        let first = Fixtures.model([a])
        first.setEntities([a], forConfigurationName: "Local")
        let second = Fixtures.model([b])
        let merged = try #require(NSManagedObjectModel(byMerging: [first, second]))
        #expect(merged.entities.compactMap(\.name).sorted() == ["MergeA", "MergeB"])
        #expect(merged.entities(forConfigurationName: "Local")?.compactMap(\.name) == ["MergeA"])
        // The merged model holds copies; the models given keep their own entities.
        #expect(a.managedObjectModel === first)
        #expect(merged.entityVersionHashesByName["MergeA"] == a.versionHash)
        #expect(NSManagedObjectModel(byMerging: [first, first]) == nil)
        #expect(NSManagedObjectModel(byMerging: nil) == nil)
    }

    @Test func metadataAPropertyListCantHoldFailsTheSaveNamingTheKey() throws {
        let container = try Fixtures.container()
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first)
        var metadata: [String: Any] = store.metadata
        metadata["lastSync"] = URL(fileURLWithPath: "/tmp/x")
        container.persistentStoreCoordinator.setMetadata(metadata, for: store)
        let context = container.viewContext
        let pilot = NSEntityDescription.insertNewObject(forEntityName: "Pilot", into: context)
        pilot.setValue("Amelia", forKey: "name")
        let error = #expect(throws: NSError.self) { try context.save() }
        #expect(error?.localizedDescription.contains("'lastSync'") == true, "\(String(describing: error))")
        // Nothing was written: the row is still only in the context, and it saves once the value is fixed.
        #expect(context.hasChanges)
        metadata["lastSync"] = "/tmp/x"
        container.persistentStoreCoordinator.setMetadata(metadata, for: store)
        try context.save()
        let url = try #require(store.url)
        #expect(try Self.storeMetadata(url)["lastSync"] as? String == "/tmp/x")
    }
}
