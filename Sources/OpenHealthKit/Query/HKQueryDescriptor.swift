import OpenCoreData

/// A sample type and a predicate, for the class-based queries that read several types at once
/// (`HKSampleQuery(queryDescriptors:limit:resultsHandler:)`, `HKAnchoredObjectQuery(queryDescriptors:...)`).
public final class HKQueryDescriptor: NSObject, @unchecked Sendable {
    /// The type of sample.
    public let sampleType: HKSampleType
    /// Which samples of that type (nil: all).
    public let predicate: NSPredicate?

    /// Creates a descriptor.
    public init(sampleType: HKSampleType, predicate: NSPredicate?) {
        self.sampleType = sampleType
        self.predicate = predicate
        super.init()
    }
}

/// The keys a sample query sorts by, as `NSSortDescriptor` keys.
public let HKSampleSortIdentifierStartDate = "startDate"
/// Sorts samples by their end date.
public let HKSampleSortIdentifierEndDate = "endDate"

/// `NSSortDescriptor`s of the class-based queries: their keys checked, translated to columns, and applied in
/// memory when results of several types are merged.
enum SampleSortKeys {
    /// The keys every sample type sorts by, and the ones of one type.
    static func allowed(for type: HKSampleType) -> Set<String> {
        var keys: Set<String> = [HKSampleSortIdentifierStartDate, HKSampleSortIdentifierEndDate]
        if type.identifier == HKSampleType.medicationDoseEventIdentifier { keys.insert("scheduledDate") }
        if type is HKCategoryType { keys.insert("value") }
        return keys
    }

    /// Checks that every descriptor's key is one all the types sort by.
    static func check(_ descriptors: [NSSortDescriptor], types: [HKSampleType]) throws {
        for descriptor in descriptors {
            guard let key = descriptor.key else {
                throw HKError(.errorInvalidArgument, "a sort descriptor must have a key (startDate or endDate)")
            }
            for type in types where !allowed(for: type).contains(key) {
                throw HKError(
                    .errorInvalidArgument,
                    "cannot sort \(type.identifier) by \"\(key)\"; keys: \(allowed(for: type).sorted().joined(separator: ", "))"
                )
            }
        }
    }

    /// The columns the store sorts by (same keys, the descriptors' directions).
    static func columns(_ descriptors: [NSSortDescriptor]) -> [NSSortDescriptor] {
        descriptors.compactMap { descriptor in descriptor.key.map { HKQuery.sort($0, ascending: descriptor.ascending) }
        }
    }

    /// Whether `a` comes before `b` under the descriptors (checked beforehand), for merging types.
    static func precedes(_ a: HKSample, _ b: HKSample, _ descriptors: [NSSortDescriptor]) -> Bool {
        for descriptor in descriptors {
            let order = compare(value(a, descriptor.key ?? ""), value(b, descriptor.key ?? ""))
            if order == .orderedSame { continue }
            return descriptor.ascending ? order == .orderedAscending : order == .orderedDescending
        }
        return false
    }

    private enum Key: Comparable {
        case absent
        case date(Date)
        case number(Int)
    }

    private static func value(_ sample: HKSample, _ key: String) -> Key {
        switch key {
        case HKSampleSortIdentifierStartDate: return .date(sample.startDate)
        case HKSampleSortIdentifierEndDate: return .date(sample.endDate)
        case "scheduledDate": return (sample as? HKMedicationDoseEvent)?.scheduledDate.map(Key.date) ?? .absent
        case "value": return (sample as? HKCategorySample).map { .number($0.value) } ?? .absent
        default: return .absent
        }
    }

    private static func compare(_ a: Key, _ b: Key) -> ComparisonResult {
        a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
    }
}
