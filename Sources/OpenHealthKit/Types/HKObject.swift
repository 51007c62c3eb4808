import OpenCoreData

/// The app or device that saved an object.
public final class HKSource: NSObject, @unchecked Sendable {
    /// The source's name.
    public let name: String
    /// The source's bundle identifier.
    public let bundleIdentifier: String
    /// Creates a source.
    public init(name: String, bundleIdentifier: String) {
        self.name = name
        self.bundleIdentifier = bundleIdentifier
        super.init()
    }
}

/// The source of an object and its version.
public final class HKSourceRevision: NSObject, @unchecked Sendable {
    /// The source.
    public let source: HKSource
    /// The source's version, if known.
    public let version: String?
    /// Creates a source revision.
    public init(source: HKSource, version: String?) {
        self.source = source
        self.version = version
        super.init()
    }
}

/// Keys of HealthKit metadata dictionaries.
public let HKMetadataKeyExternalUUID = "HKExternalUUID"

/// The base of every object stored in HealthKit: a UUID, metadata and its source.
public class HKObject: NSObject, @unchecked Sendable {
    /// The object's unique identifier.
    public let uuid: UUID
    /// The object's metadata (string, number or date values).
    public let metadata: [String: any Sendable]?
    /// Where the object came from.
    public let sourceRevision: HKSourceRevision

    init(uuid: UUID, metadata: [String: any Sendable]?, sourceRevision: HKSourceRevision) {
        self.uuid = uuid
        self.metadata = metadata
        self.sourceRevision = sourceRevision
        super.init()
    }

    /// Objects are equal when their UUIDs are.
    public override func isEqual(_ object: Any?) -> Bool { (object as? HKObject)?.uuid == uuid }
    /// A hash of the UUID.
    public override var hash: Int { uuid.hashValue }
}

/// An object with a start and end date.
public class HKSample: HKObject, @unchecked Sendable {
    /// The sample's type.
    public let sampleType: HKSampleType
    /// The start of the sample.
    public let startDate: Date
    /// The end of the sample.
    public let endDate: Date

    init(sampleType: HKSampleType, startDate: Date, endDate: Date, uuid: UUID,
         metadata: [String: any Sendable]?, sourceRevision: HKSourceRevision) {
        self.sampleType = sampleType
        self.startDate = startDate
        self.endDate = endDate
        super.init(uuid: uuid, metadata: metadata, sourceRevision: sourceRevision)
    }
}

/// A sample whose value is one of a category type's values, such as a symptom's severity.
public final class HKCategorySample: HKSample, @unchecked Sendable {
    /// The category type.
    public var categoryType: HKCategoryType { sampleType as! HKCategoryType }
    /// The value (for symptoms, an `HKCategoryValueSeverity` raw value).
    public let value: Int

    /// Creates a category sample to save. The source is filled in by the store that saves it.
    public convenience init(type: HKCategoryType, value: Int, start startDate: Date, end endDate: Date,
                            metadata: [String: any Sendable]? = nil) {
        self.init(type: type, value: value, start: startDate, end: endDate, uuid: UUID(), metadata: metadata,
                  sourceRevision: HKSourceRevision(source: HKSource(name: "", bundleIdentifier: ""), version: nil))
    }

    init(type: HKCategoryType, value: Int, start: Date, end: Date, uuid: UUID,
         metadata: [String: any Sendable]?, sourceRevision: HKSourceRevision) {
        self.value = value
        super.init(sampleType: type, startDate: start, endDate: end, uuid: uuid, metadata: metadata, sourceRevision: sourceRevision)
    }
}

/// An object that was deleted, reported by anchored queries.
public final class HKDeletedObject: NSObject, @unchecked Sendable {
    /// The deleted object's UUID.
    public let uuid: UUID
    /// The deleted object's metadata, if any was kept.
    public let metadata: [String: any Sendable]?
    /// Creates a deleted-object record.
    init(uuid: UUID, metadata: [String: any Sendable]?) {
        self.uuid = uuid
        self.metadata = metadata
        super.init()
    }
}
