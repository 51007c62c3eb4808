import Foundation
import Synchronization
import Testing

@testable import OpenCoreData

/// Counts the instances of a class that are alive (swift-collections' `LifetimeTracker` pattern): every
/// value the unsafe handle types hold unretained or in raw memory must be freed exactly once.
final class LifetimeCounter: Sendable {
    let made = Atomic<Int>(0)
    let freed = Atomic<Int>(0)
    var alive: Int { made.load(ordering: .sequentiallyConsistent) - freed.load(ordering: .sequentiallyConsistent) }
}

/// A value that counts itself in a counter.
final class Tracked: Sendable {
    let counter: LifetimeCounter
    let payload: Int
    init(_ counter: LifetimeCounter, _ payload: Int) {
        self.counter = counter
        self.payload = payload
        counter.made.add(1, ordering: .sequentiallyConsistent)
    }
    deinit { counter.freed.add(1, ordering: .sequentiallyConsistent) }
}

/// Objects of the lifetime tests' entities count themselves (one counter per class: tests run in parallel).
final class LifetimeRegistered: NSManagedObject {
    static let counter = LifetimeCounter()
    required init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) {
        super.init(entity: entity, insertInto: context)
        Self.counter.made.add(1, ordering: .sequentiallyConsistent)
    }
    deinit { Self.counter.freed.add(1, ordering: .sequentiallyConsistent) }
}

final class LifetimeBatched: NSManagedObject {
    static let counter = LifetimeCounter()
    required init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) {
        super.init(entity: entity, insertInto: context)
        Self.counter.made.add(1, ordering: .sequentiallyConsistent)
    }
    deinit { Self.counter.freed.add(1, ordering: .sequentiallyConsistent) }
}

/// Turns stored bytes into `Tracked` values of one counter (and back).
final class TrackedTransformer: ValueTransformer, @unchecked Sendable {
    static let counter = LifetimeCounter()
    override func transformedValue(_ value: Any?) -> Any? {
        (value as? Tracked).map { Data(String($0.payload).utf8) }
    }
    override func reverseTransformedValue(_ value: Any?) -> Any? {
        (value as? Data).flatMap { Int(String(decoding: $0, as: UTF8.self)) }.map { Tracked(Self.counter, $0) }
    }
}

@Suite("Lifetimes of what the unsafe handles hold")
struct LifetimeTests {
    @Test func aRowBlocksStorageFreesEveryValueItHolds() {
        let counter = LifetimeCounter()
        let rows = 37
        let stride = 5
        let storage = RowBlock.Storage(capacity: 64, stride: stride)
        for row in 0..<rows {
            let slots = storage.initializeRow(row, primaryKey: Int64(row + 1), version: 1)
            slots.initialize(0, to: .other(SlotBox(Tracked(counter, row))))
            slots.initialize(1, to: .string(String(repeating: "long string ", count: row + 2)))  // not immortal
            slots.initialize(2, to: .composite(["tracked": Tracked(counter, row), "n": row]))
            slots.initialize(3, to: .int64(Int64(row)))
            slots.initialize(4, to: row.isMultiple(of: 2) ? .null : .other(SlotBox(Tracked(counter, -row))))
        }
        #expect(counter.made.load(ordering: .sequentiallyConsistent) == rows * 2 + rows / 2)
        #expect(storage.primaryKey(at: 36) == 37)
        // A value taken out of a slot (as a deferred composite's elements are) leaves `.null`, freed with the rest.
        let taken = storage.row(3).take(0)
        #expect(storage.row(3)[0].isNull)
        #expect(counter.alive == rows * 2 + rows / 2)
        _ = consume taken
        #expect(counter.alive == rows * 2 + rows / 2 - 1)
        storage.free(rows: rows)
        #expect(counter.alive == 0)
    }

    @Test func fetchedRowBlocksFreeTheirValuesWithTheirObjects() throws {
        let name = NSValueTransformerName("LifetimeTests.TrackedTransformer")
        ValueTransformer.setValueTransformer(TrackedTransformer(), forName: name)
        let entity = NSEntityDescription(name: "LifetimeBlob")
        let blob = NSAttributeDescription(name: "blob", type: .transformableAttributeType)
        blob.valueTransformerName = name.rawValue
        entity.properties = [blob, NSAttributeDescription(name: "label", type: .stringAttributeType)]
        let container = try Fixtures.container(model: Fixtures.model([entity]))
        let context = container.newBackgroundContext()
        let rows = 600  // more than two blocks' worth
        try context.performAndWait {
            for i in 0..<rows {
                let object = NSManagedObject(entity: entity, insertInto: context)
                object.setValue(Tracked(TrackedTransformer.counter, i), forKey: "blob")
                object.setValue("label number \(i) of the lifetime test", forKey: "label")
            }
            try context.save()
            context.reset()
        }
        #expect(TrackedTransformer.counter.alive == 0)
        let fetchedBefore = TrackedTransformer.counter.made.load(ordering: .sequentiallyConsistent)
        try context.performAndWait {
            let objects = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "LifetimeBlob"))
            #expect(objects.count == rows)
            let payloads = objects.compactMap { ($0.value(forKey: "blob") as? Tracked)?.payload }
            #expect(Set(payloads) == Set(0..<rows))
            #expect(objects.allSatisfy { $0.payload.kind == .rows })
        }
        // Every decoded value was made by the fetch, and went with its block.
        #expect(TrackedTransformer.counter.made.load(ordering: .sequentiallyConsistent) - fetchedBefore == rows)
        #expect(TrackedTransformer.counter.alive == 0)
        context.performAndWait { #expect(context.registeredObjects.isEmpty) }
    }

    @Test func theRegistryHoldsObjectsWithoutKeepingThemAndForgetsThemWhenFreed() throws {
        let entity = NSEntityDescription(name: "LifetimeRegistered")
        entity.managedObjectClassName = NSStringFromClass(LifetimeRegistered.self)
        entity.properties = [NSAttributeDescription(name: "n", type: .integer64AttributeType)]
        let container = try Fixtures.container(model: Fixtures.model([entity]))
        let context = container.newBackgroundContext()
        let rows = 2_000  // several registry rebuilds
        try context.performAndWait {
            for i in 0..<rows {
                NSManagedObject.insert(entity: entity, into: context).setValue(Int64(i), forKey: "n")
            }
            try context.save()
            context.reset()
        }
        #expect(LifetimeRegistered.counter.alive == 0)
        try context.performAndWait {
            var objects: [NSManagedObject]? = try context.fetch(
                NSFetchRequest<NSManagedObject>(entityName: "LifetimeRegistered"))
            #expect(objects?.count == rows)
            #expect(context.registry.count == rows)
            #expect(LifetimeRegistered.counter.alive == rows)
            // Each registered object is found by its ID while it lives.
            let id = try #require(objects?[rows / 2].objectID)
            #expect(context.registeredObject(for: id) === objects?[rows / 2])
            objects = nil
            // Freed objects removed themselves: nothing registered, nothing dangling.
            #expect(context.registry.count == 0)
            #expect(context.registeredObject(for: id) == nil)
        }
        #expect(LifetimeRegistered.counter.alive == 0)
    }

    @Test func batchGroupsHoldTheirShellsWithoutKeepingThem() throws {
        let entity = NSEntityDescription(name: "LifetimeBatched")
        entity.managedObjectClassName = NSStringFromClass(LifetimeBatched.self)
        entity.properties = [NSAttributeDescription(name: "n", type: .integer64AttributeType)]
        let container = try Fixtures.container(model: Fixtures.model([entity]))
        let context = container.newBackgroundContext()
        let rows = 500
        try context.performAndWait {
            for i in 0..<rows {
                NSManagedObject.insert(entity: entity, into: context).setValue(Int64(i), forKey: "n")
            }
            try context.save()
            context.reset()
        }
        #expect(LifetimeBatched.counter.alive == 0)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "LifetimeBatched")
            request.fetchBatchSize = 20
            var objects: [NSManagedObject]? = try context.fetch(request)
            #expect(objects?.count == rows)
            // Reading some loads their batches; the rest stay shells.
            let sum = (0..<50).reduce(Int64(0)) { $0 + ((objects?[$1].value(forKey: "n") as? Int64) ?? 0) }
            #expect(sum == (0..<50).reduce(0, +))
            #expect(LifetimeBatched.counter.alive == rows)
            objects = nil
            #expect(context.registeredObjects.isEmpty)
        }
        #expect(LifetimeBatched.counter.alive == 0)
    }
}

extension NSManagedObject {
    /// A new object of `entity`'s class in `context`.
    fileprivate static func insert(entity: NSEntityDescription, into context: NSManagedObjectContext) -> NSManagedObject
    {
        entity.resolvedClass().init(entity: entity, insertInto: context)
    }
}
