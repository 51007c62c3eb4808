import Foundation
import Testing

@testable import OpenCoreData

/// Fetched objects read their values from shared row blocks until they need state of their own.
@Suite("Fetched row blocks")
struct RowBlockTests {
    /// A store of `count` aircraft, tail numbers N0..., every tenth one with a partial colour scheme
    /// (no tertiary) and every hundredth with none at all; the context is reset afterwards.
    static func fleet(_ count: Int) throws -> (NSPersistentContainer, NSManagedObjectContext) {
        let container = try Fixtures.container()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for i in 0..<count {
                let aircraft = Aircraft(context: context)
                aircraft.tailNumber = "N\(i)"
                aircraft.aircraftType = i.isMultiple(of: 2) ? "C172" : "PA28"
                if i.isMultiple(of: 100) { continue }
                aircraft.colorScheme =
                    i.isMultiple(of: 10)
                    ? ["primary": "red", "secondary": "white"]
                    : ["primary": "blue", "secondary": "white", "tertiary": "gold"]
            }
            try context.save()
            context.reset()
        }
        return (container, context)
    }

    static func byTail(_ context: NSManagedObjectContext) throws -> [Aircraft] {
        let request = Aircraft.fetchRequest()
        return try context.fetch(request).sorted { Int($0.tailNumber!.dropFirst())! < Int($1.tailNumber!.dropFirst())! }
    }

    @Test func manyRowsAcrossBlocksReadBackExactly() throws {
        // 700 rows span blocks of 8, 16, ..., 256 rows.
        let (_, context) = try Self.fleet(700)
        try context.performAndWait {
            let fleet = try Self.byTail(context)
            #expect(fleet.count == 700)
            for (i, aircraft) in fleet.enumerated() {
                #expect(!aircraft.isFault)
                #expect(!aircraft.hasChanges)
                #expect(aircraft.changedValues().isEmpty)
                #expect(aircraft.tailNumber == "N\(i)")
                #expect(aircraft.aircraftType == (i.isMultiple(of: 2) ? "C172" : "PA28"))
                let scheme = aircraft.colorScheme
                // Key-value coding builds the same dictionary from the row's element slots.
                #expect((aircraft.value(forKey: "colorScheme") as? [String: Any])?.count == scheme?.count)
                #expect(
                    aircraft.value(forKeyPath: "colorScheme.secondary") as? String == scheme?["secondary"] as? String)
                if i.isMultiple(of: 100) {
                    #expect(scheme == nil)
                } else if i.isMultiple(of: 10) {
                    // A missing element is left out of the dictionary, not stored as a placeholder.
                    #expect(scheme?.count == 2)
                    #expect(scheme?["tertiary"] == nil)
                    #expect(scheme?["primary"] as? String == "red")
                } else {
                    #expect(scheme?.count == 3)
                    #expect(scheme?["tertiary"] as? String == "gold")
                }
            }
        }
    }

    @Test func aChangedObjectLeavesItsNeighboursAsFetched() throws {
        let (_, context) = try Self.fleet(40)
        try context.performAndWait {
            let fleet = try Self.byTail(context)
            let changed = fleet[5]
            let id = changed.objectID
            changed.tailNumber = "N-CHANGED"
            changed.setValue("green", forKeyPath: "colorScheme.primary")
            #expect(changed.isUpdated)
            #expect(changed.objectID == id)
            #expect(Set(changed.changedValues().keys) == ["tailNumber", "colorScheme"])
            #expect(changed.committedValues(forKeys: ["tailNumber"])["tailNumber"] as? String == "N5")
            #expect(fleet[4].tailNumber == "N4")
            #expect(fleet[6].tailNumber == "N6")
            #expect(fleet[6].colorScheme?["primary"] as? String == "blue")
            #expect(context.updatedObjects.count == 1)
            context.rollback()
            #expect(changed.tailNumber == "N5")
            #expect(changed.colorScheme?["primary"] as? String == "blue")
            #expect(!context.hasChanges)
        }
    }

    @Test func anObjectOutlivesTheRestOfItsFetch() throws {
        let (_, context) = try Self.fleet(300)
        try context.performAndWait {
            weak var neighbour: Aircraft?
            var kept: Aircraft?
            do {
                let fleet = try Self.byTail(context)
                kept = fleet[201]
                neighbour = fleet[202]
            }
            #expect(neighbour == nil)
            #expect(kept?.tailNumber == "N201")
            #expect(kept?.colorScheme?["tertiary"] as? String == "gold")
            // Still registered: fetching again returns the same object.
            let again = try Self.byTail(context)
            #expect(again[201] === kept)
        }
    }

    @Test func refreshResetAndMergesTurnFetchedRowsIntoFaults() throws {
        let (container, context) = try Self.fleet(20)
        try context.performAndWait {
            let fleet = try Self.byTail(context)
            context.refresh(fleet[3], mergeChanges: false)
            #expect(fleet[3].isFault)
            #expect(fleet[3].tailNumber == "N3")
            #expect(!fleet[3].isFault)
            #expect(fleet[2].isFault == false)
        }
        // Another context changes and deletes rows; this one merges the notification.
        let other = container.newBackgroundContext()
        try other.performAndWait {
            let rows = try Self.byTail(other)
            rows[7].aircraftType = "SR22"
            other.delete(rows[8])
            let saved = try #require(NotificationCenterRecorder.didSave(of: other) { try other.save() })
            context.performAndWait { context.mergeChanges(fromContextDidSave: saved) }
        }
        try context.performAndWait {
            let fleet = try Self.byTail(context)
            #expect(fleet.count == 19)
            #expect(fleet[7].aircraftType == "SR22")
        }
    }

    @Test func relationshipsOfFetchedRowsLoadOnDemand() throws {
        let container = try Fixtures.container()
        let context = container.viewContext
        let aircraft = Aircraft(context: context)
        aircraft.tailNumber = "N1"
        for hours in [1.5, 2.0] {
            let entry = LogEntry(context: context)
            entry.hours = hours
            entry.aircraft = aircraft
        }
        try context.save()
        context.reset()
        let entries = try context.fetch(NSFetchRequest<LogEntry>(entityName: "LogEntry"))
        #expect(entries.count == 2)
        #expect(entries.allSatisfy { $0.aircraft?.tailNumber == "N1" })
        #expect(entries[0].aircraft === entries[1].aircraft)
        let owner = try #require(entries[0].aircraft)
        #expect(owner.logEntries?.count == 2)
        #expect(!entries[0].hasChanges)
    }
}

/// A fetched row keeps a flat composite's elements in slots of its own and builds the dictionary when
/// it is first read.
@Suite("Deferred composites of fetched rows")
struct DeferredCompositeTests {
    /// A store of gauges whose `reading` composite mixes element types (a string, a double, a 32-bit
    /// integer and a date), with `count` rows; the context is reset afterwards.
    static func gauges(_ count: Int) throws -> NSManagedObjectContext {
        let entity = NSEntityDescription(name: "Gauge")
        entity.properties = [
            NSAttributeDescription(name: "name", type: .stringAttributeType),
            NSCompositeAttributeDescription(
                name: "reading",
                elements: [
                    NSAttributeDescription(name: "unit", type: .stringAttributeType),
                    NSAttributeDescription(name: "value", type: .doubleAttributeType),
                    NSAttributeDescription(name: "samples", type: .integer32AttributeType),
                    NSAttributeDescription(name: "taken", type: .dateAttributeType),
                ]),
        ]
        let container = try Fixtures.container(model: Fixtures.model([entity]), inMemory: true)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for i in 0..<count {
                let gauge = NSManagedObject(entity: entity, insertInto: context)
                gauge.setValue("g\(i)", forKey: "name")
                if i == 0 { continue }  // no reading at all
                var reading: [String: Any] = ["unit": "kPa", "value": Double(i) / 4, "samples": Int32(i)]
                if i.isMultiple(of: 2) { reading["taken"] = Date(timeIntervalSinceReferenceDate: Double(i)) }
                gauge.setValue(reading, forKey: "reading")
            }
            try context.save()
            context.reset()
        }
        return context
    }

    static func byName(_ context: NSManagedObjectContext) throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Gauge")
        request.sortDescriptors = [NSSortDescriptor(key: "reading.samples", ascending: true)]
        return try context.fetch(request)
    }

    @Test func elementsOfEveryTypeReadBackAsStored() throws {
        let context = try Self.gauges(20)
        try context.performAndWait {
            let gauges = try Self.byName(context)
            #expect(gauges.count == 20)
            #expect(gauges[0].value(forKey: "reading") == nil)
            #expect(gauges[0].value(forKey: "reading") == nil)  // no element, nothing built: still nil
            for i in 1..<20 {
                let reading = try #require(gauges[i].value(forKey: "reading") as? [String: Any])
                #expect(reading["unit"] as? String == "kPa")
                #expect(reading["value"] as? Double == Double(i) / 4)
                #expect(reading["samples"] as? Int32 == Int32(i))
                #expect(
                    (reading["taken"] as? Date)
                        == (i.isMultiple(of: 2) ? Date(timeIntervalSinceReferenceDate: Double(i)) : nil))
                #expect(reading.count == (i.isMultiple(of: 2) ? 4 : 3))
                // A second read returns the same value; reading leaves the object unchanged.
                #expect((gauges[i].value(forKey: "reading") as? [String: Any])?.count == reading.count)
                #expect(!gauges[i].hasChanges)
                #expect(gauges[i].value(forKeyPath: "reading.samples") as? Int32 == Int32(i))
            }
        }
    }

    @Test func predicatesAndCommittedValuesSeeTheComposite() throws {
        let context = try Self.gauges(10)
        try context.performAndWait {
            let gauges = try Self.byName(context)
            let predicate = NSPredicate(format: "reading.value > 1.0 AND reading.unit == 'kPa'")
            #expect(gauges.filter { predicate.evaluate(with: $0) }.count == 5)
            // Unread so far: committed values build it from the row.
            let committed = gauges[3].committedValues(forKeys: ["reading"])["reading"] as? [String: Any]
            #expect(committed?["samples"] as? Int32 == 3)
            // A change to one element detaches the row; the old value stays committed.
            gauges[4].setValue(Int32(40), forKeyPath: "reading.samples")
            #expect(gauges[4].isUpdated)
            #expect(
                (gauges[4].committedValues(forKeys: ["reading"])["reading"] as? [String: Any])?["samples"] as? Int32
                    == 4)
            #expect(gauges[4].value(forKeyPath: "reading.unit") as? String == "kPa")
            try context.save()
            context.reset()
            let again = try Self.byName(context)
            #expect(again.last?.value(forKeyPath: "reading.samples") as? Int32 == 40)
            #expect(again.last?.value(forKeyPath: "reading.taken") as? Date == Date(timeIntervalSinceReferenceDate: 4))
        }
    }
}

/// Captures the did-save notification a save posts.
enum NotificationCenterRecorder {
    /// The notification, posted synchronously on the saving thread (a lock guards it anyway).
    private final class Captured: @unchecked Sendable {
        let lock = NSLock()
        var notification: Notification?
    }

    static func didSave(of context: NSManagedObjectContext, _ save: () throws -> Void) rethrows -> Notification? {
        let captured = Captured()
        let token = NotificationCenter.default.addObserver(
            forName: .NSManagedObjectContextDidSave, object: context, queue: nil
        ) { notification in
            captured.lock.withLock { captured.notification = notification }
        }
        defer { NotificationCenter.default.removeObserver(token) }
        try save()
        return captured.lock.withLock { captured.notification }
    }
}

/// Two classes whose `@Managed` properties share names, one of them a single letter: a property's
/// identity is its name's literal, and it reads the slot its own entity has under that name.
final class Point: NSManagedObject {
    @Managed var x: Int64
    @Managed var label: String?
}

final class Tag: NSManagedObject {
    @Managed var label: String?
    @Managed var x: Int64
}

@Suite("Row block values and managed property identities")
struct RowValueLifetimeTests {
    /// Strings of every kind a row can hold: empty, small (up to 15 UTF-8 bytes, kept in the string's
    /// own bits), just past small, long, non-ASCII, and with an embedded NUL.
    static let strings = [
        "", "a", "fifteen bytes!!", "sixteen bytes!!!", String(repeating: "long ", count: 40),
        "ünïcödé", "ünïcödé and then some more text", "nul\u{0}inside", "a longer one with a nul \u{0} in it",
    ]

    @Test func stringsOfEveryLengthOutliveTheirRowBlock() throws {
        let entity = NSEntityDescription(name: "Note")
        entity.properties = [NSAttributeDescription(name: "text", type: .stringAttributeType)]
        let context = try Fixtures.container(model: Fixtures.model([entity]), inMemory: true).newBackgroundContext()
        try context.performAndWait {
            for round in 0..<30 {
                for text in Self.strings {
                    NSManagedObject(entity: entity, insertInto: context).setValue(text + "\(round)", forKey: "text")
                }
            }
            try context.save()
            context.reset()
            var read: [String] = []
            do {
                let notes = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note"))
                read = notes.compactMap { $0.value(forKey: "text") as? String }
            }
            // The objects and their blocks are gone: the strings read from them must be intact.
            context.reset()
            let expected = (0..<30).flatMap { round in Self.strings.map { $0 + "\(round)" } }
            #expect(read.sorted() == expected.sorted())
        }
    }

    @Test func smallAndLiteralStringsAreTheImmortalOnes() {
        // StringLayout reads a String as two words: that must be its size.
        #expect(MemoryLayout<String>.size == 2 * MemoryLayout<UInt64>.size)
        #expect(StringLayout.isImmortal(""))
        #expect(StringLayout.isImmortal("fifteen bytes!!"))
        #expect(StringLayout.isImmortal("a literal of more than fifteen bytes"))
        #expect(!StringLayout.isImmortal(String(repeating: "x", count: 40)))
        #expect(!StringLayout.isImmortal(String(decoding: Array("sixteen bytes!!!".utf8), as: UTF8.self)))
        #expect(StringLayout.isImmortal(String(decoding: Array("fifteen bytes!!".utf8), as: UTF8.self)))
    }

    @Test func propertiesSharingNamesReadTheirOwnEntitysSlots() throws {
        let point = NSEntityDescription(name: "Point")
        point.managedObjectClassName = NSStringFromClass(Point.self)
        point.properties = [
            NSAttributeDescription(name: "x", type: .integer64AttributeType, optional: false, defaultValue: Int64(0)),
            NSAttributeDescription(name: "label", type: .stringAttributeType),
        ]
        let tag = NSEntityDescription(name: "Tag")
        tag.managedObjectClassName = NSStringFromClass(Tag.self)
        // The other order: each name has another slot here.
        tag.properties = [
            NSAttributeDescription(name: "label", type: .stringAttributeType),
            NSAttributeDescription(name: "x", type: .integer64AttributeType, optional: false, defaultValue: Int64(0)),
        ]
        let context = try Fixtures.container(model: Fixtures.model([point, tag]), inMemory: true).newBackgroundContext()
        try context.performAndWait {
            for i in 0..<5 {
                let p = Point(context: context)
                p.x = Int64(i)
                p.label = "point \(i)"
                let t = Tag(context: context)
                t.x = Int64(100 + i)
                t.label = "tag \(i)"
            }
            try context.save()
            context.reset()
            let points = try context.fetch(NSFetchRequest<Point>(entityName: "Point")).sorted { $0.x < $1.x }
            let tags = try context.fetch(NSFetchRequest<Tag>(entityName: "Tag")).sorted { $0.x < $1.x }
            #expect(points.map(\.x) == [0, 1, 2, 3, 4])
            #expect(points.map(\.label) == (0..<5).map { "point \($0)" })
            #expect(tags.map(\.x) == [100, 101, 102, 103, 104])
            #expect(tags.map(\.label) == (0..<5).map { "tag \($0)" })
            #expect(ManagedProperty("x").name == "x")
        }
    }
}

@Suite("An object belongs to one context")
struct SingleContextTests {
    /// Core Data raises when an object of one context is inserted into another; here the process stops
    /// with a message that says so (a registration in two contexts would outlive the object in one).
    @Test func insertingAnotherContextsObjectStopsWithAMessage() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = try Fixtures.container(inMemory: true)
            let first = container.newBackgroundContext()
            let second = container.newBackgroundContext()
            let entity = try #require(container.managedObjectModel.entitiesByName["Aircraft"])
            let aircraft = NSManagedObject(entity: entity, insertInto: first)
            second.insert(aircraft)
        }.map { result in
            let message = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(message.contains("may only be in (or observed by) a single NSManagedObjectContext"))
        }
    }

    @Test func insertingIntoItsOwnContextAgainChangesNothing() throws {
        let container = try Fixtures.container(inMemory: true)
        let context = container.newBackgroundContext()
        let entity = try #require(container.managedObjectModel.entitiesByName["Aircraft"])
        context.performAndWait {
            let aircraft = NSManagedObject(entity: entity, insertInto: context)
            context.insert(aircraft)
            #expect(context.insertedObjects.count == 1)
        }
    }
}
