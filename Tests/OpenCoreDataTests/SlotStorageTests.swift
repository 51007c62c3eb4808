import Foundation
import Testing

@testable import OpenCoreData

/// Properties whose Swift types differ from what their attributes store, for the accessors' conversions.
final class Gauge: NSManagedObject {
    @Managed var count: Int
    @Managed var small: Int
    @Managed var ratio: Double?
    @Managed var reading: Float
    @Managed var flag: Bool
    @Managed var label: String?
    @Managed var note: String?
    @Managed var stamp: Date?
    @Managed var token: UUID?
    @Managed var wide: Int64?
}

@Suite("Typed slot storage")
struct SlotStorageTests {
    static func gaugeContainer() throws -> NSPersistentContainer {
        let entity = NSEntityDescription(name: "Gauge")
        entity.managedObjectClassName = NSStringFromClass(Gauge.self)
        entity.properties = [
            NSAttributeDescription(
                name: "count", type: .integer64AttributeType, optional: false, defaultValue: Int64(0)),
            NSAttributeDescription(
                name: "small", type: .integer16AttributeType, optional: false, defaultValue: Int16(0)),
            NSAttributeDescription(name: "ratio", type: .doubleAttributeType),
            NSAttributeDescription(name: "reading", type: .floatAttributeType, optional: false, defaultValue: Float(0)),
            NSAttributeDescription(name: "flag", type: .booleanAttributeType, optional: false, defaultValue: false),
            NSAttributeDescription(name: "label", type: .stringAttributeType),
            // A string kept through a transformer: the accessor must not take the string fast path.
            NSAttributeDescription(name: "note", type: .transformableAttributeType),
            NSAttributeDescription(name: "stamp", type: .dateAttributeType),
            NSAttributeDescription(name: "token", type: .UUIDAttributeType),
            NSAttributeDescription(name: "wide", type: .integer32AttributeType),
        ]
        let model = Fixtures.model([entity])
        let container = NSPersistentContainer(name: "Gauges", managedObjectModel: model)
        container.persistentStoreDescriptions = [
            NSPersistentStoreDescription(url: Fixtures.temporaryStoreURL("gauges"))
        ]
        var failure: Error?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    @Test func accessorsConvertAndRoundTripEveryType() throws {
        let container = try Self.gaugeContainer()
        let context = container.viewContext
        let stamp = Date(timeIntervalSinceReferenceDate: 12_345.5)
        let token = UUID()
        let gauge = Gauge(context: context)
        gauge.count = 1 << 40
        gauge.small = 300
        gauge.ratio = 0.25
        gauge.reading = 1.5
        gauge.flag = true
        gauge.label = "dial"
        gauge.note = "kept by a transformer"
        gauge.stamp = stamp
        gauge.token = token
        gauge.wide = 70_000
        // Stored as the attributes' types, whatever the property's Swift type.
        #expect(gauge.value(forKey: "count") as? Int64 == 1 << 40)
        #expect(gauge.value(forKey: "small") as? Int16 == 300)
        #expect(gauge.value(forKey: "wide") as? Int32 == 70_000)
        try context.save()
        context.reset()

        let fetched = try #require(try context.fetch(NSFetchRequest<Gauge>(entityName: "Gauge")).first)
        #expect(fetched.count == 1 << 40)
        #expect(fetched.small == 300)
        #expect(fetched.ratio == 0.25)
        #expect(fetched.reading == 1.5)
        #expect(fetched.flag)
        #expect(fetched.label == "dial")
        #expect(fetched.note == "kept by a transformer")
        #expect(fetched.stamp == stamp)
        #expect(fetched.token == token)
        #expect(fetched.wide == 70_000)

        // nil reads as nil for optionals and zero for scalars; a value too wide fails validation.
        fetched.ratio = nil
        fetched.label = nil
        #expect(fetched.ratio == nil)
        #expect(fetched.label == nil)
        fetched.small = 70_000
        #expect(throws: (any Error).self) { try context.save() }
        context.rollback()
        #expect(fetched.small == 300)
        #expect(fetched.label == "dial")
    }

    @Test func registryMatchesADictionaryThroughGrowthAndRemoval() {
        let entity = NSEntityDescription(name: "Thing")
        let other = NSEntityDescription(name: "Other")
        let registry = ObjectRegistry(lock: NSRecursiveLock())
        var expected: [String: NSManagedObject] = [:]
        var objects: [NSManagedObject] = []
        var generator = SystemRandomNumberGenerator()
        for step in 0..<20_000 {
            let root = Bool.random(using: &generator) ? entity : other
            let key = Int64.random(in: 1...3_000, using: &generator)
            let name = "\(root.name!)/\(key)"
            if step % 3 == 2 {
                registry.remove(root: ObjectIdentifier(root), primaryKey: key)
                expected[name] = nil
            } else {
                let object = NSManagedObject(entity: root, insertInto: nil)
                objects.append(object)
                registry.insert(object, root: ObjectIdentifier(root), primaryKey: key)
                expected[name] = object
            }
            if step % 997 == 0 {
                for key in 1...3_000 as ClosedRange<Int64> {
                    #expect(registry[ObjectIdentifier(entity), key] === expected["Thing/\(key)"])
                    #expect(registry[ObjectIdentifier(other), key] === expected["Other/\(key)"])
                }
            }
        }
        #expect(registry.count == expected.count)
        #expect(Set(registry.objects.map(ObjectIdentifier.init)) == Set(expected.values.map(ObjectIdentifier.init)))
        // An entry is removed only for its own object when one is named.
        let first = NSManagedObject(entity: entity, insertInto: nil)
        let second = NSManagedObject(entity: entity, insertInto: nil)
        registry.insert(first, root: ObjectIdentifier(entity), primaryKey: 9_999)
        registry.insert(second, root: ObjectIdentifier(entity), primaryKey: 9_999)
        registry.remove(root: ObjectIdentifier(entity), primaryKey: 9_999, ifObject: first)
        #expect(registry[ObjectIdentifier(entity), 9_999] === second)
        registry.removeAll()
        #expect(registry.count == 0)
        #expect(registry[ObjectIdentifier(entity), 9_999] == nil)
    }

    /// Clearing costs the whole table: after a large round the table is kept for another large round, and shrinks
    /// when a round needed far less (small pages after one large fetch do not clear megabytes each).
    @Test func theRegistryTableFollowsWhatEachRoundNeeded() {
        let entity = NSEntityDescription(name: "Thing")
        let registry = ObjectRegistry(lock: NSRecursiveLock())
        var objects: [NSManagedObject] = []
        func round(_ count: Int) {
            for key in 0..<Int64(count) {
                let object = NSManagedObject(entity: entity, insertInto: nil)
                objects.append(object)
                registry.insert(object, root: ObjectIdentifier(entity), primaryKey: key)
            }
            #expect(registry.count == count)
            registry.removeAll()
            #expect(registry.count == 0 && registry[ObjectIdentifier(entity), 0] == nil)
        }
        round(100_000)
        let large = registry.tableCapacity
        #expect(large >= 200_000)  // filled to half at most
        round(90_000)
        #expect(registry.tableCapacity == large)  // about as large: kept
        round(100)
        #expect(registry.tableCapacity <= 512)  // a page: the table shrank to what it needed
        round(100)
        #expect(registry.tableCapacity <= 512)
        round(5_000)  // grows again as it fills, and still finds everything
        #expect(registry.tableCapacity >= 10_000)
    }
}
