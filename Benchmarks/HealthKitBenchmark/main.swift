import Foundation
import GRDB
import OpenHealthKit

// HealthKitBenchmark: N dose events (default 1,000,000) over 50 medications in an OpenCoreData
// SQLite store. Each workload prints its figure next to the issue's target and a baseline:
//  1. today's last taken dose of one medication (target < 2 ms median) vs the same SQL on raw SQLite
//     (GRDB, same file, same index) and a linear scan of the events held in memory;
//  2. anchored update latency: one new dose → the long-running results(for:) sequence yields it
//     (target < 10 ms), measured with a tenth of the history and with all of it (proportional to the
//     change, not the history: the ratio stays near 1), vs a plain sample query for that dose;
//  3. the whole history by anchor in batches of 100 (target >= 100,000 samples/s) vs the same pages
//     on raw SQLite and one unbatched anchored read;
//  4. catalog search as the person types (per keystroke) vs a linear scan of the catalog names.
// Usage: swift run -c release HealthKitBenchmark [eventCount]

func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await body()
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

/// CPU seconds this process used (all threads): the machine may be shared, so rates are also given
/// per CPU-second.
func cpuSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
func ms(_ s: Double) -> String { String(format: "%.3f ms", s * 1000) }
func verdict(_ ok: Bool) -> String { ok ? "MET" : "MISSED" }

let count = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 1_000_000
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("HealthKitBenchmark-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: directory) }
let url = directory.appendingPathComponent("Health.sqlite")
let allow = HKClosureAuthorizationHandler(medications: { _, offered, _ in Set(offered.map(\.medication.identifier)) },
                                          types: { _, share, read in (share, read) })
let editor = try HKHealthAppEditor(storeURL: url, authorizationHandler: allow)
let concepts = MedicationCatalog.bundled.entries.prefix(50).map(\.concept)
for concept in concepts { try await editor.addMedication(concept) }
let app = try HKHealthStore(storeURL: url, bundleIdentifier: "com.example.bench", authorizationHandler: allow)
try await app.requestPerObjectReadAuthorization(for: .userAnnotatedMedicationType(), predicate: nil)
let target = concepts[17]

// 2. Anchored update latency (measured twice: after a tenth of the history is loaded, and after all).
func measureUpdates(at now: Date, target: HKMedicationConcept) async throws -> (latencies: [Double], plainQuery: [Double]) {
    let current = try await HKAnchoredObjectQueryDescriptor(
        predicates: [.medicationDoseEvent(HKQuery.predicateForObjects(with: []))], anchor: nil)
        .result(for: app).newAnchor
    var latencies: [Double] = [], plainQuery: [Double] = []
    var updates = HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent()], anchor: current).results(for: app).makeAsyncIterator()
    _ = try await updates.next() // the initial (empty) result
    for i in 0..<30 {
        let clock = ContinuousClock.now
        let event = try editor.logDose(.init(medication: target.identifier, status: .taken, date: now.addingTimeInterval(Double(i))))
        let result = try await updates.next()
        let d = ContinuousClock.now - clock
        precondition(result?.addedSamples.map(\.uuid) == [event.uuid], "the update did not carry the new dose")
        latencies.append(Double(d.components.attoseconds) / 1e18 + Double(d.components.seconds))
        plainQuery.append(try await seconds {
            _ = try await HKSampleQueryDescriptor(predicates: [.medicationDoseEvent(HKQuery.predicateForObjects(with: [event.uuid]))],
                                                  sortDescriptors: []).result(for: app)
        })
        try editor.deleteDose(event) // keep the history as it was (the deletion is the next update)
        let deletion = try await updates.next()
        precondition(deletion?.deletedObjects.map(\.uuid) == [event.uuid], "the update did not carry the deletion")
    }
    return (latencies, plainQuery)
}

// Events: one per medication per slot, going back from now, every 12th skipped.
let now = Date()
let slots = count / concepts.count
struct Plain { let concept: String; let status: Int; let start: Date }
var plain: [Plain] = []
plain.reserveCapacity(count)
var early: (latencies: [Double], plainQuery: [Double])? = nil
let loadTime = try await seconds {
    var batch: [HKHealthAppEditor.DoseLog] = []
    for slot in 0..<slots {
        let when = now.addingTimeInterval(-Double(slots - slot) * 1800)
        for concept in concepts {
            let status: HKMedicationDoseEvent.LogStatus = slot % 12 == 0 ? .skipped : .taken
            batch.append(.init(medication: concept.identifier, status: status, date: when, scheduledDate: when, scheduledQuantity: 1))
            plain.append(Plain(concept: concept.identifier.identifier, status: status.rawValue, start: when))
        }
        if batch.count >= 10_000 { try editor.logDoses(batch); batch.removeAll(keepingCapacity: true) }
        if early == nil, plain.count >= count / 10 {
            if !batch.isEmpty { try editor.logDoses(batch); batch.removeAll(keepingCapacity: true) }
            early = try await measureUpdates(at: now, target: target)
        }
    }
    if !batch.isEmpty { try editor.logDoses(batch) }
}
print("loaded \(slots * concepts.count) dose events over \(concepts.count) medications in \(String(format: "%.1f", loadTime)) s")

// The raw-SQLite baseline reads the same file with GRDB (OpenCoreData's tables: Z + upper-cased names).
var rawConfiguration = Configuration()
rawConfiguration.readonly = true
let raw = try DatabasePool(path: url.path, configuration: rawConfiguration)

// 1. Today's last taken dose.
let startOfDay = Calendar.current.startOfDay(for: now)
let predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [
    HKQuery.predicateForSamples(withStart: startOfDay, end: nil, options: .strictStartDate),
    HKQuery.predicateForMedicationDoseEvent(medicationConceptIdentifier: target.identifier),
    HKQuery.predicateForMedicationDoseEvent(status: .taken),
])
let lastDose = HKSampleQueryDescriptor(predicates: [.medicationDoseEvent(predicate)],
                                       sortDescriptors: [SortDescriptor(\.startDate, order: .reverse)], limit: 1)
let rawLastSQL = """
    SELECT ZUUID, ZSTARTDATE, ZDOSEQUANTITY FROM ZHKDOSEEVENTRECORD
    WHERE ZMEDICATIONCONCEPTIDENTIFIER = ? AND ZLOGSTATUS = 4 AND ZSTARTDATE >= ? ORDER BY ZSTARTDATE DESC LIMIT 1
    """
var queryTimes: [Double] = [], rawTimes: [Double] = [], scanTimes: [Double] = []
var found: Date? = nil, rawFound: Date? = nil, scanned: Date? = nil
for _ in 0..<200 {
    queryTimes.append(try await seconds { found = try await lastDose.result(for: app).first?.startDate })
    rawTimes.append(try await seconds {
        rawFound = try raw.read { db in
            try Row.fetchOne(db, sql: rawLastSQL, arguments: [target.identifier.identifier, startOfDay.timeIntervalSinceReferenceDate])
                .map { Date(timeIntervalSinceReferenceDate: $0["ZSTARTDATE"]) }
        }
    })
}
for _ in 0..<20 {
    scanTimes.append(await seconds {
        scanned = plain.lazy.filter { $0.concept == target.identifier.identifier && $0.status == 4 && $0.start >= startOfDay }.map(\.start).max()
    })
}
precondition(found == scanned && found == rawFound, "query, raw SQL and scan disagree: \(String(describing: found)) \(String(describing: rawFound)) \(String(describing: scanned))")
let q1 = median(queryTimes)
print("1. today's last taken dose: median \(ms(q1)) (target < 2 ms: \(verdict(q1 < 0.002))); raw SQLite \(ms(median(rawTimes))) (ratio \(String(format: "%.1f", q1 / median(rawTimes)))x); in-memory scan \(ms(median(scanTimes)))")

// 2. Anchored update latency with the whole history.
let (latencies, plainQuery) = try await measureUpdates(at: now, target: target)
let q2 = median(latencies)
let earlyMedian = early.map { median($0.latencies) } ?? q2
print("2. anchored update latency: median \(ms(q2)) (target < 10 ms: \(verdict(q2 < 0.010))); with a tenth of the history \(ms(earlyMedian)) (ratio \(String(format: "%.2f", q2 / earlyMedian)); about 1 = cost of the change, not the history); plain query for the dose \(ms(median(plainQuery)))")

// 3. Full history by anchor, batches of 100, vs raw SQLite pages and one unbatched read.
var anchor: HKQueryAnchor? = nil
var total = 0
let cpuBefore = cpuSeconds()
let batched = try await seconds {
    while true {
        let page = try await HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent()], anchor: anchor, limit: 100).result(for: app)
        if page.addedSamples.isEmpty { break }
        total += page.addedSamples.count
        anchor = page.newAnchor
    }
}
let batchedCPU = cpuSeconds() - cpuBefore
struct RawDose { let seq: Int64; let uuid: String; let concept: String; let status: Int; let start: Double; let scheduled: Double?; let quantity: Double? }
var rawTotal = 0
let rawCPUBefore = cpuSeconds()
let rawBatched = try await seconds {
    var last: Int64 = 0
    while true {
        let page = try raw.read { db in
            try Row.fetchAll(db, sql: """
                SELECT ZSEQ, ZUUID, ZMEDICATIONCONCEPTIDENTIFIER, ZLOGSTATUS, ZSTARTDATE, ZSCHEDULEDDATE, ZDOSEQUANTITY
                FROM ZHKDOSEEVENTRECORD WHERE ZSEQ > ? ORDER BY ZSEQ LIMIT 100
                """, arguments: [last]).map {
                RawDose(seq: $0[0], uuid: $0[1], concept: $0[2], status: $0[3], start: $0[4], scheduled: $0[5], quantity: $0[6])
            }
        }
        guard let end = page.last else { break }
        rawTotal += page.count
        last = end.seq
    }
}
let rawCPU = cpuSeconds() - rawCPUBefore
var unbatchedCount = 0
let unbatched = try await seconds {
    unbatchedCount = try await HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent()], anchor: nil).result(for: app).addedSamples.count
}
precondition(total == unbatchedCount && total == rawTotal, "batched read saw \(total) samples, unbatched \(unbatchedCount), raw \(rawTotal)")
let rate = Double(total) / batched
print("3. whole history by anchor: \(total) samples in batches of 100: \(Int(rate)) samples/s (target >= 100,000: \(verdict(rate >= 100_000))); raw SQLite pages \(Int(Double(total) / rawBatched)) samples/s (ratio \(String(format: "%.1f", (Double(total) / rawBatched) / rate))x); one unbatched read \(Int(Double(total) / unbatched)) samples/s; per CPU-second: \(Int(Double(total) / batchedCPU)) vs raw \(Int(Double(total) / rawCPU)) (\(String(format: "%.1f", batched / batchedCPU))x wall/CPU: the machine is shared when this is well above 1)")

// 4. Catalog search per keystroke.
let catalog = MedicationCatalog.bundled
let typed = ["a", "ac", "ace", "acet", "aceta", "acetam", "acetami", "acetamin", "acetamino", "acetaminop", "acetaminoph", "acetaminophe",
             "acetaminophen", "acetaminophen ", "acetaminophen 3", "acetaminophen 32", "acetaminophen 325", "1", "16", "166", "1665229"]
var searchTimes: [Double] = [], linearTimes: [Double] = []
for _ in 0..<50 {
    for prefix in typed {
        var indexed = 0, linear = 0
        searchTimes.append(await seconds { indexed = catalog.search(prefix, limit: 25).count })
        linearTimes.append(await seconds {
            let words = prefix.lowercased().split(separator: " ")
            linear = catalog.entries.filter { entry in
                let name = entry.displayName.lowercased() + " " + entry.rxcui
                return words.allSatisfy { name.contains($0) }
            }.prefix(25).count
        })
        _ = (indexed, linear)
    }
}
print("4. catalog search per keystroke (\(catalog.entries.count) concepts): median \(ms(median(searchTimes))), slowest \(ms(searchTimes.max() ?? 0)) (a keystroke's budget ~16 ms); linear scan of names \(ms(median(linearTimes)))")
