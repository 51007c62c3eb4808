import Foundation
import Testing

@testable import OpenHealthKit

/// The medication list and dose history as CSV and as a FHIR R4 Bundle. The Bundle is checked by an independent
/// validator (fhir.resources' R4B models, installed by scripts/install-test-deps), not by our own reading of it.
@Suite struct ExportTests {
    /// A store with a nicknamed Tylenol (every log status, scheduled and as needed), an archived ciprofloxacin, and
    /// a withheld amoxicillin the app may not read.
    func seeded() async throws -> (StoreFixture, HKHealthStore) {
        let f = try StoreFixture(withheld: ["rxnorm:308182"])
        let tylenol = f.concept("313782")
        let cipro = f.concept("1665229")
        let hidden = f.concept("308182")
        try await f.editor.addMedication(tylenol, nickname: "=HYPERLINK(\"http://evil.example\"), \"pain\"")
        try await f.editor.addMedication(cipro)
        try await f.editor.addMedication(hidden)
        _ = try f.editor.updateMedication(cipro.identifier, isArchived: true)
        var logs: [HKHealthAppEditor.DoseLog] = []
        for (i, status) in [HKMedicationDoseEvent.LogStatus.taken, .skipped, .notInteracted, .snoozed, .notLogged]
            .enumerated()
        {
            let at = date(2026, 3, 1, 8 + i)
            logs.append(
                .init(medication: tylenol.identifier, status: status, date: at, scheduledDate: at, scheduledQuantity: 2)
            )
        }
        logs.append(
            .init(medication: tylenol.identifier, status: .taken, date: date(2026, 3, 2, 22), doseQuantity: 0.5))
        logs.append(.init(medication: cipro.identifier, status: .taken, date: date(2026, 2, 1, 9), doseQuantity: 1))
        logs.append(.init(medication: hidden.identifier, status: .taken, date: date(2026, 3, 1, 9)))
        try f.editor.logDoses(logs)
        let app = try f.app()
        try await app.requestPerObjectReadAuthorization(for: .userAnnotatedMedicationType(), predicate: nil)
        return (f, app)
    }

    @Test func csvHoldsEveryGrantedRowQuotedAndSafeForSpreadsheets() async throws {
        let (_, app) = try await seeded()
        let export = try await HealthRecordExport.read(from: app)
        let medications = export.medicationsCSV()
        let lines = medications.components(separatedBy: "\r\n")
        #expect(lines.first == "name,nickname,rxnorm,medication,form,archived,scheduled,concept_identifier")
        #expect(lines.count == 4 && lines.last == "")  // two medications, the withheld one absent
        // A formula is neutralised with a leading quote; its quotes and comma are quoted as RFC 4180 says.
        #expect(medications.contains("\"'=HYPERLINK(\"\"http://evil.example\"\"), \"\"pain\"\"\""))
        #expect(!medications.contains("308182"))
        #expect(
            lines.contains {
                $0.hasPrefix("40 ML ciprofloxacin 10 MG/ML Injection,,1665229,") && $0.contains(",injection,yes,no,")
            })
        let history = export.doseEventsCSV(timeZone: TimeZone(identifier: "America/New_York")!)
        let rows = history.components(separatedBy: "\r\n").dropLast()
        #expect(rows.first == "time,medication,rxnorm,status,dose,unit,scheduled_time,scheduled_dose,uuid")
        #expect(rows.count == 1 + 7)  // every status of the granted medications, oldest first
        #expect(rows[1].hasPrefix("2026-02-01T04:00:00-05:00,40 ML ciprofloxacin"))
        #expect(
            rows.contains {
                $0.hasPrefix("2026-03-01T03:00:00-05:00,")
                    && $0.contains(",313782,taken,2,count,2026-03-01T03:00:00-05:00,2,")
            })
        #expect(rows.contains { $0.contains(",snoozed,") } && rows.contains { $0.contains(",not logged,") })
        #expect(rows.contains { $0.contains(",taken,0.5,count,,,") })  // as needed: no schedule
    }

    @Test func theFHIRBundlePassesAnIndependentValidator() async throws {
        let (_, app) = try await seeded()
        let export = try await HealthRecordExport.read(from: app)
        let data = try export.fhirBundle(patientName: "Alex Doe", generatedAt: date(2026, 3, 3))
        let verdict = try FHIRValidator.check(data)
        #expect(verdict["ok"] as? Bool == true, "\(verdict)")
        let counts = verdict["counts"] as? [String: Int] ?? [:]
        // Taken (twice for Tylenol, once for cipro), skipped and missed are administrations; snoozed and undone are not.
        #expect(counts == ["Patient": 1, "MedicationStatement": 2, "MedicationAdministration": 5])
        let bundle = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let resources = (bundle["entry"] as? [[String: Any]] ?? []).compactMap { $0["resource"] as? [String: Any] }
        let statements = resources.filter { $0["resourceType"] as? String == "MedicationStatement" }
        #expect(Set(statements.compactMap { $0["status"] as? String }) == ["active", "stopped"])
        let codes = statements.compactMap {
            (($0["medicationCodeableConcept"] as? [String: Any])?["coding"] as? [[String: Any]])?.first
        }
        #expect(Set(codes.compactMap { $0["code"] as? String }) == ["313782", "1665229"])
        #expect(codes.allSatisfy { $0["system"] as? String == HKClinicalCoding.rxNormSystem })
        #expect(!String(decoding: data, as: UTF8.self).contains("308182"))
        // The same medication gets the same id in every export.
        let again = try export.fhirBundle()
        let ids = { (d: Data) -> Set<String> in
            let b = (try? JSONSerialization.jsonObject(with: d)) as? [String: Any]
            return Set(
                ((b?["entry"] as? [[String: Any]]) ?? []).compactMap {
                    let r = $0["resource"] as? [String: Any]
                    return r?["resourceType"] as? String == "MedicationStatement" ? r?["id"] as? String : nil
                })
        }
        #expect(ids(data) == ids(again))
    }

    @Test func theValidatorIsNotVacuous() throws {
        // A status outside MedicationAdministration's value set, a dangling reference, and a field FHIR does not
        // have are each refused.
        let bad = """
            {"resourceType":"Bundle","type":"collection","entry":[{"fullUrl":"urn:uuid:1","resource":{
            "resourceType":"MedicationAdministration","id":"1","status":"taken",
            "medicationCodeableConcept":{"text":"x"},"subject":{"reference":"urn:uuid:2"},
            "effectiveDateTime":"2026-01-01T00:00:00Z"}}]}
            """
        let verdict = try FHIRValidator.check(Data(bad.utf8))
        #expect(verdict["ok"] as? Bool == false)
        #expect((verdict["error"] as? String ?? "").contains("status"))
        let dangling = bad.replacingOccurrences(of: "\"taken\"", with: "\"completed\"")
        let second = try FHIRValidator.check(Data(dangling.utf8))
        #expect((second["error"] as? String ?? "").contains("resolves to no entry"))
        let unknown = dangling.replacingOccurrences(of: "\"id\":\"1\",", with: "\"id\":\"1\",\"takenBy\":\"me\",")
        let third = try FHIRValidator.check(Data(unknown.utf8))
        #expect((third["error"] as? String ?? "").contains("takenBy"))
    }

    @Test func anExportOfADoseWithoutItsMedicationIsRefused() async throws {
        let (_, app) = try await seeded()
        let export = try await HealthRecordExport.read(from: app)
        #expect(throws: HKError.self) {
            _ = try HealthRecordExport(medications: [], doseEvents: export.doseEvents)
        }
    }
}

/// Runs scripts/validate-fhir.py with the project's test Python (see scripts/install-test-deps).
enum FHIRValidator {
    static func check(_ bundle: Data) throws -> [String: Any] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let python = root.appendingPathComponent(".build/test-python/bin/python3").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw HKError(.errorInvalidArgument, "no FHIR validator at \(python): run scripts/install-test-deps")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fhir-\(UUID().uuidString).json")
        try bundle.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }  // a temporary file: gone is gone
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [root.appendingPathComponent("scripts/validate-fhir.py").path, file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let verdict = try JSONSerialization.jsonObject(with: output) as? [String: Any] else {
            throw HKError(.errorInvalidArgument, "the validator printed \(String(decoding: output, as: UTF8.self))")
        }
        return verdict
    }
}
