import OpenCoreData

/// Turns store records into HealthKit objects and back.
package enum RecordMapping {
    static func source(_ object: NSManagedObject) -> HKSourceRevision {
        HKSourceRevision(
            source: HKSource(
                name: object.value(forKey: "sourceName") as? String ?? "",
                bundleIdentifier: object.value(forKey: "sourceBundle") as? String ?? ""),
            version: nil)
    }

    static func uuid(_ object: NSManagedObject) -> UUID {
        uuid(from: object.value(forKey: "uuid") as? String ?? "")
    }

    /// A stored UUID string's UUID (the canonical form fast, any other form Foundation's way).
    static func uuid(from string: String) -> UUID {
        parseUUID(string) ?? UUID(uuidString: string) ?? UUID()
    }

    /// Parses the canonical 8-4-4-4-12 form the store writes, without the scanf that
    /// `UUID(uuidString:)` uses on Linux (a measurable share of reading long histories). Package-wide: the
    /// benchmarks' C API floors parse the rows they read as the store does.
    package static func parseUUID(_ string: String) -> UUID? {
        let chars = string.utf8.span
        guard chars.count == 36, chars[8] == 45, chars[13] == 45, chars[18] == 45, chars[23] == 45 else {
            return nil
        }
        var bytes = InlineArray<16, UInt8>(repeating: 0)
        // Any character that is not a hex digit has the value 255: one check after the loop instead of one a byte.
        var invalid: UInt8 = 0
        for k in 0..<16 {
            let i = uuidByteOffsets[k]
            let high = hexValues[Int(chars[i])]
            let low = hexValues[Int(chars[i + 1])]
            invalid |= high | low
            bytes[k] = high << 4 | low
        }
        guard invalid < 16 else { return nil }
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    /// Where each of a UUID's 16 bytes starts in its 8-4-4-4-12 text.
    private static let uuidByteOffsets: InlineArray<16, Int> = [
        0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34,
    ]

    /// Each byte's value as a hexadecimal digit, or 255.
    private static let hexValues: [UInt8] = (0...255).map { c in
        switch c {
        case 48...57: UInt8(c - 48)
        case 65...70: UInt8(c - 55)
        case 97...102: UInt8(c - 87)
        default: 255
        }
    }

    static func conceptIdentifier(_ string: String) -> HKHealthConceptIdentifier {
        HKHealthConceptIdentifier(domain: .medication, identifier: string)
    }

    /// Shares the immutable parts of many mapped records (units, sources, concept identifiers).
    final class Interner {
        private var units = SmallTable<HKUnit>()
        private var sources: [String: HKSourceRevision] = [:]
        private var concepts = SmallTable<HKHealthConceptIdentifier>()

        func unit(_ string: String) -> HKUnit {
            units.value(for: string) { HKUnit(from: $0) }
        }

        private var lastSource: HKSourceRevision?

        /// A source by name and bundle identifier (one object for every sample of the same source).
        func source(name: String, bundleIdentifier bundle: String) -> HKSourceRevision {
            if let last = lastSource, last.source.bundleIdentifier == bundle, last.source.name == name { return last }
            let key = name + "\u{0}" + bundle
            let source =
                sources[key] ?? HKSourceRevision(source: HKSource(name: name, bundleIdentifier: bundle), version: nil)
            sources[key] = source
            lastSource = source
            return source
        }

        func source(_ o: NSManagedObject) -> HKSourceRevision {
            let name = o.value(forKey: "sourceName") as? String ?? ""
            let bundle = o.value(forKey: "sourceBundle") as? String ?? ""
            if let last = lastSource, last.source.bundleIdentifier == bundle, last.source.name == name { return last }
            let key = name + "\u{0}" + bundle
            let source = sources[key] ?? RecordMapping.source(o)
            sources[key] = source
            lastSource = source
            return source
        }

        func concept(_ string: String) -> HKHealthConceptIdentifier {
            concepts.value(for: string) { RecordMapping.conceptIdentifier($0) }
        }

        /// Values by short string keys, of which a read has few: tens of medications, and nearly always one unit. A
        /// scan comparing the strings (most fit in a small string) finds a key faster than hashing it, the last key
        /// found first; past `scanLimit` keys the rest go in a dictionary.
        struct SmallTable<Value> {
            private var scanned: [(key: String, value: Value)] = []
            private var hashed: [String: Value] = [:]
            private var last = -1
            private static var scanLimit: Int { 32 }

            mutating func value(for key: String, make: (String) -> Value) -> Value {
                if last >= 0, scanned[last].key == key { return scanned[last].value }
                if let found = scanned.firstIndex(where: { $0.key == key }) {
                    last = found
                    return scanned[found].value
                }
                if let known = hashed[key] { return known }
                let value = make(key)
                if scanned.count < Self.scanLimit {
                    scanned.append((key, value))
                    last = scanned.count - 1
                } else {
                    hashed[key] = value
                }
                return value
            }
        }
    }

    /// A dose event from its record. Dose events are instants written only by the Health app's editor,
    /// which stores endDate = startDate and a schedule type that follows from the scheduled date
    /// (scheduled doses have one, as-needed doses none), so those two columns are not read back.
    static func doseEvent(_ o: NSManagedObject, _ interner: Interner = Interner()) -> HKMedicationDoseEvent {
        // The model gives dose event rows this class (HealthStoreModel).
        let record = o as! DoseEventRecord
        let scheduledDate = record.scheduledDate
        let startDate = record.startDate ?? .distantPast
        return HKMedicationDoseEvent(
            medicationConceptIdentifier: interner.concept(record.medicationConceptIdentifier ?? ""),
            logStatus: HKMedicationDoseEvent.LogStatus(rawValue: Int(record.logStatus)) ?? .notLogged,
            scheduleType: scheduledDate == nil ? .asNeeded : .schedule,
            scheduledDate: scheduledDate,
            scheduledDoseQuantity: record.scheduledDoseQuantity,
            doseQuantity: record.doseQuantity,
            unit: interner.unit(record.unit ?? "count"),
            startDate: startDate,
            endDate: startDate,
            uuid: uuid(from: record.uuid ?? ""), metadata: MetadataCoding.decode(record.metadata),
            sourceRevision: healthSource)
    }

    /// The source of every dose event: only the Health app writes them (its editor stores this source).
    static let healthSource = HKSourceRevision(
        source: HKSource(name: "Health", bundleIdentifier: HKHealthStore.healthAppBundleIdentifier),
        version: nil)

    static func categorySample(_ o: NSManagedObject) -> HKCategorySample {
        HKCategorySample(
            type: HKCategoryType(HKCategoryTypeIdentifier(o.value(forKey: "typeIdentifier") as? String ?? "")),
            value: Int(int64(o, "value")),
            start: o.value(forKey: "startDate") as? Date ?? .distantPast,
            end: o.value(forKey: "endDate") as? Date ?? .distantPast,
            uuid: uuid(o), metadata: MetadataCoding.decode(o.value(forKey: "metadata") as? Data),
            sourceRevision: source(o))
    }

    static func deletedObject(_ o: NSManagedObject) -> HKDeletedObject {
        HKDeletedObject(uuid: uuid(o), metadata: MetadataCoding.decode(o.value(forKey: "metadata") as? Data))
    }

    static func concept(_ o: NSManagedObject) -> HKMedicationConcept {
        let codings =
            (o.value(forKey: "codings") as? Data).flatMap {
                try? JSONDecoder().decode([HKClinicalCoding].self, from: $0)
            } ?? []
        return HKMedicationConcept(
            identifier: conceptIdentifier(o.value(forKey: "medicationConceptIdentifier") as? String ?? ""),
            displayText: o.value(forKey: "displayText") as? String ?? "",
            generalForm: (o.value(forKey: "generalForm") as? String).map(HKMedicationGeneralForm.init(rawValue:))
                ?? .unknown,
            relatedCodings: Set(codings))
    }

    static func medication(_ o: NSManagedObject) -> HKUserAnnotatedMedication {
        HKUserAnnotatedMedication(
            nickname: o.value(forKey: "nickname") as? String, isArchived: bool(o, "isArchived"),
            hasSchedule: bool(o, "hasSchedule"), medication: concept(o))
    }

    static func codingsData(_ codings: Set<HKClinicalCoding>) -> Data? {
        let sorted = codings.sorted { ($0.system, $0.code) < ($1.system, $1.code) }
        return try? JSONEncoder().encode(sorted)
    }
}
