import Foundation
import OpenCoreData
import Testing

final class Shelf: NSManagedObject {
    @Managed var name: String?
    @Managed var books: NSOrderedSet?
    @Managed var keeper: Keeper?
}

final class Book: NSManagedObject {
    @Managed var title: String?
    @Managed var shelf: Shelf?
}

final class Keeper: NSManagedObject {
    @Managed var name: String?
    @Managed var shelf: Shelf?
}

/// Shelf.books: ordered, 1...3 books, deny delete. Shelf.keeper: to-one with a to-one inverse, no action.
private func shelfModel() -> NSManagedObjectModel {
    let shelf = NSEntityDescription(name: "Shelf")
    shelf.managedObjectClassName = NSStringFromClass(Shelf.self)
    let book = NSEntityDescription(name: "Book")
    book.managedObjectClassName = NSStringFromClass(Book.self)
    let keeper = NSEntityDescription(name: "Keeper")
    keeper.managedObjectClassName = NSStringFromClass(Keeper.self)
    let books = NSRelationshipDescription(name: "books", destination: book, toMany: true, deleteRule: .denyDeleteRule, ordered: true)
    books.minCount = 1
    books.maxCount = 3
    let bookShelf = NSRelationshipDescription(name: "shelf", destination: shelf)
    books.inverseRelationship = bookShelf
    bookShelf.inverseRelationship = books
    let shelfKeeper = NSRelationshipDescription(name: "keeper", destination: keeper)
    let keeperShelf = NSRelationshipDescription(name: "shelf", destination: shelf)
    shelfKeeper.inverseRelationship = keeperShelf
    keeperShelf.inverseRelationship = shelfKeeper
    shelf.properties = [NSAttributeDescription(name: "name", type: .stringAttributeType), books, shelfKeeper]
    book.properties = [NSAttributeDescription(name: "title", type: .stringAttributeType), bookShelf]
    keeper.properties = [NSAttributeDescription(name: "name", type: .stringAttributeType), keeperShelf]
    let model = Fixtures.model([shelf, book, keeper])
    return model
}

@Suite("Relationship rules")
struct RelationshipRulesTests {
    private func titles(_ shelf: Shelf) -> [String] {
        (shelf.books?.array as? [Book] ?? []).compactMap(\.title)
    }

    @Test func orderedRelationshipKeepsItsOrderAcrossReopen() throws {
        let url = Fixtures.temporaryStoreURL()
        do {
            let context = try Fixtures.container(model: shelfModel(), url: url).viewContext
            let shelf = Shelf(context: context)
            shelf.name = "S"
            let ordered = shelf.mutableOrderedSetValue(forKey: "books")
            for title in ["c", "a", "b"] {
                let book = Book(context: context)
                book.title = title
                ordered.add(book)
            }
            #expect(titles(shelf) == ["c", "a", "b"])
            ordered.moveObjects(at: IndexSet(integer: 0), to: 2)
            #expect(titles(shelf) == ["a", "b", "c"])
            let extra = ordered.object(at: 1) as! Book
            ordered.removeObject(at: 1)
            #expect(extra.shelf == nil)             // inverse kept consistent
            ordered.insert(extra, at: 0)
            #expect(extra.shelf === shelf)
            #expect(titles(shelf) == ["b", "a", "c"])
            try context.save()
        }
        let context = try Fixtures.container(model: shelfModel(), url: url).viewContext
        let shelf = try #require(try context.fetch(NSFetchRequest<Shelf>(entityName: "Shelf")).first)
        #expect(titles(shelf) == ["b", "a", "c"])
        // A reorder alone is a change that saves.
        shelf.mutableOrderedSetValue(forKey: "books").moveObjects(at: IndexSet(integer: 2), to: 0)
        #expect(context.hasChanges)
        try context.save()
        let again = try Fixtures.container(model: shelfModel(), url: url).viewContext
        let reread = try #require(try again.fetch(NSFetchRequest<Shelf>(entityName: "Shelf")).first)
        #expect(titles(reread) == ["c", "b", "a"])
    }

    @Test func countsAreValidatedWithCoreDataCodes() throws {
        let context = try Fixtures.container(model: shelfModel(), inMemory: true).viewContext
        let shelf = Shelf(context: context)
        let set = shelf.mutableOrderedSetValue(forKey: "books")
        for title in ["1", "2", "3", "4"] {
            let book = Book(context: context)
            book.title = title
            set.add(book)
        }
        #expect {
            try context.save()
        } throws: { error in
            let error = error as NSError
            return error.code == NSValidationRelationshipExceedsMaximumCountError
                && error.localizedDescription.contains("Shelf.books")
                && error.userInfo[NSValidationKeyErrorKey] as? String == "books"
        }
        set.removeAllObjects()
        let orphan = Book(context: context)
        set.add(orphan)
        set.remove(orphan)
        // An optional to-many with minCount: empty is allowed (Core Data checks minCount only when non-empty).
        #expect(throws: Never.self) { try context.save() }
    }

    @Test func denyRuleRefusesDeleteAndLeavesStoreUnchanged() throws {
        let url = Fixtures.temporaryStoreURL()
        let context = try Fixtures.container(model: shelfModel(), url: url).viewContext
        let shelf = Shelf(context: context)
        shelf.name = "kept"
        let book = Book(context: context)
        book.title = "held"
        book.shelf = shelf                            // to-one side sets the ordered inverse
        #expect(titles(shelf) == ["held"])
        try context.save()
        context.delete(shelf)
        #expect {
            try context.save()
        } throws: { ($0 as NSError).code == NSValidationRelationshipDeniedDeleteError }
        context.rollback()
        #expect(!shelf.isDeleted)
        let reader = try Fixtures.container(model: shelfModel(), url: url).viewContext
        #expect(try reader.count(for: NSFetchRequest<Shelf>(entityName: "Shelf")) == 1)
        // Empty the relationship first, then the delete goes through.
        context.delete(book)
        context.delete(shelf)
        try context.save()
        #expect(try reader.count(for: NSFetchRequest<Shelf>(entityName: "Shelf")) == 0)
    }

    @Test func oneToOneInverseMovesBothSides() throws {
        let context = try Fixtures.container(model: shelfModel(), inMemory: true).viewContext
        let first = Shelf(context: context), second = Shelf(context: context)
        let keeper = Keeper(context: context)
        keeper.shelf = first
        #expect(first.keeper === keeper)
        second.keeper = keeper                         // steals the keeper: first loses it
        #expect(keeper.shelf === second)
        #expect(first.keeper == nil)
        try context.save()
        context.reset()
        let shelves = try context.fetch(NSFetchRequest<Shelf>(entityName: "Shelf"))
        #expect(shelves.filter { $0.keeper != nil }.count == 1)
    }

    @Test func contextAPIsAcrossQueues() async throws {
        let container = try Fixtures.container(model: shelfModel())
        let names: [String] = try await container.performBackgroundTask { context in
            for name in ["x", "y"] {
                let keeper = Keeper(context: context)
                keeper.name = name
            }
            #expect(context.insertedObjects.count == 2)
            try context.save()
            return try context.fetch(NSFetchRequest<Keeper>(entityName: "Keeper")).compactMap(\.name).sorted()
        }
        #expect(names == ["x", "y"])
        let view = container.viewContext
        let count = try await view.perform { try view.count(for: NSFetchRequest<Keeper>(entityName: "Keeper")) }
        #expect(count == 2)
        let keeper = try #require(try view.fetch(NSFetchRequest<Keeper>(entityName: "Keeper")).first)
        keeper.name = "changed"
        #expect(view.updatedObjects.contains(keeper))
        #expect(keeper.changedValues()["name"] as? String == "changed")
        view.reset()
        #expect(view.registeredObjects.isEmpty)
        #expect(!view.hasChanges)
    }
}

@Suite("Context reset")
struct ContextResetTests {
    /// Regression: reset() and refreshAllObjects() used to walk the (unretained) registry while dropping
    /// values, which released related objects mid-walk and crashed on a dangling entry.
    @Test func resetAndRefreshWithObjectsHeldOnlyByEachOther() throws {
        for refreshFirst in [false, true] {
            let context = try Fixtures.container(model: shelfModel(), inMemory: true).viewContext
            do {
                let shelf = Shelf(context: context)
                shelf.name = "only held by its book"
                let book = Book(context: context)
                book.shelf = shelf
            }
            try context.save()
            if refreshFirst { context.refreshAllObjects() }
            context.reset()
            #expect(context.registeredObjects.isEmpty)
            #expect(try context.count(for: NSFetchRequest<Book>(entityName: "Book")) == 1)
        }
    }
}
