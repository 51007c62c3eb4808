import Foundation
import OpenHealthKit

// HealthKitBenchmark: N dose events (default 1,000,000) over 50 medications in an OpenCoreData
// SQLite store. Workloads and baselines side by side:
//  1. today's last taken dose of one medication (indexed SQL query, limit 1) vs a linear scan of the
//     same events held in memory;
//  2. anchored update latency: one new dose → the long-running results(for:) sequence yields it,
//     vs a plain sample query for that dose;
//  3. full history by anchor in batches of 100 vs one unbatched anchored read.
// Usage: swift run -c release HealthKitBenchmark [eventCount]

func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await body()
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
func ms(_ s: Double) -> String { String(format: "%.3f ms", s * 1000) }

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

// Events: one per medication per slot, going back from now, every 12th skipped.
let now = Date()
let slots = count / concepts.count
struct Plain { let concept: String; let status: Int; let start: Date }
var plain: [Plain] = []
plain.reserveCapacity(count)
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
    }
    if !batch.isEmpty { try editor.logDoses(batch) }
}
print("loaded \(slots * concepts.count) dose events in \(String(format: "%.1f", loadTime)) s")

// 1. Today's last taken dose.
let target = concepts[17]
let startOfDay = Calendar.current.startOfDay(for: now)
let predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [
    HKQuery.predicateForSamples(withStart: startOfDay, end: nil, options: .strictStartDate),
    HKQuery.predicateForMedicationDoseEvent(medicationConceptIdentifier: target.identifier),
    HKQuery.predicateForMedicationDoseEvent(status: .taken),
])
let lastDose = HKSampleQueryDescriptor(predicates: [.medicationDoseEvent(predicate)],
                                       sortDescriptors: [SortDescriptor(\.startDate, order: .reverse)], limit: 1)
var queryTimes: [Double] = [], scanTimes: [Double] = []
var found: Date? = nil, scanned: Date? = nil
for _ in 0..<200 {
    queryTimes.append(try await seconds { found = try await lastDose.result(for: app).first?.startDate })
    scanTimes.append(await seconds {
        scanned = plain.lazy.filter { $0.concept == target.identifier.identifier && $0.status == 4 && $0.start >= startOfDay }.map(\.start).max()
    })
}
precondition(found == scanned, "query and scan disagree: \(String(describing: found)) vs \(String(describing: scanned))")
print("1. today's last taken dose: median \(ms(median(queryTimes))) (target < 2 ms); in-memory scan \(ms(median(scanTimes))); ratio scan/query \(String(format: "%.1f", median(scanTimes) / median(queryTimes)))x")

// 2. Anchored update latency.
func measureUpdates(editor: HKHealthAppEditor, app: HKHealthStore, medication: HKHealthConceptIdentifier, at now: Date)
    async throws -> (latencies: [Double], plainQuery: [Double]) {
    let current = try await HKAnchoredObjectQueryDescriptor(
        predicates: [.medicationDoseEvent(HKQuery.predicateForSamples(withStart: now.addingTimeInterval(60), end: nil))], anchor: nil)
        .result(for: app).newAnchor
    var latencies: [Double] = [], plainQuery: [Double] = []
    var updates = HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent()], anchor: current).results(for: app).makeAsyncIterator()
    _ = try await updates.next() // the initial (empty) result
    for i in 0..<20 {
        let clock = ContinuousClock.now
        let event = try editor.logDose(.init(medication: medication, status: .taken, date: now.addingTimeInterval(Double(i))))
        let result = try await updates.next()
        let d = ContinuousClock.now - clock
        precondition(result?.addedSamples.map(\.uuid) == [event.uuid], "the update did not carry the new dose")
        latencies.append(Double(d.components.attoseconds) / 1e18 + Double(d.components.seconds))
        plainQuery.append(try await seconds {
            _ = try await HKSampleQueryDescriptor(predicates: [.medicationDoseEvent(HKQuery.predicateForObjects(with: [event.uuid]))],
                                                  sortDescriptors: []).result(for: app)
        })
    }
    return (latencies, plainQuery)
}
let (latencies, plainQuery) = try await measureUpdates(editor: editor, app: app, medication: target.identifier, at: now)
print("2. anchored update latency: median \(ms(median(latencies))) (target < 10 ms); plain query for the dose \(ms(median(plainQuery))); ratio \(String(format: "%.1f", median(latencies) / median(plainQuery)))x")

// 3. Full history by anchor, batches of 100, vs one unbatched read.
var anchor: HKQueryAnchor? = nil
var total = 0
let batched = try await seconds {
    while true {
        let page = try await HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent()], anchor: anchor, limit: 100).result(for: app)
        if page.addedSamples.isEmpty { break }
        total += page.addedSamples.count
        anchor = page.newAnchor
    }
}
var unbatchedCount = 0
let unbatched = try await seconds {
    unbatchedCount = try await HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent()], anchor: nil).result(for: app).addedSamples.count
}
precondition(total == unbatchedCount, "batched read saw \(total) samples, unbatched \(unbatchedCount)")
print("3. full history by anchor: \(total) samples, batches of 100: \(Int(Double(total) / batched)) samples/s (target >= 100,000); one read: \(Int(Double(total) / unbatched)) samples/s; ratio \(String(format: "%.2f", unbatched / batched))")
