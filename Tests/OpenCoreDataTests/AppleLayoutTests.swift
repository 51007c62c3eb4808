import Foundation
import GRDB
import OpenCoreData
import TestSupport
import Testing

/// An Xcode model (written the way Xcode saves one) with what tripped real models: inheritance, a
/// many-to-many declared on an abstract parent, a many-to-many whose two sides share a name, an ordered
/// many-to-many, a relationship that is its own inverse, an empty composite, constraints and modifiers.
enum LibraryModel {
    static let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22225" \
        systemVersion="23B81" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Album" representedClassName="Album" parentEntity="Item" syncable="YES">
                <attribute name="tracks" optional="YES" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
            </entity>
            <entity name="Book" representedClassName="Book" parentEntity="Item" syncable="YES">
                <attribute name="pages" optional="YES" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="shelfMark" optional="YES" attributeType="Composite" composite="ShelfMark"/>
                <relationship name="related" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" \
        inverseName="related" inverseEntity="Book"/>
            </entity>
            <entity name="Item" representedClassName="Item" isAbstract="YES" versionHashModifier="2" syncable="YES">
                <attribute name="code" optional="YES" attributeType="UUID" usesScalarValueType="NO" preserveAfterDeletion="YES"/>
                <attribute name="cover" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                <attribute name="title" attributeType="String" versionHashModifier="utf8"/>
                <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" \
        inverseName="items" inverseEntity="Tag"/>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="title"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            <entity name="List" representedClassName="List" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="members" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" \
        destinationEntity="Tag" inverseName="members" inverseEntity="Tag"/>
            </entity>
            <entity name="Tag" representedClassName="Tag" syncable="YES">
                <attribute name="name" attributeType="String"/>
                <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" \
        inverseName="tags" inverseEntity="Item"/>
                <relationship name="members" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="List" \
        inverseName="members" inverseEntity="List"/>
            </entity>
            <composite name="ShelfMark"/>
        </model>
        """

    /// Writes the model as `Library.xcdatamodel` in a new folder and returns its URL.
    static func write() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("orchard-model-\(UUID().uuidString)")
        let model = folder.appendingPathComponent("Library.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try contents.write(to: model.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        return model
    }
}

/// Runs scripts/check-coredata-store.py (sqlite3 and plistlib only) on a store, with the model's source.
func checkAppleLayout(store: URL, model: URL) async throws -> (status: Int32, output: String) {
    try await onOwnThread { try checkAppleLayoutBlocking(store: store, model: model) }
}

private func checkAppleLayoutBlocking(store: URL, model: URL) throws -> (status: Int32, output: String) {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/check-coredata-store.py")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path, store.path, model.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, output)
}

@Suite("Apple's store layout and hashes")
struct AppleLayoutTests {
    private func container(_ model: NSManagedObjectModel, at url: URL) throws -> NSPersistentContainer {
        try Fixtures.container(model: model, url: url)
    }

    @Test func realModelShapesMakeAStoreThatReadsBackAndFollowsApplesLayout() async throws {
        let modelURL = try LibraryModel.write()
        let model = try #require(NSManagedObjectModel(contentsOf: modelURL))
        let url = Fixtures.temporaryStoreURL()
        do {
            let context = try container(model, at: url).viewContext
            func make(_ entity: String, _ values: [String: Any]) -> NSManagedObject {
                let object = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
                for (key, value) in values { object.setValue(value, forKey: key) }
                return object
            }
            let swift = make("Tag", ["name": "swift"])
            let linux = make("Tag", ["name": "linux"])
            let book = make("Book", ["title": "Orchard", "pages": Int32(300), "shelfMark": [String: Any]()])
            let other = make("Book", ["title": "Roots", "pages": Int32(120)])
            let album = make("Album", ["title": "Blossom", "tracks": Int16(12)])
            let list = make("List", ["name": "Reading"])
            book.setValue(NSSet(array: [swift, linux]), forKey: "tags")
            album.setValue(NSSet(array: [linux]), forKey: "tags")
            book.setValue(NSSet(array: [other]), forKey: "related")
            list.setValue(NSOrderedSet(array: [linux, swift]), forKey: "members")
            try context.save()
        }
        let context = try container(model, at: url).viewContext
        let books = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book"))
        let book = try #require(books.first { $0.value(forKey: "title") as? String == "Orchard" })
        let tagNames = (book.value(forKey: "tags") as? NSSet)?.compactMap {
            ($0 as? NSManagedObject)?.value(forKey: "name") as? String
        }
        #expect(Set(tagNames ?? []) == ["swift", "linux"])
        let related = (book.value(forKey: "related") as? NSSet)?.compactMap {
            ($0 as? NSManagedObject)?.value(forKey: "title") as? String
        }
        #expect(related == ["Roots"])
        let lists = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "List"))
        let members = (lists.first?.value(forKey: "members") as? NSOrderedSet)?.array
            .compactMap { ($0 as? NSManagedObject)?.value(forKey: "name") as? String }
        #expect(members == ["linux", "swift"])
        let tags = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Tag"))
        let linux = try #require(tags.first { $0.value(forKey: "name") as? String == "linux" })
        #expect((linux.value(forKey: "items") as? NSSet)?.count == 2)
        #expect((linux.value(forKey: "members") as? NSSet)?.count == 1)

        let check = try await checkAppleLayout(store: url, model: modelURL)
        #expect(check.status == 0, "\(check.output)")
    }

    @Test func joinTablesAreNamedAsCoreDataNamesThem() throws {
        let model = try #require(NSManagedObjectModel(contentsOf: try LibraryModel.write()))
        let url = Fixtures.temporaryStoreURL()
        _ = try container(model, at: url)
        let queue = try SQLiteReader(url)
        // Entities are numbered 1... in name order: Album 1, Book 2, Item 3, List 4, Tag 5.
        #expect(try queue.columns("Z_3TAGS") == ["Z_3ITEMS", "Z_5TAGS"])
        #expect(try queue.columns("Z_4MEMBERS") == ["Z_4MEMBERS", "Z_5MEMBERS", "Z_FOK_5MEMBERS"])
        #expect(try queue.columns("Z_2RELATED") == ["REFLEXIVE", "Z_2RELATED"])
    }

    @Test func checksumAndDigestFollowTheEntityHashes() throws {
        let model = try #require(NSManagedObjectModel(contentsOf: try LibraryModel.write()))
        let url = Fixtures.temporaryStoreURL()
        _ = try container(model, at: url)
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        #expect(metadata[NSStoreModelVersionChecksumKey] as? String == model.versionChecksum)
        #expect(metadata["NSStoreModelVersionHashesVersion"] as? Int == 3)
        #expect((metadata["NSStoreModelVersionHashesDigest"] as? String)?.count == 88)
        #expect(model.versionChecksum.count == 44)
        // Not part of any hash: renaming identifiers, delete rules, defaults, class names.
        let changed = try #require(NSManagedObjectModel(contentsOf: try LibraryModel.write()))
        let title = try #require(changed.entitiesByName["Item"]?.propertiesByName["title"] as? NSAttributeDescription)
        title.renamingIdentifier = "name"
        title.defaultValue = "Untitled"
        changed.entitiesByName["Tag"]?.managedObjectClassName = "OtherTag"
        #expect(changed.versionChecksum == model.versionChecksum)
        // Part of them: optionality and the modifier.
        title.isOptional = true
        #expect(changed.versionChecksum != model.versionChecksum)
    }
}

/// A SQLite file's tables' columns, read with GRDB (not through OpenCoreData).
struct SQLiteReader {
    private let queue: DatabaseQueue

    init(_ url: URL) throws {
        var configuration = Configuration()
        configuration.readonly = true
        queue = try DatabaseQueue(path: url.path, configuration: configuration)
    }

    /// The table's column names, sorted.
    func columns(_ table: String) throws -> [String] {
        try queue.read { db in try db.columns(in: table).map(\.name).sorted() }
    }
}
