import OpenCoreData

/// Turns store records into HealthKit objects and back.
enum RecordMapping {
    static func source(_ object: NSManagedObject) -> HKSourceRevision {
        HKSourceRevision(source: HKSource(name: object.value(forKey: "sourceName") as? String ?? "",
                                          bundleIdentifier: object.value(forKey: "sourceBundle") as? String ?? ""),
                         version: nil)
    }

    static func uuid(_ object: NSManagedObject) -> UUID {
        UUID(uuidString: object.value(forKey: "uuid") as? String ?? "") ?? UUID()
    }

    static func conceptIdentifier(_ string: String) -> HKHealthConceptIdentifier {
        HKHealthConceptIdentifier(domain: .medication, identifier: string)
    }

    static func doseEvent(_ o: NSManagedObject) -> HKMedicationDoseEvent {
        HKMedicationDoseEvent(
            medicationConceptIdentifier: conceptIdentifier(o.value(forKey: "medicationConceptIdentifier") as? String ?? ""),
            logStatus: HKMedicationDoseEvent.LogStatus(rawValue: Int(int64(o, "logStatus"))) ?? .notLogged,
            scheduleType: HKMedicationDoseEvent.ScheduleType(rawValue: Int(int64(o, "scheduleType"))) ?? .asNeeded,
            scheduledDate: o.value(forKey: "scheduledDate") as? Date,
            scheduledDoseQuantity: double(o, "scheduledDoseQuantity"),
            doseQuantity: double(o, "doseQuantity"),
            unit: HKUnit(from: o.value(forKey: "unit") as? String ?? "count"),
            startDate: o.value(forKey: "startDate") as? Date ?? .distantPast,
            endDate: o.value(forKey: "endDate") as? Date ?? .distantPast,
            uuid: uuid(o), metadata: MetadataCoding.decode(o.value(forKey: "metadata") as? Data), sourceRevision: source(o))
    }

    static func categorySample(_ o: NSManagedObject) -> HKCategorySample {
        HKCategorySample(type: HKCategoryType(HKCategoryTypeIdentifier(o.value(forKey: "typeIdentifier") as? String ?? "")),
                         value: Int(int64(o, "value")),
                         start: o.value(forKey: "startDate") as? Date ?? .distantPast,
                         end: o.value(forKey: "endDate") as? Date ?? .distantPast,
                         uuid: uuid(o), metadata: MetadataCoding.decode(o.value(forKey: "metadata") as? Data), sourceRevision: source(o))
    }

    static func deletedObject(_ o: NSManagedObject) -> HKDeletedObject {
        HKDeletedObject(uuid: uuid(o), metadata: MetadataCoding.decode(o.value(forKey: "metadata") as? Data))
    }

    static func concept(_ o: NSManagedObject) -> HKMedicationConcept {
        let codings = (o.value(forKey: "codings") as? Data).flatMap { try? JSONDecoder().decode([HKClinicalCoding].self, from: $0) } ?? []
        return HKMedicationConcept(identifier: conceptIdentifier(o.value(forKey: "medicationConceptIdentifier") as? String ?? ""),
                                   displayText: o.value(forKey: "displayText") as? String ?? "",
                                   generalForm: HKMedicationGeneralForm(rawValue: o.value(forKey: "generalForm") as? String ?? "") ?? .unknown,
                                   relatedCodings: Set(codings))
    }

    static func medication(_ o: NSManagedObject) -> HKUserAnnotatedMedication {
        HKUserAnnotatedMedication(nickname: o.value(forKey: "nickname") as? String, isArchived: bool(o, "isArchived"),
                                  hasSchedule: bool(o, "hasSchedule"), medication: concept(o))
    }

    static func codingsData(_ codings: Set<HKClinicalCoding>) -> Data? {
        let sorted = codings.sorted { ($0.system, $0.code) < ($1.system, $1.code) }
        return try? JSONEncoder().encode(sorted)
    }
}
