import Crypto
import Foundation
import Testing

@testable import OpenCoreData

/// Derived attributes (Xcode's "Derived", `NSDerivedAttributeDescription`): loaded from a model, hashed from their
/// expression's `predicateFormat`, and computed when saved, including from the other side of a relationship.
@Suite struct DerivedAttributeTests {
    static let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="21754" \
        systemVersion="22F82" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Book" representedClassName="Book" syncable="YES" codeGenerationType="class">
                <attribute name="title" optional="YES" attributeType="String"/>
                <attribute name="pageCount" optional="YES" attributeType="Integer 64" derived="YES" \
        derivation="pages.@count" usesScalarValueType="YES"/>
                <attribute name="searchTitle" optional="YES" attributeType="String" derived="YES" \
        derivation="lowercase:(title)"/>
                <attribute name="totalWords" optional="YES" attributeType="Integer 64" derived="YES" \
        derivation="sum:(pages.words)" usesScalarValueType="YES"/>
                <relationship name="pages" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Page" \
        inverseName="book" inverseEntity="Page"/>
            </entity>
            <entity name="Page" representedClassName="Page" syncable="YES" codeGenerationType="class">
                <attribute name="words" optional="YES" attributeType="Integer 64" defaultValueString="0" \
        usesScalarValueType="YES"/>
                <relationship name="book" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Book" \
        inverseName="pages" inverseEntity="Book"/>
            </entity>
        </model>
        """

    static func model() throws -> NSManagedObjectModel {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "orchard-derived-\(UUID().uuidString)")
        let url = folder.appendingPathComponent("Books.xcdatamodel")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try contents.write(to: url.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        return try NSManagedObjectModel.load(contentsOf: url)
    }

    @Test func loadedAndHashedFromTheirExpression() throws {
        let book = try #require(try Self.model().entitiesByName["Book"])
        let count = try #require(book.attributesByName["pageCount"] as? NSDerivedAttributeDescription)
        // A key path ending in @count is stored as the function it means, and hashed as Apple prints it.
        #expect(count.derivationExpression?.description == "count:(pages)")
        #expect(count.versionHash == Data(SHA256.hash(data: Data("count:(pages)".utf8))))
        let search = try #require(book.attributesByName["searchTitle"] as? NSDerivedAttributeDescription)
        #expect(search.versionHash == Data(SHA256.hash(data: Data("lowercase:(title)".utf8))))
        let total = try #require(book.attributesByName["totalWords"] as? NSDerivedAttributeDescription)
        #expect(total.derivationExpression?.description == "sum:(pages.words)")
        // Built in code, the same.
        let made = NSDerivedAttributeDescription()
        made.name = "n"
        made.attributeType = .integer64AttributeType
        made.derivationExpression = OpenCoreData.NSExpression(forKeyPath: "pages.@count")
        #expect(made.versionHash == count.versionHash)
    }

    @Test func computedWhenSavedFromEitherSide() throws {
        let container = try Fixtures.container(model: try Self.model())
        let context = container.viewContext
        let book = NSManagedObject(
            entity: context.persistentStoreCoordinator!.managedObjectModel.entitiesByName["Book"]!,
            insertInto: context)
        book.setValue("The Long Way", forKey: "title")
        let pageEntity = context.persistentStoreCoordinator!.managedObjectModel.entitiesByName["Page"]!
        for words in [100, 250] {
            let page = NSManagedObject(entity: pageEntity, insertInto: context)
            page.setValue(words, forKey: "words")
            page.setValue(book, forKey: "book")
        }
        try context.save()
        #expect(book.value(forKey: "pageCount") as? Int64 == 2)
        #expect(book.value(forKey: "searchTitle") as? String == "the long way")
        #expect(book.value(forKey: "totalWords") as? Int64 == 350)

        // A page added and one's words changed from another context: only pages are saved there.
        let other = container.newBackgroundContext()
        try other.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Page")
            let pages = try other.fetch(request)
            pages[0].setValue(1000, forKey: "words")
            let page = NSManagedObject(entity: pageEntity, insertInto: other)
            page.setValue(1, forKey: "words")
            page.setValue(pages[0].value(forKey: "book"), forKey: "book")
            try other.save()
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let stored = try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book")).first)
            #expect(stored.value(forKey: "pageCount") as? Int64 == 3)
            // pages[0] was either page: 1000 + 250 + 1 or 100 + 1000 + 1.
            #expect([1251, 1101].contains(stored.value(forKey: "totalWords") as? Int64 ?? 0))
            // Deleting a page recounts.
            let pages = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Page"))
            reader.delete(pages[0])
            try reader.save()
            #expect(stored.value(forKey: "pageCount") as? Int64 == 2)
            // The derived value is in the store, where fetches can filter on it.
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.predicate = NSPredicate(format: "pageCount == 2 AND searchTitle BEGINSWITH 'the'")
            #expect(try reader.count(for: request) == 1)
        }
    }

    @Test func aDerivationThatFailsStopsTheSaveByName() throws {
        let book = NSEntityDescription(name: "Book")
        let title = NSAttributeDescription(name: "title", type: .stringAttributeType)
        let broken = NSDerivedAttributeDescription()
        broken.name = "broken"
        broken.attributeType = .doubleAttributeType
        broken.derivationExpression = OpenCoreData.NSExpression(format: "sqrt(title)")
        book.properties = [title, broken]
        let container = try Fixtures.container(model: Fixtures.model([book]))
        let context = container.viewContext
        let object = NSManagedObject(entity: book, insertInto: context)
        object.setValue("x", forKey: "title")
        let error = #expect(throws: NSError.self) { try context.save() }
        #expect(error?.localizedDescription.contains("Book.broken (sqrt:(title))") == true)
        // Nothing was written.
        let reader = container.newBackgroundContext()
        #expect(
            try reader.performAndWait { try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "Book")) }
                == 0)
    }

    @Test func aDerivationThatIsNotAnExpressionIsAModelError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "orchard-derived-\(UUID().uuidString)")
        let url = folder.appendingPathComponent("Bad.xcdatamodel")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let bad = Self.contents.replacingOccurrences(
            of: "derivation=\"pages.@count\"", with: "derivation=\"pages.@count +\"")
        try bad.write(to: url.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let error = #expect(throws: NSError.self) { try NSManagedObjectModel.load(contentsOf: url) }
        #expect(error?.localizedDescription.contains("Book.pageCount") == true)
    }
}
