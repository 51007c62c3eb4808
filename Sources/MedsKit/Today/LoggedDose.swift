import Foundation
import OpenHealthKit

/// A dose event as the Today plan reads it: what was logged, for which medication, and for which scheduled dose.
public struct LoggedDose: Hashable, Sendable {
    /// The event's UUID in the health store.
    public let uuid: UUID
    /// The medication's concept identifier.
    public let medicationID: String
    /// What the person did.
    public let status: HKMedicationDoseEvent.LogStatus
    /// When it was logged.
    public let date: Date
    /// The scheduled dose it answers (nil: taken as needed).
    public let scheduledDate: Date?
    /// The quantity taken.
    public let quantity: Double?

    /// Creates a logged dose.
    public init(
        uuid: UUID, medicationID: String, status: HKMedicationDoseEvent.LogStatus, date: Date, scheduledDate: Date?,
        quantity: Double?
    ) {
        self.uuid = uuid
        self.medicationID = medicationID
        self.status = status
        self.date = date
        self.scheduledDate = scheduledDate
        self.quantity = quantity
    }

    /// The logged dose of a health store's event.
    public init(_ event: HKMedicationDoseEvent) {
        self.init(
            uuid: event.uuid, medicationID: event.medicationConceptIdentifier.identifier, status: event.logStatus,
            date: event.startDate, scheduledDate: event.scheduledDate, quantity: event.doseQuantity)
    }

    /// Whether the person answered the dose (taken or skipped), which settles it.
    public var isAnswer: Bool { status == .taken || status == .skipped }
}
