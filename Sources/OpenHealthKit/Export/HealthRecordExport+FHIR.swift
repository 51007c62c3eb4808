import OpenCoreData

extension HealthRecordExport {
    /// The export as a FHIR R4 Bundle (type `collection`, JSON): a `Patient`, one `MedicationStatement` per
    /// medication (`active`, or `stopped` when archived), and one `MedicationAdministration` per dose taken
    /// (`completed`), skipped or missed (`not-done`, with the reason as text). Medications carry their codings
    /// (RxNorm's system URL for RxNorm codes) and the person's name for them as the concept's text.
    ///
    /// Snoozed and undone logs are not administrations and are left out; the CSV history keeps them.
    /// - Parameters:
    ///   - patientName: the person's name, when the doctor should see it (the Patient is otherwise anonymous).
    ///   - generatedAt: the Bundle's timestamp.
    public func fhirBundle(patientName: String? = nil, generatedAt: Date = Date()) throws -> Data {
        let time = ISO8601DateFormatter()
        time.timeZone = TimeZone(identifier: "UTC")
        time.formatOptions = [.withInternetDateTime]
        let patientID = UUID().uuidString.lowercased()
        var patient: [String: Any] = ["resourceType": "Patient", "id": patientID]
        if let patientName, !patientName.isEmpty { patient["name"] = [["text": patientName]] }
        let subject = ["reference": "urn:uuid:\(patientID)"]
        var entries: [[String: Any]] = [["fullUrl": "urn:uuid:\(patientID)", "resource": patient]]
        for entry in medications {
            let id = Self.resourceID(entry.medication.identifier.identifier)
            entries.append([
                "fullUrl": "urn:uuid:\(id)",
                "resource": [
                    "resourceType": "MedicationStatement", "id": id, "status": entry.isArchived ? "stopped" : "active",
                    "medicationCodeableConcept": Self.concept(entry), "subject": subject,
                ] as [String: Any],
            ])
        }
        for event in doseEvents {
            let (status, reason): (String, String?)
            switch event.logStatus {
            case .taken: (status, reason) = ("completed", nil)
            case .skipped: (status, reason) = ("not-done", "skipped")
            case .notInteracted, .notificationNotSent: (status, reason) = ("not-done", "missed")
            case .snoozed, .notLogged: continue
            }
            let id = event.uuid.uuidString.lowercased()
            var resource: [String: Any] = [
                "resourceType": "MedicationAdministration", "id": id, "status": status,
                "medicationCodeableConcept": Self.concept(medication(of: event)), "subject": subject,
                "effectiveDateTime": time.string(from: event.startDate),
                "identifier": [["system": "urn:ietf:rfc:3986", "value": "urn:uuid:\(id)"]],
            ]
            if let reason { resource["statusReason"] = [["text": reason]] }
            if status == "completed", let dose = event.doseQuantity {
                resource["dosage"] = ["dose": ["value": dose, "unit": event.unit.unitString]]
            }
            entries.append(["fullUrl": "urn:uuid:\(id)", "resource": resource])
        }
        let bundle: [String: Any] = [
            "resourceType": "Bundle", "type": "collection", "timestamp": time.string(from: generatedAt),
            "entry": entries,
        ]
        return try JSONSerialization.data(withJSONObject: bundle, options: [.prettyPrinted, .sortedKeys])
    }

    /// A medication as a CodeableConcept: its codings, and the name the person knows it by.
    static func concept(_ entry: HKUserAnnotatedMedication) -> [String: Any] {
        let codings = entry.medication.relatedCodings.sorted { ($0.system, $0.code) < ($1.system, $1.code) }.map {
            coding -> [String: Any] in
            var value: [String: Any] = ["system": coding.system, "code": coding.code]
            if let version = coding.version { value["version"] = version }
            if coding.system == HKClinicalCoding.rxNormSystem { value["display"] = entry.medication.displayText }
            return value
        }
        var concept: [String: Any] = ["text": entry.displayName]
        if !codings.isEmpty { concept["coding"] = codings }
        return concept
    }

    /// A FHIR id (a UUID, stable for the same concept) for a concept identifier.
    static func resourceID(_ conceptIdentifier: String) -> String {
        // A version-8 UUID (RFC 9562's custom layout) over two FNV-1a hashes: the id needs only to be stable for the
        // same concept and well formed, not secret.
        var hash: (UInt64, UInt64) = (0xcbf2_9ce4_8422_2325, 0x8422_2325_cbf2_9ce4)
        for byte in conceptIdentifier.utf8 {
            hash.0 = (hash.0 ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            hash.1 = (hash.1 &* 0x0000_0100_0000_01b3) ^ UInt64(byte)
        }
        var bytes = [hash.0, hash.1].flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> (56 - 8 * $0)) }
        }
        bytes[6] = (bytes[6] & 0x0f) | 0x80
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        return bytes.enumerated().map { index, byte in
            ([4, 6, 8, 10].contains(index) ? "-" : "") + String(format: "%02x", byte)
        }.joined()
    }
}
