import Testing

@testable import OpenCoreData

@Suite("Fetching in SQL")
struct FetchTests {
    /// Twelve aircraft with colour schemes, log entries and pilots.
    static func populated() throws -> NSPersistentContainer {
        let container = try Fixtures.container()
        let context = container.viewContext
        let colors = ["red", "white", "blue", "Gold", "gréen", "black"]
        let amelia = Pilot(context: context)
        amelia.name = "Amelia"
        let chuck = Pilot(context: context)
        chuck.name = "Chuck"
        for i in 0..<12 {
            let aircraft = Aircraft(context: context)
            aircraft.tailNumber = String(format: "N%03d", i)
            aircraft.aircraftType = i % 2 == 0 ? "C172" : "PA28"
            aircraft.colorScheme = ["primary": colors[i % 6], "secondary": colors[(i + 1) % 6]]
            for j in 0..<(i % 4) {
                let entry = LogEntry(context: context)
                entry.hours = Double(j + 1)
                entry.landings = Int16(j)
                entry.aircraft = aircraft
                (j == 0 ? amelia : chuck).mutableSetValue(forKey: "logEntries").add(entry)
            }
        }
        try context.save()
        return container
    }

    func tails(
        _ container: NSPersistentContainer, _ format: String, _ args: [Any] = [],
        sort: [NSSortDescriptor] = [NSSortDescriptor(key: "tailNumber", ascending: true)]
    ) throws -> [String] {
        let request = Aircraft.fetchRequest()
        request.predicate = NSPredicate(format: format, argumentArray: args)
        request.sortDescriptors = sort
        let context = container.newBackgroundContext()
        return try context.performAndWait { try context.fetch(request).compactMap(\.tailNumber) }
    }

    @Test func compositeElementPredicate() throws {
        let container = try Self.populated()
        #expect(try tails(container, "colorScheme.primary == %@", ["red"]) == ["N000", "N006"])
        #expect(try tails(container, "colorScheme.primary ==[c] %@", ["gold"]) == ["N003", "N009"])
        #expect(try tails(container, "colorScheme.primary ==[cd] %@", ["GREEN"]) == ["N004", "N010"])
        #expect(
            try tails(container, "colorScheme.secondary BEGINSWITH %@ AND aircraftType == 'C172'", ["b"]) == [
                "N004", "N010",
            ])
    }

    @Test func operatorsAndOptions() throws {
        let container = try Self.populated()
        #expect(try tails(container, "tailNumber IN %@", [["N001", "N005", "N999"]]) == ["N001", "N005"])
        #expect(try tails(container, "tailNumber BETWEEN %@", [["N009", "N011"]]) == ["N009", "N010", "N011"])
        #expect(try tails(container, "tailNumber LIKE 'N01?'") == ["N010", "N011"])
        #expect(try tails(container, "tailNumber MATCHES 'N00[1-3]'") == ["N001", "N002", "N003"])
        #expect(
            try tails(container, "tailNumber ENDSWITH '1' OR tailNumber CONTAINS '07'") == ["N001", "N007", "N011"])
        #expect(try tails(container, "NOT (tailNumber < 'N010')") == ["N010", "N011"])
        #expect(try tails(container, "photo == nil AND tailNumber == 'N000'") == ["N000"])
        #expect(try tails(container, "FALSEPREDICATE").isEmpty)
        #expect(try tails(container, "TRUEPREDICATE").count == 12)
    }

    @Test func toManyAggregatesAnyAllAndSubquery() throws {
        let container = try Self.populated()
        // i % 4 entries: 3 entries for 3, 7, 11.
        #expect(try tails(container, "logEntries.@count == 3") == ["N003", "N007", "N011"])
        #expect(try tails(container, "logEntries.@sum.hours >= 6") == ["N003", "N007", "N011"])
        #expect(try tails(container, "ANY logEntries.hours == 2") == ["N002", "N003", "N006", "N007", "N010", "N011"])
        #expect(try tails(container, "ALL logEntries.hours < 2 AND logEntries.@count > 0") == ["N001", "N005", "N009"])
        #expect(try tails(container, "SUBQUERY(logEntries, $e, $e.hours > 1).@count == 2") == ["N003", "N007", "N011"])
        #expect(
            try tails(container, "ANY logEntries.pilots.name == 'Chuck'") == [
                "N002", "N003", "N006", "N007", "N010", "N011",
            ])
    }

    /// Objects, object IDs and sets of objects as predicate constants reach the SQL layer as rows (`StoredRow`).
    @Test func objectsObjectIDsAndSetsOfObjectsAsConstants() throws {
        let container = try Self.populated()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let planes = Aircraft.fetchRequest()
            planes.predicate = NSPredicate(format: "tailNumber == 'N003'")
            let plane = try #require(try context.fetch(planes).first)
            let entries = NSFetchRequest<LogEntry>(entityName: "LogEntry")
            entries.predicate = NSPredicate(format: "aircraft == %@", plane)
            let found = try context.fetch(entries)
            #expect(found.count == 3)
            entries.predicate = NSPredicate(format: "aircraft == %@", plane.objectID)
            #expect(try context.count(for: entries) == 3)
            entries.predicate = NSPredicate(format: "aircraft IN %@", argumentArray: [Set([plane])])
            #expect(try context.count(for: entries) == 3)
            let owners = NSFetchRequest<Aircraft>(entityName: "Aircraft")
            owners.predicate = NSPredicate(format: "ANY logEntries IN %@", argumentArray: [Set(found)])
            #expect(try context.fetch(owners).compactMap(\.tailNumber) == ["N003"])
            owners.predicate = NSPredicate(format: "%@ IN logEntries", argumentArray: [found[0]])
            #expect(try context.fetch(owners).compactMap(\.tailNumber) == ["N003"])
        }
    }

    @Test func toOneKeyPathJoinsAndSorting() throws {
        let container = try Self.populated()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let request = NSFetchRequest<LogEntry>(entityName: "LogEntry")
            request.predicate = NSPredicate(format: "aircraft.colorScheme.primary == %@ AND hours > 1", "Gold")
            request.sortDescriptors = [
                NSSortDescriptor(key: "aircraft.tailNumber", ascending: false),
                NSSortDescriptor(key: "hours", ascending: true),
            ]
            let entries = try context.fetch(request)
            #expect(entries.map { $0.aircraft?.tailNumber ?? "" } == ["N003", "N003"])
            #expect(entries.map(\.hours) == [2, 3])
            request.predicate = NSPredicate(format: "aircraft.colorScheme.primary == %@", "Gold")
            #expect(
                try context.fetch(request).map { $0.aircraft?.tailNumber ?? "" } == ["N009", "N003", "N003", "N003"])
        }
        let byColor = try tails(
            container, "aircraftType == 'PA28'",
            sort: [
                NSSortDescriptor(key: "colorScheme.primary", ascending: true, selector: "caseInsensitiveCompare:"),
                NSSortDescriptor(key: "tailNumber", ascending: true),
            ])
        #expect(byColor == ["N005", "N011", "N003", "N009", "N001", "N007"])
    }

    @Test func limitsOffsetsCountsAndResultTypes() throws {
        let container = try Self.populated()
        let context = container.viewContext
        let request = Aircraft.fetchRequest()
        request.sortDescriptors = [NSSortDescriptor(key: "tailNumber", ascending: true)]
        request.fetchLimit = 3
        request.fetchOffset = 2
        #expect(try context.fetch(request).compactMap(\.tailNumber) == ["N002", "N003", "N004"])
        #expect(try context.count(for: request) == 3)

        let ids = NSFetchRequest<NSManagedObjectID>(entityName: "Aircraft")
        ids.resultType = .managedObjectIDResultType
        ids.predicate = NSPredicate(format: "aircraftType == %@", "C172")
        #expect(try context.fetch(ids).count == 6)

        let dictionaries = NSFetchRequest<NSDictionary>(entityName: "Aircraft")
        dictionaries.resultType = .dictionaryResultType
        dictionaries.propertiesToFetch = ["tailNumber", "colorScheme.primary"]
        dictionaries.predicate = NSPredicate(format: "tailNumber == 'N001'")
        let row = try #require(try context.fetch(dictionaries).first)
        #expect(row["tailNumber"] as? String == "N001")
        #expect(row["colorScheme.primary"] as? String == "white")

        let counts = NSFetchRequest<NSNumber>(entityName: "LogEntry")
        counts.resultType = .countResultType
        #expect(try context.fetch(counts).first?.intValue == 18)
    }

    @Test func pendingChangesAreIncluded() throws {
        let container = try Self.populated()
        let context = container.viewContext
        let fresh = Aircraft(context: context)
        fresh.tailNumber = "N500"
        fresh.colorScheme = ["primary": "red"]
        #expect(try tails(container, "colorScheme.primary == 'red'") == ["N000", "N006"])  // another context: not yet
        let request = Aircraft.fetchRequest()
        request.predicate = NSPredicate(format: "colorScheme.primary == %@", "red")
        request.sortDescriptors = [NSSortDescriptor(key: "tailNumber", ascending: true)]
        #expect(try context.fetch(request).compactMap(\.tailNumber) == ["N000", "N006", "N500"])
        let first = try #require(try context.fetch(request).first)
        context.delete(first)
        #expect(try context.fetch(request).compactMap(\.tailNumber) == ["N006", "N500"])
        #expect(try context.count(for: request) == 2)
    }

    /// Aircraft by tail number, fetched in batches of five.
    static func batchesOfFiveByTailNumber() -> NSFetchRequest<Aircraft> {
        let request = Aircraft.fetchRequest()
        request.fetchBatchSize = 5
        request.sortDescriptors = [NSSortDescriptor(key: "tailNumber", ascending: true)]
        return request
    }

    @Test func batchedFetchLoadsLazily() throws {
        let container = try Self.populated()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let request = Self.batchesOfFiveByTailNumber()
            let results = try context.fetch(request)
            #expect(results.count == 12)
            #expect(!results.contains { !$0.isFault })
            #expect(results[6].tailNumber == "N006")
            #expect(!results[5].isFault && !results[9].isFault)  // its batch was loaded
            #expect(results[0].isFault)
            #expect(results.compactMap(\.tailNumber) == (0..<12).map { String(format: "N%03d", $0) })
        }
    }

    /// A batched result's objects stay unique in their context (found again by ID and by other fetches),
    /// and objects kept after the result array is gone still load their batch.
    @Test func batchedObjectsAreUniqueAndOutliveTheirArray() throws {
        let container = try Self.populated()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let request = Self.batchesOfFiveByTailNumber()
            // Keep two objects of the first batch; every other object of the result goes away.
            let kept: [Aircraft] = try {
                let results = try context.fetch(request)
                return [results[1], results[3]]
            }()
            #expect(kept[0].isFault && kept[1].isFault)
            #expect(kept.map(\.tailNumber) == ["N001", "N003"])
            // The same objects come back from the registry, by ID and from an unbatched fetch.
            #expect(context.object(with: kept[0].objectID) === kept[0])
            #expect(context.registeredObject(for: kept[1].objectID) === kept[1])
            let plain = Aircraft.fetchRequest()
            plain.predicate = NSPredicate(format: "tailNumber == %@", "N003")
            #expect(try context.fetch(plain).first === kept[1])
            // A change to a batch member is saved like any other.
            kept[0].aircraftType = "DA40"
            try context.save()
            let check = container.newBackgroundContext()
            let saved = try check.performAndWait {
                let byTail = Aircraft.fetchRequest()
                byTail.predicate = NSPredicate(format: "tailNumber == %@", "N001")
                return try check.fetch(byTail).first?.aircraftType
            }
            #expect(saved == "DA40")
        }
    }

    @Test func prefetchingAndSubentities() throws {
        let container = try Self.populated()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let request = NSFetchRequest<LogEntry>(entityName: "LogEntry")
            request.relationshipKeyPathsForPrefetching = ["aircraft", "pilots"]
            let entries = try context.fetch(request)
            #expect(entries.count == 18)
            #expect(entries.allSatisfy { $0.aircraft?.isFault == false })
        }
    }

    @Test func badKeyPathIsAClearError() throws {
        let container = try Self.populated()
        #expect {
            _ = try tails(container, "colorScheme.purple == 'x'")
        } throws: { error in
            (error as NSError).localizedDescription.contains("purple")
        }
        #expect {
            _ = try tails(container, "wingspan > 3")
        } throws: { error in
            (error as NSError).localizedDescription.contains("wingspan")
        }
    }

    @Test func indexedCompositeElementUsesIndex() throws {
        let url = Fixtures.temporaryStoreURL()
        _ = try Fixtures.container(url: url)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [
            url.path, "EXPLAIN QUERY PLAN SELECT Z_PK FROM ZAIRCRAFT t0 WHERE t0.ZCOLORSCHEME_PRIMARY = 'red';",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let plan = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(plan.contains("ZAIRCRAFT_BYPRIMARYCOLOR"))
    }
}

@Suite("Primary key lists")
struct PrimaryKeyListTests {
    static let ascending: [Int64] = Array(1...1000)
    static let everyThird: [Int64] = (0..<600).map { Int64($0 * 3) }
    static let descending: [Int64] = Array((1...500).reversed())
    static let mixed: [Int64] = Array(10...20) + [5, 6, 7, 100] + Array(200...260)
    static let scrambledThenWide: [Int64] = (0..<700).map { Int64($0 * 7 % 701) } + [Int64(UInt32.max) + 5, 3, -2]

    /// Runs, single keys, descending keys and the switch to 32-bit and 64-bit arrays all read back in order.
    @Test(arguments: [ascending, everyThird, descending, mixed, scrambledThenWide, []])
    func readsBackWhatWasAppended(keys: [Int64]) {
        var list = PrimaryKeyList()
        for key in keys { list.append(key) }
        #expect(list.count == keys.count)
        #expect(Array(list) == keys)
    }
}
