import OpenCoreData

/// Options for `HKQuery.predicateForSamples(withStart:end:options:)`.
public struct HKQueryOptions: OptionSet, Sendable {
    /// The raw value.
    public let rawValue: UInt
    /// Creates options.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The sample's start date must be in the interval.
    public static let strictStartDate = HKQueryOptions(rawValue: 1)
    /// The sample's end date must be in the interval.
    public static let strictEndDate = HKQueryOptions(rawValue: 2)
}

/// HealthKit's predicate factories. The predicates are `NSPredicate` trees over the store's attribute names, so
/// they run in SQL.
extension HKQuery {
    /// Samples in a date interval: by default those overlapping it (`endDate >= start AND startDate < end`);
    /// `.strictStartDate` makes the start side `startDate >= start`, `.strictEndDate` the end side
    /// `endDate < end`. A nil side is open.
    public class func predicateForSamples(
        withStart startDate: Date?, end endDate: Date?,
        options: HKQueryOptions = []
    ) -> NSPredicate {
        var parts: [NSPredicate] = []
        if let startDate {
            parts.append(compare(options.contains(.strictStartDate) ? "startDate" : "endDate", .atLeast, startDate))
        }
        if let endDate {
            parts.append(compare(options.contains(.strictEndDate) ? "endDate" : "startDate", .below, endDate))
        }
        return parts.isEmpty ? HKQuery.everything : and(parts)
    }

    /// Dose events with a log status.
    public class func predicateForMedicationDoseEvent(status: HKMedicationDoseEvent.LogStatus) -> NSPredicate {
        compare("logStatus", .equal, status.rawValue)
    }

    /// Dose events with any of several log statuses.
    public class func predicateForMedicationDoseEvent(statuses: Set<HKMedicationDoseEvent.LogStatus>) -> NSPredicate {
        compare("logStatus", .within, statuses.map(\.rawValue).sorted())
    }

    /// Dose events scheduled at exactly a date.
    public class func predicateForMedicationDoseEvent(scheduledDate: Date) -> NSPredicate {
        compare("scheduledDate", .equal, scheduledDate)
    }

    /// Dose events scheduled at any of several dates.
    public class func predicateForMedicationDoseEvent(scheduledDates: Set<Date>) -> NSPredicate {
        compare("scheduledDate", .within, scheduledDates.sorted())
    }

    /// Dose events scheduled in [start, end); a nil side leaves the interval open (but the event must
    /// have a scheduled date).
    public class func predicateForMedicationDoseEvent(scheduledStart: Date?, end: Date?) -> NSPredicate {
        var parts = [compare("scheduledDate", .notEqual, nil)]
        if let scheduledStart { parts.append(compare("scheduledDate", .atLeast, scheduledStart)) }
        if let end { parts.append(compare("scheduledDate", .below, end)) }
        return and(parts)
    }

    /// Dose events of one medication.
    public class func predicateForMedicationDoseEvent(
        medicationConceptIdentifier: HKHealthConceptIdentifier
    ) -> NSPredicate {
        compare("medicationConceptIdentifier", .equal, medicationConceptIdentifier.identifier)
    }

    /// Dose events of any of several medications.
    public class func predicateForMedicationDoseEvent(
        medicationConceptIdentifiers: Set<HKHealthConceptIdentifier>
    ) -> NSPredicate {
        compare("medicationConceptIdentifier", .within, medicationConceptIdentifiers.map(\.identifier).sorted())
    }

    /// Medications by archived state.
    public class func predicateForUserAnnotatedMedications(isArchived: Bool) -> NSPredicate {
        compare("isArchived", .equal, isArchived)
    }

    /// Medications by whether they have a schedule.
    public class func predicateForUserAnnotatedMedications(hasSchedule: Bool) -> NSPredicate {
        compare("hasSchedule", .equal, hasSchedule)
    }

    /// Objects with given UUIDs.
    public class func predicateForObjects(with uuids: Set<UUID>) -> NSPredicate {
        compare("uuid", .within, uuids.map(\.uuidString).sorted())
    }
}
