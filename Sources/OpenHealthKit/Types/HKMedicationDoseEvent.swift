import OpenCoreData

/// A logged (or missed) dose of a medication.
public final class HKMedicationDoseEvent: HKSample, @unchecked Sendable {
    /// What the person did with the dose.
    public enum LogStatus: Int, Sendable, Codable, CaseIterable {
        /// The reminder was delivered and the person did not respond.
        case notInteracted = 1
        /// The reminder could not be delivered.
        case notificationNotSent = 2
        /// The person asked to be reminded later.
        case snoozed = 3
        /// Taken.
        case taken = 4
        /// Skipped.
        case skipped = 5
        /// The person undid a log.
        case notLogged = 6
    }

    /// Whether the dose was scheduled.
    public enum ScheduleType: Int, Sendable, Codable, CaseIterable {
        /// Taken as needed.
        case asNeeded = 1
        /// From a schedule.
        case schedule = 2
    }

    /// The medication the dose belongs to (the concept's `identifier`).
    public let medicationConceptIdentifier: HKHealthConceptIdentifier
    /// What the person did.
    public let logStatus: LogStatus
    /// Scheduled or as needed.
    public let scheduleType: ScheduleType
    /// When the dose was scheduled (nil for as-needed doses).
    public let scheduledDate: Date?
    /// The quantity scheduled (nil for as-needed doses).
    public let scheduledDoseQuantity: Double?
    /// The quantity taken (0 when skipped).
    public let doseQuantity: Double?
    /// The unit of the quantities; never nil.
    public let unit: HKUnit

    init(medicationConceptIdentifier: HKHealthConceptIdentifier, logStatus: LogStatus, scheduleType: ScheduleType,
         scheduledDate: Date?, scheduledDoseQuantity: Double?, doseQuantity: Double?, unit: HKUnit,
         startDate: Date, endDate: Date, uuid: UUID, metadata: [String: any Sendable]?, sourceRevision: HKSourceRevision) {
        self.medicationConceptIdentifier = medicationConceptIdentifier
        self.logStatus = logStatus
        self.scheduleType = scheduleType
        self.scheduledDate = scheduledDate
        self.scheduledDoseQuantity = scheduledDoseQuantity
        self.doseQuantity = doseQuantity
        self.unit = unit
        super.init(sampleType: HKObjectType.medicationDoseEventType(), startDate: startDate, endDate: endDate,
                   uuid: uuid, metadata: metadata, sourceRevision: sourceRevision)
    }

    /// The type of dose events.
    public static func doseEventType() -> HKMedicationDoseEventType { HKObjectType.medicationDoseEventType() }

    /// The data type of this sample (HealthKit's `medicationDoseEventType` property).
    public var medicationDoseEventType: HKMedicationDoseEventType { HKObjectType.medicationDoseEventType() }
}
