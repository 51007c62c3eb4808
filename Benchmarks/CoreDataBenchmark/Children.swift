import BenchmarkKit
import Foundation
import OpenCoreData

// Child processes: memory is measured in a fresh process per run, so no side inherits the other's heap.
// Each prints one line of numbers on standard output for the parent to read.

/// A raw side's fetched row: every column of the row, as a program without Core Data would hold it.
struct RawAircraft {
    var primaryKey: Int64, entity: Int64, version: Int64
    var tailNumber: String?, aircraftType: String?, aircraftClass: String?, aircraftCategory: String?
    var seats: Int64
    var hours: Double
    var primary: String?, secondary: String?, tertiary: String?
}

/// Reads row `s` of an `aircraftColumns` SELECT.
func rawAircraft(_ s: RawStatement) -> RawAircraft {
    RawAircraft(
        primaryKey: s.int64(0), entity: s.int64(1), version: s.int64(2), tailNumber: s.text(3), aircraftType: s.text(4),
        aircraftClass: s.text(5), aircraftCategory: s.text(6), seats: s.int64(7), hours: s.double(8),
        primary: s.text(9), secondary: s.text(10), tertiary: s.text(11))
}

/// The same checksum `readPlain` + `readComposite` make of an object.
func rawChecksum(_ a: RawAircraft) -> Double {
    a.hours + Double(a.seats)
        + Double(
            (a.tailNumber?.count ?? 0) + (a.aircraftType?.count ?? 0) + (a.aircraftClass?.count ?? 0)
                + (a.aircraftCategory?.count ?? 0))
        + Double((a.primary?.count ?? 0) + (a.secondary?.count ?? 0) + (a.tertiary?.count ?? 0))
}

/// Runs a child mode if the arguments name one; returns false otherwise.
func runChildIfAsked() throws -> Bool {
    let arguments = CommandLine.arguments
    guard arguments.count >= 3, arguments[1].hasPrefix("child-") else { return false }
    let path = arguments[2]
    switch arguments[1] {
    case "child-objects-ours":
        // Resident growth per object while every fetched object is held, each attribute read once.
        let container = openContainer(URL(fileURLWithPath: path))
        let context = container.newBackgroundContext()
        let before = residentBytes()
        var checksum = 0.0
        let objects = try context.performAndWait {
            let objects = try context.fetch(NSFetchRequest<Aircraft>(entityName: "Aircraft"))
            for a in objects { checksum += readPlain(a) + readComposite(a) }
            return objects
        }
        let after = residentBytes()
        print(objects.count, after - before, checksum)
        withExtendedLifetime((objects, container)) {}
    case "child-objects-c":
        let db = try RawSQLite(path: path)
        let before = residentBytes()
        var rows: [RawAircraft] = []
        var checksum = 0.0
        let s = try db.statement("SELECT \(aircraftColumns) FROM ZAIRCRAFT")
        while try s.step() {
            let row = rawAircraft(s)
            checksum += rawChecksum(row)
            rows.append(row)
        }
        let after = residentBytes()
        print(rows.count, after - before, checksum)
        withExtendedLifetime(rows) {}
    case "child-batched-ours":
        // Peak resident memory of iterating every row through a batched fetch (fetchBatchSize 500).
        let sorted = arguments.count > 3
        let container = openContainer(URL(fileURLWithPath: path))
        let context = container.newBackgroundContext()
        var checksum = 0.0
        var count = 0
        try context.performAndWait {
            let request = NSFetchRequest<Aircraft>(entityName: "Aircraft")
            request.fetchBatchSize = 500
            if sorted { request.sortDescriptors = [NSSortDescriptor(key: "tailNumber", ascending: true)] }
            for a in try context.fetch(request) {
                checksum += readPlain(a)
                count += 1
            }
        }
        print(count, peakResidentBytes(), checksum)
    case "child-batched-c":
        let sorted = arguments.count > 3
        let db = try RawSQLite(path: path)
        var checksum = 0.0
        var count = 0
        let s = try db.statement(
            "SELECT \(aircraftColumns) FROM ZAIRCRAFT t0\(sorted ? " ORDER BY t0.ZTAILNUMBER" : "")")
        while try s.step() {
            let a = rawAircraft(s)
            checksum +=
                a.hours + Double(a.seats)
                + Double(
                    (a.tailNumber?.count ?? 0) + (a.aircraftType?.count ?? 0) + (a.aircraftClass?.count ?? 0)
                        + (a.aircraftCategory?.count ?? 0))
            count += 1
        }
        print(count, peakResidentBytes(), checksum)
    case "child-explain":
        // Runs the list-screen and composite fetches once; with -com.apple.CoreData.SQLDebug 1 their SQL
        // goes to standard error, where the parent reads it.
        let container = openContainer(URL(fileURLWithPath: path))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            _ = try context.fetch(listScreenRequest(threshold: 1000))
            _ = try context.fetch(compositeRequest())
        }
    default:
        FileHandle.standardError.write(Data("unknown child mode \(arguments[1])\n".utf8))
        exit(2)
    }
    return true
}

/// The list screen's request: 50 aircraft of one type under an hours threshold, most hours first.
func listScreenRequest(threshold: Double) -> NSFetchRequest<Aircraft> {
    let request = NSFetchRequest<Aircraft>(entityName: "Aircraft")
    request.predicate = NSPredicate(format: "aircraftType == %@ AND hours < %@", argumentArray: ["C172", threshold])
    request.sortDescriptors = [NSSortDescriptor(key: "hours", ascending: false)]
    request.fetchLimit = 50
    return request
}

/// The indexed composite-element fetch: the aircraft whose primary colour is chartreuse.
func compositeRequest() -> NSFetchRequest<Aircraft> {
    let request = NSFetchRequest<Aircraft>(entityName: "Aircraft")
    request.predicate = NSPredicate(format: "colorScheme.primary == %@", "chartreuse")
    return request
}
