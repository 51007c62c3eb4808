import Foundation
import OpenHealthKit

/// The example as another process on a shared store file: the Health app logging doses on a watch
/// while the sample app charts them, or an app restarted with an archived anchor.
enum HelperCommands {
    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    static let usage = "usage: MedicationsSample log-dose STORE CONCEPT [COUNT] | changes STORE BUNDLE ANCHOR|-"

    static func run(_ arguments: [String]) async throws {
        switch arguments.first {
        case "log-dose":
            guard arguments.count == 3 || arguments.count == 4 else { throw UsageError(description: usage) }
            guard let count = arguments.count == 4 ? Int(arguments[3]) : 1, count > 0 else {
                throw UsageError(description: "log-dose: COUNT must be a positive number, got \(arguments[3])")
            }
            let editor = try HKHealthAppEditor(storeURL: URL(fileURLWithPath: arguments[1]))
            let medication = HKHealthConceptIdentifier(domain: .medication, identifier: arguments[2])
            for _ in 0..<count {
                // One transaction per dose, as a person logging from a watch would.
                let event = try editor.logDose(.init(medication: medication, status: .taken, date: Date()))
                print("logged \(event.uuid.uuidString)")
            }
        case "changes":
            guard arguments.count == 4 else { throw UsageError(description: usage) }
            let store = try HKHealthStore(storeURL: URL(fileURLWithPath: arguments[1]), bundleIdentifier: arguments[2])
            let anchor = arguments[3] == "-" ? nil : try HKQueryAnchor(data: try hexData(arguments[3]))
            let result = try await HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent()], anchor: anchor).result(for: store)
            for sample in result.addedSamples { print("added \(sample.uuid.uuidString)") }
            for deleted in result.deletedObjects { print("deleted \(deleted.uuid.uuidString)") }
            print("anchor \(result.newAnchor.data.map { String(format: "%02x", $0) }.joined())")
        default:
            throw UsageError(description: usage)
        }
    }

    static func hexData(_ hex: String) throws -> Data {
        guard hex.count % 2 == 0 else { throw UsageError(description: "anchor \(hex) is not hex bytes") }
        var data = Data()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { throw UsageError(description: "anchor \(hex) is not hex bytes") }
            data.append(byte)
            index = next
        }
        return data
    }
}
