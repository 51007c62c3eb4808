import Foundation
import OpenHealthKit

#if canImport(Glibc)
    import Glibc
#endif

/// A client of orchard-healthd for the daemon tests: each run does one thing through `HKHealthStore` (or, for the
/// hostile commands, through a raw socket) and prints one JSON line. Copies of this program are registered under
/// different bundle identifiers, so the daemon tells them apart by the program the kernel says they run.
///
/// usage: HealthProbe SOCKET COMMAND [ARGS]; `HEALTH_CLAIM` sets the bundle identifier the process claims.

func output(_ value: Any) {
    let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])) ?? Data("{}".utf8)  // plain values: always encodable
    FileHandle.standardOutput.write(data + Data("\n".utf8))
}

func failure(_ error: any Error) -> Never {
    output(["error": "\(error)"])
    exit(2)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else {
    output(["error": "usage: HealthProbe SOCKET COMMAND [ARGS]"])
    exit(64)
}
let socketPath = arguments[0]
let command = arguments[1]
let rest = Array(arguments.dropFirst(2))
let claim = ProcessInfo.processInfo.environment["HEALTH_CLAIM"]
let store = HKHealthStore(daemonSocketPath: socketPath, bundleIdentifier: claim)
let doseType = HKObjectType.medicationDoseEventType()

/// How many times an observer query's handler ran.
final class UpdateCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }

    /// Waits until the count reaches `target` or `seconds` pass; returns whether it did.
    func wait(for target: Int, seconds: Double) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while value < target && Date() < deadline { try? await Task.sleep(for: .milliseconds(10)) }  // poll
        return value >= target
    }
}

/// The UUID of the n-th dose a writer logs (the same on every retry).
func doseUUID(_ index: Int, _ code: String) -> UUID {
    UUID(uuidString: String(format: "%08x-0000-4000-8000-%012x", Int(code) ?? 0, index))!
}

do {
    switch command {
    case "request-medications":
        try await store.requestPerObjectReadAuthorization(for: .userAnnotatedMedicationType(), predicate: nil)
        output(["ok": true])
    case "request-types":
        let types = Set(rest.map { HKCategoryType(HKCategoryTypeIdentifier(rawValue: $0)) })
        try await store.requestAuthorization(toShare: types, read: types)
        output([
            "share": rest.map {
                store.authorizationStatus(for: HKCategoryType(HKCategoryTypeIdentifier(rawValue: $0))).rawValue
            }
        ])
    case "medications":
        let list = try await HKUserAnnotatedMedicationQueryDescriptor().result(for: store)
        output(["medications": list.map(\.medication.identifier.identifier).sorted()])
    case "default-medications":
        // HKHealthStore() itself: it finds the daemon through ORCHARD_HEALTHD_SOCKET.
        let list = try await HKUserAnnotatedMedicationQueryDescriptor().result(for: HKHealthStore())
        output(["medications": list.map(\.medication.identifier.identifier).sorted()])
    case "doses":
        let doses = try await HKSampleQueryDescriptor(predicates: [.medicationDoseEvent()], sortDescriptors: []).result(
            for: store)
        output(["doses": doses.map(\.uuid.uuidString).sorted()])
    case "sample-query":
        // The class-based form, with a predicate that travels to the daemon.
        let result: [String] = try await withCheckedThrowingContinuation { continuation in
            let query = HKSampleQuery(
                sampleType: doseType, predicate: HKQuery.predicateForMedicationDoseEvent(status: .taken), limit: 0,
                sortDescriptors: nil
            ) { _, samples, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: (samples ?? []).map(\.uuid.uuidString).sorted())
                }
            }
            store.execute(query)
        }
        output(["doses": result])
    case "anchored":
        let anchor = rest.first.flatMap { Data(base64Encoded: $0) }.flatMap {
            try? JSONDecoder().decode(HKQueryAnchor.self, from: $0)
        }  // no anchor given: nil
        let result = try await HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent()], anchor: anchor)
            .result(for: store)
        output([
            "added": result.addedSamples.map(\.uuid.uuidString).sorted(),
            "deleted": result.deletedObjects.map(\.uuid.uuidString).sorted(),
            "anchor": try JSONEncoder().encode(result.newAnchor).base64EncodedString(),
        ])
    case "page-through":
        // page-through LIMIT [PAUSE GO]: reads every dose event by anchor, LIMIT at a time, printing the pages; before
        // page PAUSE it prints {"paused": PAUSE} and waits until the file GO exists.
        let limit = Int(rest[0]) ?? 5
        let pause = rest.count > 2 ? Int(rest[1]) : nil
        var anchor: HKQueryAnchor? = nil
        var pages: [[String]] = []
        while true {
            if let pause, pages.count == pause {
                output(["paused": pause])
                while !FileManager.default.fileExists(atPath: rest[2]) { try await Task.sleep(for: .milliseconds(10)) }
            }
            let page = try await HKAnchoredObjectQueryDescriptor(
                predicates: [.medicationDoseEvent()], anchor: anchor, limit: limit
            ).result(for: store)
            if page.addedSamples.isEmpty && page.deletedObjects.isEmpty { break }
            pages.append(
                page.addedSamples.map(\.uuid.uuidString) + page.deletedObjects.map { "-" + $0.uuid.uuidString })
            anchor = page.newAnchor
        }
        output(["pages": pages])
    case "observe":
        // Waits (at most the given seconds) for an observer query's first update after the initial one.
        let seconds = Double(rest.first ?? "5") ?? 5
        let updates = UpdateCount()
        let query = HKObserverQuery(sampleType: doseType, predicate: nil) { _, completion, _ in
            updates.add()
            completion()
        }
        store.execute(query)
        guard await updates.wait(for: 1, seconds: 10) else { throw HKError(.errorNoData, "no initial update") }
        output(["ready": true])
        let changed = await updates.wait(for: 2, seconds: seconds)
        store.stop(query)
        output(["changed": changed])
    case "add-medication":
        let editor = HealthAppDaemonEditor(store: store)
        for code in rest {
            guard let entry = MedicationCatalog.bundled.entry(rxcui: code) else {
                throw HKError(.errorInvalidArgument, "no \(code)")
            }
            _ = try await editor.addMedication(entry.concept)
        }
        output(["ok": true])
    case "log-doses":
        // log-doses RXCUI COUNT: logs COUNT doses with fixed UUIDs, retrying each until the daemon answers; prints the
        // index of every dose the daemon confirmed, as it confirms it.
        let editor = HealthAppDaemonEditor(store: store)
        let medication = HKHealthConceptIdentifier(domain: .medication, identifier: "rxnorm:\(rest[0])")
        let count = Int(rest[1]) ?? 0
        let start = Date(timeIntervalSince1970: 1_780_000_000)
        var retries = 0
        output(["writing": count])
        for index in 0..<count {
            var log = HKHealthAppEditor.DoseLog(
                medication: medication, status: .taken, date: start.addingTimeInterval(Double(index) * 60))
            log.uuid = doseUUID(index, rest[0])
            while true {
                do {
                    let events = try await editor.logDoses([log])
                    guard events.map(\.uuid) == [doseUUID(index, rest[0])] else {
                        throw HKError(.errorInvalidArgument, "wrong event back")
                    }
                    output(["confirmed": index])
                    break
                } catch {
                    retries += 1
                    // Why, for the first retries: a writer that never gets through says what stopped it.
                    if retries <= 50 { output(["retry": index, "error": "\(error)"]) }
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
        }
        output(["done": count, "retries": retries])
    case "delete-dose":
        try await HealthAppDaemonEditor(store: store).deleteDose(uuid: UUID(uuidString: rest[0])!)
        output(["ok": true])
    case "read-file":
        // Tries to read a file around the daemon.
        do {
            _ = try Data(contentsOf: URL(fileURLWithPath: rest[0]))
            output(["read": true])
        } catch {
            output(["read": false, "reason": "\(error)"])
        }
    case "flood":
        // flood COUNT SECONDS: writes COUNT well-formed queries without reading a reply, for at most SECONDS.
        output(try RawClient.flood(socketPath, count: Int(rest[0]) ?? 1_000_000, seconds: Double(rest[1]) ?? 10))
    case "garbage":
        output(try RawClient.garbage(socketPath, kind: rest.first ?? "junk"))
    default:
        output(["error": "unknown command \(command)"])
        exit(64)
    }
} catch {
    failure(error)
}
