import OpenCoreData

/// A person's medication list and dose history, ready to hand to a doctor as CSV or as a FHIR R4 Bundle.
///
/// Not part of Apple's HealthKit (people export from the Health app); Orchard adds it because it is what people
/// ask for. An export read from a store holds only what that store's app may read: the person's grants apply.
public struct HealthRecordExport: Sendable {
    /// The medications, in the order given.
    public let medications: [HKUserAnnotatedMedication]
    /// The dose events, oldest first.
    public let doseEvents: [HKMedicationDoseEvent]

    /// An export of the given medications and dose events (sorted oldest first). A dose event of a medication not
    /// in `medications` is an invalid argument: every row of the history must name its medication.
    public init(medications: [HKUserAnnotatedMedication], doseEvents: [HKMedicationDoseEvent]) throws {
        let known = Set(medications.map(\.medication.identifier))
        if let orphan = doseEvents.first(where: { !known.contains($0.medicationConceptIdentifier) }) {
            throw HKError(
                .errorInvalidArgument,
                "dose event \(orphan.uuid) is of \(orphan.medicationConceptIdentifier.identifier), which is not among the exported medications"
            )
        }
        self.medications = medications
        self.doseEvents = doseEvents.sorted { ($0.startDate, $0.uuid.uuidString) < ($1.startDate, $1.uuid.uuidString) }
    }

    /// Reads what the store's app may read: every medication (archived ones too) and their dose events whose date
    /// lies in `[start, end)` (a nil side is open).
    public static func read(
        from store: HKHealthStore, from start: Date? = nil, to end: Date? = nil
    ) async throws
        -> HealthRecordExport
    {
        let medications = try await HKUserAnnotatedMedicationQueryDescriptor().result(for: store)
        let doses = try await HKSampleQueryDescriptor(
            predicates: [.medicationDoseEvent(HKQuery.predicateForSamples(withStart: start, end: end))],
            sortDescriptors: [SortDescriptor(\.startDate)]
        ).result(for: store)
        return try HealthRecordExport(medications: medications, doseEvents: doses)
    }

    /// The medication a dose event is of (present: checked at init).
    func medication(of event: HKMedicationDoseEvent) -> HKUserAnnotatedMedication {
        medications.first { $0.medication.identifier == event.medicationConceptIdentifier }!
    }

    /// The RxNorm code of a medication, when it has one.
    static func rxNormCode(_ medication: HKUserAnnotatedMedication) -> String? {
        medication.medication.relatedCodings.first { $0.system == HKClinicalCoding.rxNormSystem }?.code
    }

    /// The name a log status is exported under.
    static func statusName(_ status: HKMedicationDoseEvent.LogStatus) -> String {
        switch status {
        case .notInteracted: "missed"
        case .notificationNotSent: "notification not sent"
        case .snoozed: "snoozed"
        case .taken: "taken"
        case .skipped: "skipped"
        case .notLogged: "not logged"
        }
    }
}
