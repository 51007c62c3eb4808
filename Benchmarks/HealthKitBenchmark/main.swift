// OpenHealthKit benchmark: every workload next to SQLite's C API on the same store file (cached prepared
// statements, the same filters our query applies, the same rows and columns read and turned into values),
// one warm-up run per side, then the sides alternate (BenchmarkKit).
//
// History: N dose events (default 1,000,000; --quick 20,000) over 50 medications spread over five years.
// The app may read 45 of the 50 medications, so every query carries the authorization filter, on both
// sides (withheld medications: NOT IN a list of five).
//
//   scripts/bench healthkit            # or: swift run -c release HealthKitBenchmark [--quick] [--runs N] [count]
import BenchmarkKit
import Foundation
import OpenHealthKit

// A helper mode for section 7: this program, registered as the Health app, logs a dose through the daemon for
// every line it reads (the line is the dose's time offset in seconds).
if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "--health-writer" {
    let writer = HealthAppDaemonEditor(store: HKHealthStore(daemonSocketPath: CommandLine.arguments[2]))
    let medication = HKHealthConceptIdentifier(domain: .medication, identifier: CommandLine.arguments[3])
    _ = try await HKUserAnnotatedMedicationQueryDescriptor(limit: 1).result(for: writer.store)  // connected
    FileHandle.standardOutput.write(Data("ready\n".utf8))
    while let line = readLine(), let offset = Double(line) {
        let date = Date().addingTimeInterval(offset)
        do {
            try await writer.logDose(.init(medication: medication, status: .taken, date: date))
        } catch {
            FileHandle.standardError.write(Data("health writer: \(error)\n".utf8))
            exit(1)
        }
    }
    exit(0)
}

// A helper process that dies must show as an error here, not end this process through SIGPIPE.
signal(SIGPIPE, SIG_IGN)

let bench = Bench(module: "healthkit", title: "OpenHealthKit benchmark", positional: ["count"])
let count = bench.count(at: 0, default: bench.quick ? 20_000 : 1_000_000)
let directory = try bench.temporaryDirectory("HealthKitBenchmark")
let url = directory.appendingPathComponent("Health.sqlite")
let concepts = Array(MedicationCatalog.bundled.entries.prefix(50).map(\.concept))
let withheld = Set(concepts.suffix(5).map(\.identifier))
let allow = HKClosureAuthorizationHandler(
    medications: { _, offered, _ in Set(offered.map(\.medication.identifier)).subtracting(withheld) },
    types: { _, share, read in (share, read) })
let editor = try HKHealthAppEditor(storeURL: url, authorizationHandler: allow)
for concept in concepts { try await editor.addMedication(concept) }
let app = try HKHealthStore(storeURL: url, bundleIdentifier: "com.example.bench", authorizationHandler: allow)
try await app.requestPerObjectReadAuthorization(for: .userAnnotatedMedicationType(), predicate: nil)
let target = concepts[17]

// Events: one per medication per slot, slots evenly over five years up to now, every 12th skipped.
let now = Date()
let fiveYears = 5 * 365.25 * 86_400.0
guard count >= 100 * concepts.count else {
    FileHandle.standardError.write(
        Data("healthkit: the history needs at least \(100 * concepts.count) dose events (got \(count))\n".utf8))
    exit(2)
}
let slots = count / concepts.count
let spacing = fiveYears / Double(slots)
let (_, loadTime) = try timed {
    var batch: [HKHealthAppEditor.DoseLog] = []
    for slot in 0..<slots {
        let when = now.addingTimeInterval(-Double(slots - slot) * spacing)
        for concept in concepts {
            let status: HKMedicationDoseEvent.LogStatus = slot % 12 == 0 ? .skipped : .taken
            batch.append(
                .init(
                    medication: concept.identifier, status: status, date: when, scheduledDate: when,
                    scheduledQuantity: 1))
        }
        if batch.count >= 10_000 {
            try editor.logDoses(batch)
            batch.removeAll(keepingCapacity: true)
        }
    }
    if !batch.isEmpty { try editor.logDoses(batch) }
}
bench.note(
    String(
        format: "Loaded %d dose events over %d medications and five years in %.1f s (set-up, not compared).",
        slots * concepts.count, concepts.count, loadTime.wall))

let raw = try RawSQLite(path: url.path)
try raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
let doseColumns =
    "ZUUID, ZSEQ, ZSTARTDATE, ZENDDATE, ZSOURCENAME, ZSOURCEBUNDLE, ZMETADATA, ZMEDICATIONCONCEPTIDENTIFIER, ZLOGSTATUS, ZSCHEDULETYPE, ZSCHEDULEDDATE, ZSCHEDULEDDOSEQUANTITY, ZDOSEQUANTITY, ZUNIT"
let hidden =
    "ZMEDICATIONCONCEPTIDENTIFIER NOT IN (\(withheld.map { "'\($0.identifier)'" }.sorted().joined(separator: ", ")))"

/// A dose as the C API side reads it: every column a dose event is made of, as values.
struct RawDose {
    var uuid: UUID?, seq: Int64, start: Date, end: Date, sourceName: String?, sourceBundle: String?, metadata: Data?
    var concept: String?, status: Int64, scheduleType: Int64, scheduled: Date?, scheduledQuantity: Double?,
        quantity: Double?, unit: String?

    init(_ s: RawStatement) {
        uuid = s.text(0).flatMap(UUID.init(uuidString:))
        seq = s.int64(1)
        start = Date(timeIntervalSinceReferenceDate: s.double(2))
        end = Date(timeIntervalSinceReferenceDate: s.double(3))
        sourceName = s.text(4)
        sourceBundle = s.text(5)
        metadata = s.data(6)
        concept = s.text(7)
        status = s.int64(8)
        scheduleType = s.int64(9)
        scheduled = s.isNull(10) ? nil : Date(timeIntervalSinceReferenceDate: s.double(10))
        scheduledQuantity = s.isNull(11) ? nil : s.double(11)
        quantity = s.isNull(12) ? nil : s.double(12)
        unit = s.text(13)
    }
}

let queries = bench.quick ? 50 : 200

// MARK: 1. Today's last taken dose

let startOfDay = Calendar.current.startOfDay(for: now)
let lastDose = HKSampleQueryDescriptor(
    predicates: [
        .medicationDoseEvent(
            NSCompoundPredicate(andPredicateWithSubpredicates: [
                HKQuery.predicateForSamples(withStart: startOfDay, end: nil, options: .strictStartDate),
                HKQuery.predicateForMedicationDoseEvent(medicationConceptIdentifier: target.identifier),
                HKQuery.predicateForMedicationDoseEvent(status: .taken),
            ]))
    ],
    sortDescriptors: [SortDescriptor(\.startDate, order: .reverse)], limit: 1)
/// Today's last dose, `queries` times, from a store (in process, or through the daemon in section 7).
@MainActor func lastDoseLatencies(_ store: HKHealthStore) async throws -> Measured {
    var samples: [Double] = []
    var found: Date?
    for _ in 0..<queries {
        let (result, t) = try await timedAsync { try await lastDose.result(for: store).first?.startDate }
        found = result
        samples.append(t.wall)
    }
    return .latencies(samples, check: "\(found?.timeIntervalSinceReferenceDate ?? -1)")
}

/// The machine's floor for today's last dose: the C API, the same filter, every column read (sections 1 and 7).
let lastDoseFloor = Contender("SQLite C API") {
    var samples: [Double] = []
    var found: Date?
    for _ in 0..<queries {
        let (result, t) = try timed {
            let s = try raw.statement(
                "SELECT \(doseColumns) FROM ZHKDOSEEVENTRECORD WHERE ZSTARTDATE >= ? AND ZMEDICATIONCONCEPTIDENTIFIER = ? AND ZLOGSTATUS = 4 AND \(hidden) ORDER BY ZSTARTDATE DESC LIMIT 1"
            )
            s.bind(1, startOfDay.timeIntervalSinceReferenceDate)
            s.bind(2, target.identifier.identifier)
            return try s.first { RawDose($0).start }
        }
        found = result
        samples.append(t.wall)
    }
    return .latencies(samples, check: "\(found?.timeIntervalSinceReferenceDate ?? -1)")
}

try await bench.compare(
    "today's last taken dose of one medication", unit: .time, target: "< 2 ms median (issue 5)",
    note: "a latency sample per query; the C API side reads every column of the row and makes its UUID and dates",
    ours: Contender("OpenHealthKit") { try await lastDoseLatencies(app) },
    baselines: [lastDoseFloor])

// MARK: 2. A chart of one medication's taken doses per day over five years

/// The day a date falls in (UTC days since the reference date): the same arithmetic on every side.
@inline(__always) func day(_ seconds: Double) -> Int { Int((seconds / 86_400).rounded(.down)) }
let chartStart = now.addingTimeInterval(-fiveYears - 86_400)
let chart = HKSampleQueryDescriptor(
    predicates: [
        .medicationDoseEvent(
            NSCompoundPredicate(andPredicateWithSubpredicates: [
                HKQuery.predicateForSamples(
                    withStart: chartStart, end: now.addingTimeInterval(1), options: .strictStartDate),
                HKQuery.predicateForMedicationDoseEvent(medicationConceptIdentifier: target.identifier),
                HKQuery.predicateForMedicationDoseEvent(status: .taken),
            ]))
    ],
    sortDescriptors: [SortDescriptor(\.startDate)])
let chartSQL =
    "SELECT \(doseColumns) FROM ZHKDOSEEVENTRECORD WHERE ZSTARTDATE >= ? AND ZSTARTDATE < ? AND ZMEDICATIONCONCEPTIDENTIFIER = ? AND ZLOGSTATUS = 4 AND \(hidden) ORDER BY ZSTARTDATE"
func chartCheck(_ days: [Int: Int]) -> String { "\(days.count) days, \(days.values.reduce(0, +)) doses" }
try await bench.compare(
    "per-day chart of one medication over five years", unit: .time,
    note:
        "taken doses counted per day; OpenHealthKit has no statistics query, so an app fetches the samples and counts (so does the C API rows side); the GROUP BY side is what an aggregate query could reach",
    ours: Contender("OpenHealthKit") {
        var days: [Int: Int] = [:]
        let (_, t) = try await timedAsync {
            for dose in try await chart.result(for: app) {
                days[day(dose.startDate.timeIntervalSinceReferenceDate), default: 0] += 1
            }
        }
        return .time(t, check: chartCheck(days))
    },
    baselines: [
        Contender("SQLite C API, rows") {
            var days: [Int: Int] = [:]
            let (_, t) = try timed {
                let s = try raw.statement(chartSQL)
                s.bind(1, chartStart.timeIntervalSinceReferenceDate)
                s.bind(2, now.addingTimeInterval(1).timeIntervalSinceReferenceDate)
                s.bind(3, target.identifier.identifier)
                while try s.step() { days[day(RawDose(s).start.timeIntervalSinceReferenceDate), default: 0] += 1 }
            }
            return .time(t, check: chartCheck(days))
        },
        Contender("SQLite C API, GROUP BY day") {
            var days: [Int: Int] = [:]
            let (_, t) = try timed {
                let s = try raw.statement(
                    "SELECT CAST(floor(ZSTARTDATE / 86400.0) AS INTEGER), COUNT(*) FROM ZHKDOSEEVENTRECORD WHERE ZSTARTDATE >= ? AND ZSTARTDATE < ? AND ZMEDICATIONCONCEPTIDENTIFIER = ? AND ZLOGSTATUS = 4 AND \(hidden) GROUP BY 1"
                )
                s.bind(1, chartStart.timeIntervalSinceReferenceDate)
                s.bind(2, now.addingTimeInterval(1).timeIntervalSinceReferenceDate)
                s.bind(3, target.identifier.identifier)
                while try s.step() { days[Int(s.int64(0))] = Int(s.int64(1)) }
            }
            return .time(t, check: chartCheck(days))
        },
    ])

// MARK: 3. The whole history by anchor, 100 at a time

/// Every visible dose event of a store, page after page of 100 (sections 3 and 7).
@MainActor func readHistory(_ store: HKHealthStore) async throws -> Measured {
    var anchor: HKQueryAnchor? = nil
    var total = 0
    let (_, t) = try await timedAsync {
        while true {
            let page = try await HKAnchoredObjectQueryDescriptor(
                predicates: [.medicationDoseEvent()], anchor: anchor, limit: 100
            ).result(for: store)
            if page.addedSamples.isEmpty { break }
            total += page.addedSamples.count
            anchor = page.newAnchor
        }
    }
    return .rate(total, t, check: "\(total)")
}

/// The machine's floor for the history: the C API paging by ZSEQ with the same filter, every column read.
let historyFloor = Contender("SQLite C API") {
    var total = 0
    let (_, t) = try timed {
        var last: Int64 = 0
        while true {
            let s = try raw.statement(
                "SELECT \(doseColumns) FROM ZHKDOSEEVENTRECORD WHERE ZSEQ > ? AND \(hidden) ORDER BY ZSEQ LIMIT 100"
            )
            s.bind(1, last)
            var page: [RawDose] = []
            while try s.step() { page.append(RawDose(s)) }
            guard let end = page.last else { break }
            total += page.count
            last = end.seq
        }
    }
    return .rate(total, t, check: "\(total)")
}

try await bench.compare(
    "whole history by anchor, batches of 100", unit: .rate("samples/s"), target: "≥ 100,000 samples/s (issue 5)",
    note:
        "every visible dose event, page after page; the C API side pages by ZSEQ with the same filter and reads every column",
    ours: Contender("OpenHealthKit") { try await readHistory(app) },
    baselines: [historyFloor])

// MARK: 4. Logging one dose

/// Logs one taken dose through the C API as the editor's write does: the medication looked up, the
/// change counter and primary-key counter advanced, the row inserted, in one transaction.
@MainActor func rawLogDose(at date: Date) throws {
    try raw.transaction {
        let medication = try raw.statement(
            "SELECT Z_PK FROM ZHKMEDICATIONRECORD WHERE ZMEDICATIONCONCEPTIDENTIFIER = ?")
        medication.bind(1, target.identifier.identifier)
        guard try medication.first({ $0.int64(0) }) != nil else {
            throw RawSQLiteError(description: "no medication \(target.identifier.identifier)")
        }
        guard
            let last = try raw.statement("SELECT ZVALUE FROM ZHKCHANGECOUNTERRECORD WHERE ZNAME = 'seq'").first({
                $0.int64(0)
            })
        else {
            throw RawSQLiteError(description: "no 'seq' counter row")
        }
        let seq = last + 1
        let advance = try raw.statement(
            "UPDATE ZHKCHANGECOUNTERRECORD SET ZVALUE = ?, Z_OPT = Z_OPT + 1 WHERE ZNAME = 'seq'")
        advance.bind(1, seq)
        try advance.run()
        guard
            let (entity, max) = try raw.statement(
                "SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'HKDoseEventRecord'"
            ).first({ ($0.int64(0), $0.int64(1)) })
        else {
            throw RawSQLiteError(description: "no HKDoseEventRecord row in Z_PRIMARYKEY")
        }
        let key = max + 1
        let setKey = try raw.statement("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?")
        setKey.bind(1, key)
        setKey.bind(2, entity)
        try setKey.run()
        let insert = try raw.statement(
            "INSERT INTO ZHKDOSEEVENTRECORD (Z_PK, Z_ENT, Z_OPT, \(doseColumns)) VALUES (?,?,1,?,?,?,?,?,?,NULL,?,4,1,?,1.0,1.0,?)"
        )
        insert.bind(1, key)
        insert.bind(2, entity)
        insert.bind(3, UUID().uuidString)
        insert.bind(4, seq)
        insert.bind(5, date.timeIntervalSinceReferenceDate)
        insert.bind(6, date.timeIntervalSinceReferenceDate)
        insert.bind(7, "Health")
        insert.bind(8, "com.apple.Health")
        insert.bind(9, target.identifier.identifier)
        insert.bind(10, date.timeIntervalSinceReferenceDate)
        insert.bind(11, "count")
        try insert.run()
    }
}
var logged = 0
try await bench.compare(
    "log one dose (its own transaction)", unit: .time,
    note:
        "a latency sample per dose; the C API side looks up the medication, advances the change and key counters and inserts the row in one transaction, as the editor's write does",
    ours: Contender("OpenHealthKit") {
        var samples: [Double] = []
        for _ in 0..<queries {
            logged += 1
            let date = now.addingTimeInterval(Double(logged))
            let (_, t) = try timed {
                try editor.logDose(
                    .init(
                        medication: target.identifier, status: .taken, date: date, scheduledDate: date,
                        scheduledQuantity: 1))
            }
            samples.append(t.wall)
        }
        return .latencies(samples)
    },
    baselines: [
        Contender("SQLite C API") {
            var samples: [Double] = []
            for _ in 0..<queries {
                logged += 1
                let date = now.addingTimeInterval(Double(logged))
                let (_, t) = try timed { try rawLogDose(at: date) }
                samples.append(t.wall)
            }
            return .latencies(samples)
        }
    ])
bench.note(
    "Every logged dose is read back by anchor afterwards: \(try await HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent()], anchor: nil).result(for: app).addedSamples.count) visible events (the C API's rows included)."
)

// MARK: 5. Anchored update latency

let rawUpdates = bench.quick ? 20 : 100
try await bench.compare(
    "anchored update: a dose logged until a long-running query yields it", unit: .time,
    target: "< 10 ms median (issue 5)",
    note: "the C API side inserts the row as above and then reads the rows after the reader's last sequence number",
    ours: Contender("OpenHealthKit") {
        // A long-running query from the current anchor (made before the timer; the C side's rows are behind it).
        let current = try await HKAnchoredObjectQueryDescriptor(
            predicates: [.medicationDoseEvent(HKQuery.predicateForObjects(with: []))], anchor: nil
        ).result(for: app).newAnchor
        var updates = HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent()], anchor: current).results(
            for: app
        ).makeAsyncIterator()
        _ = try await updates.next()  // the initial (empty) result
        var samples: [Double] = []
        for _ in 0..<rawUpdates {
            logged += 1
            let date = now.addingTimeInterval(Double(logged))
            let start = wallSeconds()
            let event = try editor.logDose(
                .init(
                    medication: target.identifier, status: .taken, date: date, scheduledDate: date, scheduledQuantity: 1
                ))
            let update = try await updates.next()
            samples.append(wallSeconds() - start)
            guard update?.addedSamples.map(\.uuid) == [event.uuid] else {
                fatalError("the update did not carry the new dose")
            }
        }
        return .latencies(samples)
    },
    baselines: [
        Contender("SQLite C API") {
            var samples: [Double] = []
            guard var seen = try raw.statement("SELECT MAX(ZSEQ) FROM ZHKDOSEEVENTRECORD").first({ $0.int64(0) }) else {
                throw RawSQLiteError(description: "no rows")
            }
            for _ in 0..<rawUpdates {
                logged += 1
                let date = now.addingTimeInterval(Double(logged))
                let (found, t) = try timed {
                    try rawLogDose(at: date)
                    let s = try raw.statement(
                        "SELECT \(doseColumns) FROM ZHKDOSEEVENTRECORD WHERE ZSEQ > ? AND \(hidden) ORDER BY ZSEQ")
                    s.bind(1, seen)
                    var rows: [RawDose] = []
                    while try s.step() { rows.append(RawDose(s)) }
                    return rows
                }
                guard found.count == 1 else { fatalError("the C API reader saw \(found.count) new rows, not 1") }
                seen = found[0].seq
                samples.append(t.wall)
            }
            return .latencies(samples)
        }
    ])

// MARK: 6. Catalog search per keystroke

let catalog = MedicationCatalog.bundled
let typed = [
    "a", "ac", "ace", "acet", "aceta", "acetam", "acetami", "acetamin", "acetamino", "acetaminop", "acetaminoph",
    "acetaminophe",
    "acetaminophen", "acetaminophen ", "acetaminophen 3", "acetaminophen 32", "acetaminophen 325", "1", "16", "166",
    "1665229",
]
try await bench.compare(
    "catalog search per keystroke (\(catalog.entries.count) concepts)", unit: .time, target: "< 16 ms (a frame)",
    note:
        "a latency sample per keystroke, 25 results at most; the baseline is what an app without an index would write: a scan of every name (its results may differ, so no check)",
    ours: Contender("MedicationCatalog.search") {
        var samples: [Double] = []
        for _ in 0..<10 {
            for prefix in typed { samples.append(timed { catalog.search(prefix, limit: 25).count }.1.wall) }
        }
        return .latencies(samples)
    },
    baselines: [
        Contender("linear scan of names") {
            var samples: [Double] = []
            for _ in 0..<10 {
                for prefix in typed {
                    samples.append(
                        timed {
                            let words = prefix.lowercased().split(separator: " ")
                            return catalog.entries.filter { entry in
                                let name = entry.displayName.lowercased() + " " + entry.rxcui
                                return words.allSatisfy { name.contains($0) }
                            }.prefix(25).count
                        }.1.wall)
                }
            }
            return .latencies(samples)
        }
    ])

// MARK: 7. Through orchard-healthd

// The daemon runs as its own process (the orchard-healthd built beside this program) on a copy of this store.
// This program is registered as the app, granted the same 45 medications; a hard link to it is registered as the
// Health app and logs doses when told. Every call crosses a Unix socket as a Coder message and runs through the
// daemon's filters; the in-process store (what sections 1, 3 and 5 measured) is the baseline.
let daemonRun = try DaemonRun(
    store: url, raw: raw,
    granted: concepts.map(\.identifier.identifier).filter { !withheld.map(\.identifier).contains($0) },
    writing: target.identifier.identifier)
let remote = HKHealthStore(daemonSocketPath: daemonRun.socket)
try await remote.requestPerObjectReadAuthorization(for: .userAnnotatedMedicationType(), predicate: nil)

try await bench.compare(
    "today's last taken dose, through orchard-healthd", unit: .time, target: "< 2 ms median (issue 20)",
    note:
        "the query of section 1 sent to the daemon; baselines: the same query on an in-process store, and the machine's floor (the C API of section 1)",
    ours: Contender("through the daemon") { try await lastDoseLatencies(remote) },
    baselines: [Contender("in-process store") { try await lastDoseLatencies(app) }, lastDoseFloor])

try await bench.compare(
    "whole history by anchor, batches of 100, through orchard-healthd", unit: .rate("samples/s"),
    target: "≥ 100,000 samples/s (issue 20)",
    note:
        "section 3's read, the same app code, through the daemon: once the client sees the app paging through, it asks for the next pages ahead in growing batches (2 to 16 pages, used within 50 ms, cut into the pages the app asks for), so most pages cost no round trip of their own; baselines: the same read in process, and the C API of section 3",
    ours: Contender("through the daemon") { try await readHistory(remote) },
    baselines: [Contender("in-process store") { try await readHistory(app) }, historyFloor])

let daemonUpdates = bench.quick ? 20 : 100
try await bench.compare(
    "anchored update through orchard-healthd: a dose logged by the Health app until the app's query yields it",
    unit: .time, target: "< 10 ms median (issue 20)",
    note:
        "the Health app (a second process) logs through the daemon; the app's long-running query long-polls the daemon; the baseline is section 5's in-process editor and query",
    ours: Contender("through the daemon") {
        let current = try await HKAnchoredObjectQueryDescriptor(
            predicates: [.medicationDoseEvent(HKQuery.predicateForObjects(with: []))], anchor: nil
        ).result(for: remote).newAnchor
        var updates = HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent()], anchor: current).results(
            for: remote
        ).makeAsyncIterator()
        _ = try await updates.next()  // the initial (empty) result
        var samples: [Double] = []
        for _ in 0..<daemonUpdates {
            logged += 1
            let start = wallSeconds()
            try daemonRun.writeLine("\(logged)")
            guard let update = try await updates.next(), update.addedSamples.count == 1 else {
                fatalError("the update did not carry the one new dose")
            }
            samples.append(wallSeconds() - start)
        }
        return .latencies(samples)
    },
    baselines: [
        Contender("in-process store") {
            let current = try await HKAnchoredObjectQueryDescriptor(
                predicates: [.medicationDoseEvent(HKQuery.predicateForObjects(with: []))], anchor: nil
            ).result(for: app).newAnchor
            var updates = HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent()], anchor: current)
                .results(
                    for: app
                ).makeAsyncIterator()
            _ = try await updates.next()
            var samples: [Double] = []
            for _ in 0..<daemonUpdates {
                logged += 1
                let date = now.addingTimeInterval(Double(logged))
                let start = wallSeconds()
                let event = try editor.logDose(.init(medication: target.identifier, status: .taken, date: date))
                guard let update = try await updates.next(), update.addedSamples.map(\.uuid) == [event.uuid] else {
                    fatalError("the update did not carry the new dose")
                }
                samples.append(wallSeconds() - start)
            }
            return .latencies(samples)
        }
    ])
daemonRun.stop()

raw.close()
try bench.finish()
