import Foundation
import OpenCoreData

/// The seed's scenario end to end: a V1 store with real flight data, migrated to V3 through the
/// seed's stages, then checked byte for byte.
enum FlightDataScenario {
    /// Creates a V1 store at `url` with `count` aircraft, each with its own flight data (some without);
    /// returns the data by tail number.
    static func makeV1Store(at url: URL, count: Int, seed: UInt64 = 42) throws -> [String: Data] {
        let model = v1ModelReference.resolvedModel
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        _ = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        var generator = SplitMix(seed: seed)
        var expected: [String: Data] = [:]
        try context.performAndWait {
            for i in 0..<count {
                let aircraft = NSEntityDescription.insertNewObject(forEntityName: "Aircraft", into: context)
                let tail = "N\(1000 + i)"
                aircraft.setValue(tail, forKey: "tailNumber")
                aircraft.setValue(["C172", "PA28", "SR22"][i % 3], forKey: "aircraftType")
                if i % 10 != 9 {
                    let bytes = (0..<(512 + Int(generator.next() % 4096))).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                    let data = Data(bytes)
                    aircraft.setValue(data, forKey: "flightData")
                    expected[tail] = data
                }
            }
            try context.save()
        }
        for store in coordinator.persistentStores { try coordinator.remove(store) }
        return expected
    }

    /// The flight data of each aircraft, read through V3's flightParameters relationship.
    static func flightData(in container: NSPersistentContainer) throws -> [String: [Data]] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            var result: [String: [Data]] = [:]
            let aircraft = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Aircraft"))
            for plane in aircraft {
                let tail = plane.value(forKey: "tailNumber") as? String ?? "?"
                let parameters = plane.mutableSetValue(forKey: "flightParameters").allObjects.compactMap { $0 as? NSManagedObject }
                result[tail] = parameters.compactMap { $0.value(forKey: "data") as? Data }
            }
            return result
        }
    }

    /// Whether every aircraft's flight data arrived intact and linked, and nothing else appeared.
    static func problems(expected: [String: Data], found: [String: [Data]], aircraftCount: Int) -> [String] {
        var problems: [String] = []
        if found.count != aircraftCount { problems.append("\(found.count) aircraft after migration, expected \(aircraftCount)") }
        for (tail, datas) in found {
            switch (expected[tail], datas.count) {
            case (nil, 0): break
            case (let data?, 1) where datas[0] == data: break
            default: problems.append("\(tail): expected \(expected[tail]?.count ?? 0) bytes in one FlightData, found \(datas.map(\.count))")
            }
        }
        return problems
    }
}

/// A small deterministic random generator, so runs are repeatable.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }
}
