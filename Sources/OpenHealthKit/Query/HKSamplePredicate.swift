import OpenCoreData

/// A sample type and an optional predicate, the unit of sample query descriptors.
public struct HKSamplePredicate<Sample: HKSample>: @unchecked Sendable {
    /// The sample type.
    public let sampleType: HKSampleType
    /// Which samples (all when nil).
    public let nsPredicate: NSPredicate?

    init(sampleType: HKSampleType, predicate: NSPredicate?) {
        self.sampleType = sampleType
        self.nsPredicate = predicate
    }
}

extension HKSamplePredicate where Sample == HKMedicationDoseEvent {
    /// Medication dose events matching a predicate.
    public static func medicationDoseEvent(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKMedicationDoseEvent>
    {
        HKSamplePredicate<HKMedicationDoseEvent>(
            sampleType: HKObjectType.medicationDoseEventType(), predicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKCategorySample {
    /// Category samples of a type matching a predicate.
    public static func categorySample(
        type: HKCategoryType, predicate: NSPredicate? = nil
    ) -> HKSamplePredicate<HKCategorySample> {
        HKSamplePredicate<HKCategorySample>(sampleType: type, predicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKSample {
    /// Samples of any type matching a predicate.
    public static func sample(type: HKSampleType, predicate: NSPredicate? = nil) -> HKSamplePredicate<HKSample> {
        HKSamplePredicate<HKSample>(sampleType: type, predicate: predicate)
    }
}

/// Sort descriptors on sample key paths, translated to the store's columns.
enum SampleSort {
    static func columns<Sample: HKSample>(_ descriptors: [SortDescriptor<Sample>]) throws -> [NSSortDescriptor] {
        try descriptors.map { descriptor in
            guard let keyPath = descriptor.keyPath else {
                throw HKError(.errorInvalidArgument, "sort descriptors must use key paths of \(Sample.self)")
            }
            let known: [(AnyKeyPath, String)] = [
                (\Sample.startDate, "startDate"), (\Sample.endDate, "endDate"),
                (\HKMedicationDoseEvent.startDate, "startDate"), (\HKMedicationDoseEvent.endDate, "endDate"),
                (\HKMedicationDoseEvent.scheduledDate, "scheduledDate"),
                (\HKCategorySample.startDate, "startDate"), (\HKCategorySample.endDate, "endDate"),
                (\HKCategorySample.value, "value"),
            ]
            guard let column = known.first(where: { $0.0 == keyPath as AnyKeyPath })?.1 else {
                throw HKError(.errorInvalidArgument, "cannot sort \(Sample.self) by \(keyPath)")
            }
            return HKQuery.sort(column, ascending: descriptor.order == .forward)
        }
    }
}
