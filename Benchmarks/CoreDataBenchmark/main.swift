// OpenCoreData benchmark: each workload next to a raw-SQLite baseline (GRDB prepared statements on the
// same table), in one release-mode run. Prints times and ratios.
//
//   swift run -c release CoreDataBenchmark            # everything (about a minute)
//   swift run -c release CoreDataBenchmark small      # only the 100k insert and fetch workloads
//   swift run -c release CoreDataBenchmark memory DIR [sorted] # (internal) the batched-fetch memory probe
//   swift run -c release CoreDataBenchmark profile    # one insert, then fetch + read 10 times (for perf record)
//   swift run -c release CoreDataBenchmark profile fetch  # one insert, then fetch (no reads) and free 30 times
//   BENCH_N=10000 swift run -c release CoreDataBenchmark small  # another row count (e.g. for valgrind)
//   swift run -c release CoreDataBenchmark phases     # one insert, then the fetch's phases timed apart
import Foundation
import GRDB
import OpenCoreData

final class Aircraft: NSManagedObject {
    @Managed var tailNumber: String?
    @Managed var aircraftType: String?
    @Managed var aircraftClass: String?
    @Managed var aircraftCategory: String?
    @Managed var seats: Int32
    @Managed var hours: Double
    @Managed var colorScheme: [String: Any]?
}

func model() -> NSManagedObjectModel {
    let entity = NSEntityDescription(name: "Aircraft")
    entity.managedObjectClassName = NSStringFromClass(Aircraft.self)
    entity.properties = [
        NSAttributeDescription(name: "tailNumber", type: .stringAttributeType),
        NSAttributeDescription(name: "aircraftType", type: .stringAttributeType),
        NSAttributeDescription(name: "aircraftClass", type: .stringAttributeType),
        NSAttributeDescription(name: "aircraftCategory", type: .stringAttributeType),
        NSAttributeDescription(name: "seats", type: .integer32AttributeType, optional: false, defaultValue: Int32(0)),
        NSAttributeDescription(name: "hours", type: .doubleAttributeType, optional: false, defaultValue: 0.0),
        NSCompositeAttributeDescription(name: "colorScheme", elements: [
            NSAttributeDescription(name: "primary", type: .stringAttributeType),
            NSAttributeDescription(name: "secondary", type: .stringAttributeType),
            NSAttributeDescription(name: "tertiary", type: .stringAttributeType),
        ]),
    ]
    entity.indexes = [NSFetchIndexDescription(name: "byPrimary", elements: [NSFetchIndexElementDescription(keyPath: "colorScheme.primary")])]
    let model = NSManagedObjectModel()
    model.entities = [entity]
    return model
}

let colors = ["white", "blue", "orange", "red", "gray", "green", "gold", "yellow", "black", "none"]

func openContainer(_ url: URL) -> NSPersistentContainer {
    let container = NSPersistentContainer(name: "Bench", managedObjectModel: model())
    container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: url)]
    container.loadPersistentStores { _, error in if let error { fatalError("\(error)") } }
    return container
}

/// Prints a line at once (unbuffered), so partial results survive a crash.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

func time(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func residentMB() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let kb = Double(line.split(separator: " ").dropFirst().first.map(String.init) ?? "0") ?? 0
        return kb / 1024
    }
    return 0
}

func insertObjects(_ context: NSManagedObjectContext, range: Range<Int>) throws {
    for i in range {
        let a = Aircraft(context: context)
        a.tailNumber = "N\(i)"
        a.aircraftType = "C172"
        a.aircraftClass = "ASEL"
        a.aircraftCategory = "Airplane"
        a.seats = 4
        a.hours = Double(i) * 0.5
        a.colorScheme = ["primary": colors[i % 10], "secondary": colors[(i / 10) % 10], "tertiary": colors[(i / 100) % 10]]
    }
    try context.save()
}

// MARK: Memory probe (child process)

if CommandLine.arguments.count >= 3, CommandLine.arguments[1] == "memory" {
    let url = URL(fileURLWithPath: CommandLine.arguments[2]).appendingPathComponent("million.sqlite")
    let container = openContainer(url)
    let context = container.newBackgroundContext()
    let before = residentMB()
    var total = 0.0
    var count = 0
    try context.performAndWait {
        let request = NSFetchRequest<Aircraft>(entityName: "Aircraft")
        request.fetchBatchSize = 500
        if CommandLine.arguments.count == 4 {
            // Result order unrelated to table order: primary keys cannot be stored as runs.
            request.sortDescriptors = [NSSortDescriptor(key: "hours", ascending: false)]
        }
        let results = try context.fetch(request)
        for aircraft in results {
            total += aircraft.hours
            if aircraft.tailNumber != nil { count += 1 }
        }
    }
    say(String(format: "%d %.1f %.1f", count, before, residentMB()))
    exit(0)
}

// MARK: Workloads

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("orchard-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let n = Int(ProcessInfo.processInfo.environment["BENCH_N"] ?? "") ?? 100_000
say("OpenCoreData benchmark (release build, \(ProcessInfo.processInfo.activeProcessorCount) cores)")

// Workloads and baselines alternate, several times; each side's best run counts (the machine may be busy).
let profiling = CommandLine.arguments.dropFirst().first == "profile" || CommandLine.arguments.dropFirst().first == "phases"
let rounds = profiling ? 1 : 5

// 1. Insert 100k objects and save vs raw prepared INSERTs in one transaction, same table.
func rawInsert(into url: URL) throws {
    let raw = try DatabaseQueue(path: url.path)
    try raw.write { db in
        let statement = try db.makeStatement(sql: "INSERT INTO ZAIRCRAFT (Z_PK, Z_ENT, Z_OPT, ZTAILNUMBER, ZAIRCRAFTTYPE, ZAIRCRAFTCLASS, ZAIRCRAFTCATEGORY, ZSEATS, ZHOURS, ZCOLORSCHEME_PRIMARY, ZCOLORSCHEME_SECONDARY, ZCOLORSCHEME_TERTIARY) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)")
        for i in 0..<n {
            try statement.execute(arguments: [i + 1, 1, 1, "N\(i)", "C172", "ASEL", "Airplane", 4, Double(i) * 0.5, colors[i % 10], colors[(i / 10) % 10], colors[(i / 100) % 10]])
        }
    }
    try raw.close()
}
var oursInsert = Double.infinity, rawInsertTime = Double.infinity
var oursURL = directory.appendingPathComponent("ours-0.sqlite")
var container = openContainer(oursURL)
for round in 0..<rounds {
    if round > 0 {
        oursURL = directory.appendingPathComponent("ours-\(round).sqlite")
        container = openContainer(oursURL)
    }
    let context = container.newBackgroundContext()
    oursInsert = min(oursInsert, try time { try context.performAndWait { try insertObjects(context, range: 0..<n) } })
    context.reset()
    let rawURL = directory.appendingPathComponent("raw-\(round).sqlite")
    _ = openContainer(rawURL) // same schema, created by OpenCoreData
    rawInsertTime = min(rawInsertTime, try time { try rawInsert(into: rawURL) })
}
say(String(format: "insert %d + save:        ours %.3f s   raw SQLite %.3f s   ratio %.2fx (target <= 2x; best of %d)", n, oursInsert, rawInsertTime, oursInsert / rawInsertTime, rounds))

// 2. Fetch 100k objects and read every attribute vs raw row iteration.
/// Reads the plain attributes (4 strings, 2 numbers) into a checksum.
func readPlain(_ a: Aircraft) -> Double {
    a.hours + Double(a.seats) + Double((a.tailNumber?.count ?? 0) + (a.aircraftType?.count ?? 0) + (a.aircraftClass?.count ?? 0) + (a.aircraftCategory?.count ?? 0))
}
/// Reads the composite's three elements into a checksum.
func readComposite(_ a: Aircraft) -> Double {
    guard let scheme = a.colorScheme else { return 0 }
    return Double(((scheme["primary"] as? String)?.count ?? 0) + ((scheme["secondary"] as? String)?.count ?? 0) + ((scheme["tertiary"] as? String)?.count ?? 0))
}
func fetchAll(_ context: NSManagedObjectContext) throws -> [Aircraft] {
    try context.performAndWait { try context.fetch(NSFetchRequest<Aircraft>(entityName: "Aircraft")) }
}
func oursFetchAndRead(_ context: NSManagedObjectContext) throws -> Double {
    var checksum = 0.0
    try context.performAndWait {
        for a in try fetchAll(context) { checksum += readPlain(a) + readComposite(a) }
    }
    context.reset()
    return checksum
}
func rawFetchAndRead(_ db: DatabaseQueue) throws -> Double {
    var checksum = 0.0
    try db.read { db in
        let rows = try Row.fetchCursor(db, sql: "SELECT Z_PK, Z_ENT, Z_OPT, ZTAILNUMBER, ZAIRCRAFTTYPE, ZAIRCRAFTCLASS, ZAIRCRAFTCATEGORY, ZSEATS, ZHOURS, ZCOLORSCHEME_PRIMARY, ZCOLORSCHEME_SECONDARY, ZCOLORSCHEME_TERTIARY FROM ZAIRCRAFT")
        while let row = try rows.next() {
            let hours: Double = row[8]
            let seats: Int64 = row[7]
            checksum += hours + Double(seats)
            let s1: String? = row[3], s2: String? = row[4], s3: String? = row[5], s4: String? = row[6]
            checksum += Double((s1?.count ?? 0) + (s2?.count ?? 0) + (s3?.count ?? 0) + (s4?.count ?? 0))
            let p: String? = row[9], q: String? = row[10], r: String? = row[11]
            checksum += Double((p?.count ?? 0) + (q?.count ?? 0) + (r?.count ?? 0))
        }
    }
    return checksum
}
let fetchContext = container.newBackgroundContext()
let ourDB = try DatabaseQueue(path: oursURL.path)
// The inserts may still sit in the write-ahead log (whether SQLite's autocheckpoint ran depends on
// readers' timing), which slows both sides' reads: fold it into the database first, so runs compare.
try ourDB.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
if CommandLine.arguments.dropFirst().first == "phases" {
    // Where our side's time goes: the fetch, the reads (plain attributes, then the composite), and
    // freeing the objects; each line also times the raw side once.
    for _ in 0..<5 {
        var results: [Aircraft] = []
        var checksum = 0.0
        let fetch = try time { results = try fetchAll(fetchContext) }
        let plain = time { for a in results { checksum += readPlain(a) } }
        let composite = time { for a in results { checksum += readComposite(a) } }
        // One accessor's cost per read: the accessor over every object, ten times.
        var hoursSum = 0.0
        let hoursOnly = time { for _ in 0..<10 { for a in results { hoursSum += a.hours } } }
        var tailSum = 0
        let tailOnly = time { for _ in 0..<10 { for a in results { if a.tailNumber != nil { tailSum += 1 } } } }
        say(String(format: "  accessor: hours %.1f ns, tailNumber %.1f ns (%.0f %d)", hoursOnly / Double(results.count * 10) * 1e9, tailOnly / Double(results.count * 10) * 1e9, hoursSum, tailSum))
        let free = time { results = []; fetchContext.reset() }
        let raw = try time { checksum -= try rawFetchAndRead(ourDB) }
        precondition(checksum == 0, "fetch checksums differ")
        say(String(format: "fetch %.3f s   read plain %.3f s, composite %.3f s   free %.3f s   (raw fetch + read %.3f s)", fetch, plain, composite, free, raw))
    }
    exit(0)
}
if profiling {
    if CommandLine.arguments.dropFirst(2).first == "fetch" {
        for _ in 0..<30 { let r = try fetchAll(fetchContext); withExtendedLifetime(r) {}; fetchContext.reset() }
        exit(0)
    }
    for _ in 0..<10 { _ = try oursFetchAndRead(fetchContext) }
    exit(0)
}
var oursFetch = Double.infinity, rawFetch = Double.infinity, fetchOnly = Double.infinity
for _ in 0..<rounds {
    var checksum = 0.0, rawChecksum = 0.0
    oursFetch = min(oursFetch, try time { checksum = try oursFetchAndRead(fetchContext) })
    rawFetch = min(rawFetch, try time { rawChecksum = try rawFetchAndRead(ourDB) })
    precondition(checksum == rawChecksum, "fetch checksums differ: \(checksum) vs \(rawChecksum)")
    // Diagnostics: the fetch alone (rows to registered objects), without reading attributes.
    fetchOnly = min(fetchOnly, try time { _ = try fetchAll(fetchContext).count })
    fetchContext.reset()
}
say(String(format: "fetch %d + read all:     ours %.3f s   raw SQLite %.3f s   ratio %.2fx (target <= 2x; best of %d)", n, oursFetch, rawFetch, oursFetch / rawFetch, rounds))
say(String(format: "  of which the fetch alone (objects built, nothing read): %.3f s", fetchOnly))
try? ourDB.close()

if CommandLine.arguments.dropFirst().first == "small" { exit(0) }

// 3. One million rows: an indexed composite-element fetch returning 10 rows.
let millionURL = directory.appendingPathComponent("million.sqlite")
let million = openContainer(millionURL)
let loader = million.newBackgroundContext()
let fillTime = try time {
    for chunk in 0..<10 {
        try loader.performAndWait {
            try insertObjects(loader, range: (chunk * 100_000)..<((chunk + 1) * 100_000))
            loader.reset()
        }
    }
}
say(String(format: "filled 1,000,000 rows in %.1f s", fillTime))
// Ten rows carry a unique primary colour.
try loader.performAndWait {
    let request = NSFetchRequest<Aircraft>(entityName: "Aircraft")
    request.predicate = NSPredicate(format: "tailNumber IN %@", argumentArray: [(0..<10).map { "N\($0 * 99_991)" }])
    for a in try loader.fetch(request) { a.setValue("chartreuse", forKeyPath: "colorScheme.primary") }
    try loader.save()
    loader.reset()
}
var samples: [Double] = []
let queryContext = million.newBackgroundContext()
try queryContext.performAndWait {
    for _ in 0..<200 {
        let request = NSFetchRequest<Aircraft>(entityName: "Aircraft")
        request.predicate = NSPredicate(format: "colorScheme.primary == %@", "chartreuse")
        var found = 0
        samples.append(try time { found = try queryContext.fetch(request).count })
        precondition(found == 10, "expected 10 rows, got \(found)")
        queryContext.reset()
    }
}
samples.sort()
let plan = try DatabaseQueue(path: millionURL.path).read { db in
    try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT Z_PK FROM ZAIRCRAFT t0 WHERE t0.ZCOLORSCHEME_PRIMARY = ?", arguments: ["chartreuse"]).map { $0["detail"] as String? ?? "" }.joined(separator: "; ")
}
say(String(format: "indexed composite fetch (10 of 1,000,000): median %.3f ms  p99 %.3f ms (target < 1 ms)", samples[samples.count / 2] * 1000, samples[samples.count * 99 / 100] * 1000))
say("  EXPLAIN QUERY PLAN: \(plan)")

// 4. Batched fetch of 1,000,000 rows: peak resident memory of a fresh process iterating them, in table
// order and sorted by another attribute.
for sorted in [false, true] {
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    probe.arguments = ["memory", directory.path] + (sorted ? ["sorted"] : [])
    let pipe = Pipe()
    probe.standardOutput = pipe
    try probe.run()
    probe.waitUntilExit()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: " ")
    if output.count == 3 {
        say("batched fetch of 1,000,000 rows (fetchBatchSize 500\(sorted ? ", sorted by hours" : "")): read \(output[0]) rows, peak resident \(output[2].trimmingCharacters(in: .whitespacesAndNewlines)) MB (process start \(output[1]) MB; target < 100 MB)")
    } else {
        say("memory probe failed: \(output)")
    }
}
