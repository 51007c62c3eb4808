// The seed's staged migration (WWDC23 "What's new in Core Data"): Aircraft.flightData (V1) moves into
// its own FlightData entity (V2, custom stage) and the old attribute goes away (V3, deferred).
// Usage: AircraftMigration [aircraft count] [store path]
import Foundation
import OpenCoreData

let arguments = CommandLine.arguments
let count = arguments.count > 1 ? Int(arguments[1]) ?? 500 : 500
let path = arguments.count > 2 ? arguments[2]
    : FileManager.default.temporaryDirectory.appendingPathComponent("aircraft-migration-\(UUID().uuidString)/FlightLog.sqlite").path
let url = URL(fileURLWithPath: path)
try? FileManager.default.removeItem(at: url)

do {
    print("V1 store at \(path): \(count) aircraft with flight data")
    let expected = try FlightDataScenario.makeV1Store(at: url, count: count)
    print("Store version: \(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)[NSStoreModelVersionChecksumKey] ?? "?") (V1 is \(v1ModelChecksum))")
    let start = Date()
    guard let container = try loadMigratedContainer(path: path, myModel: v3ModelReference.resolvedModel, deferred: true, progress: { p in
        if p.stepsCompleted > 0 || p.rowsCopied > 0 { print("  progress: \(p.stepsCompleted)/\(p.stepCount) steps, \(p.rowsCopied) rows copied") }
    }) else { fatalError("no container") }
    print(String(format: "Migrated to V3 in %.3f s", Date().timeIntervalSince(start)))
    let coordinator = container.persistentStoreCoordinator
    let store = coordinator.persistentStores[0]
    print("Deferred work pending: \(coordinator.metadata(for: store)[NSPersistentStoreDeferredLightweightMigrationOptionKey] as? Bool ?? false)")
    let problems = FlightDataScenario.problems(expected: expected, found: try FlightDataScenario.flightData(in: container), aircraftCount: count)
    try finishDeferred(coordinator: coordinator, store: store)
    print("Deferred work pending after finishDeferredLightweightMigration(): \(coordinator.metadata(for: store)[NSPersistentStoreDeferredLightweightMigrationOptionKey] as? Bool ?? false)")
    if problems.isEmpty {
        print("All \(expected.count) flight data blobs (\(expected.values.reduce(0) { $0 + $1.count }) bytes) kept and linked to their aircraft.")
    } else {
        print("PROBLEMS:\n" + problems.prefix(10).joined(separator: "\n"))
        exit(1)
    }
} catch {
    print("Migration failed: \(error.localizedDescription)")
    exit(1)
}
