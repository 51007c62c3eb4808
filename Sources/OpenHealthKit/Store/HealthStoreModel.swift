import OpenCoreData

/// The Core Data model of the health store, built in code: medications, dose events, category
/// (symptom) samples, deleted-object records and authorization records. Every change carries `seq`,
/// a store-wide sequence number that anchors are made of.
enum HealthStoreModel {
    static let medication = "HKMedicationRecord"
    static let doseEvent = "HKDoseEventRecord"
    static let categorySample = "HKCategorySampleRecord"
    static let deletedObject = "HKDeletedObjectRecord"
    static let authorization = "HKAuthorizationRecord"
    static let changeCounter = "HKChangeCounterRecord"

    static func make() -> NSManagedObjectModel {
        func attr(_ name: String, _ type: NSAttributeType, optional: Bool = true) -> NSAttributeDescription {
            NSAttributeDescription(name: name, type: type, optional: optional)
        }
        func entity(_ name: String, _ attributes: [NSAttributeDescription], indexes: [[String]], unique: [[String]] = []) -> NSEntityDescription {
            let e = NSEntityDescription(name: name, properties: attributes)
            e.uniquenessConstraints = unique
            let byName = Dictionary(uniqueKeysWithValues: attributes.map { ($0.name, $0) })
            e.indexes = indexes.map { keys in
                NSFetchIndexDescription(name: "\(name)_" + keys.joined(separator: "_"),
                                        elements: keys.map { NSFetchIndexElementDescription(property: byName[$0]!, collationType: .binary) })
            }
            return e
        }
        let sample = [attr("uuid", .stringAttributeType, optional: false), attr("seq", .integer64AttributeType, optional: false),
                      attr("startDate", .dateAttributeType, optional: false), attr("endDate", .dateAttributeType, optional: false),
                      attr("sourceName", .stringAttributeType), attr("sourceBundle", .stringAttributeType),
                      attr("metadata", .binaryDataAttributeType)]
        let medication = entity(Self.medication, [
            attr("medicationConceptIdentifier", .stringAttributeType, optional: false), attr("displayText", .stringAttributeType, optional: false),
            attr("generalForm", .stringAttributeType, optional: false), attr("codings", .binaryDataAttributeType),
            attr("nickname", .stringAttributeType), attr("isArchived", .booleanAttributeType, optional: false),
            attr("hasSchedule", .booleanAttributeType, optional: false), attr("schedule", .binaryDataAttributeType),
            attr("createdAt", .dateAttributeType, optional: false), attr("seq", .integer64AttributeType, optional: false),
            // When the person last changed it (nickname, archived, schedule), on whichever machine: replication keeps
            // the latest. Added after the first release; a store without it is migrated when it opens (nil: never
            // changed since it was added, so `createdAt` counts).
            attr("modifiedAt", .dateAttributeType),
        ], indexes: [["medicationConceptIdentifier"], ["seq"]])
        let dose = entity(Self.doseEvent, sample + [
            attr("medicationConceptIdentifier", .stringAttributeType, optional: false), attr("logStatus", .integer16AttributeType, optional: false),
            attr("scheduleType", .integer16AttributeType, optional: false), attr("scheduledDate", .dateAttributeType),
            attr("scheduledDoseQuantity", .doubleAttributeType), attr("doseQuantity", .doubleAttributeType),
            attr("unit", .stringAttributeType, optional: false),
        ], indexes: [["medicationConceptIdentifier", "logStatus", "startDate"], ["medicationConceptIdentifier", "seq"], ["seq"], ["uuid"], ["scheduledDate"]])
        dose.managedObjectClassName = NSStringFromClass(DoseEventRecord.self)
        let category = entity(Self.categorySample, sample + [
            attr("typeIdentifier", .stringAttributeType, optional: false), attr("value", .integer64AttributeType, optional: false),
        ], indexes: [["typeIdentifier", "startDate"], ["seq"], ["uuid"]])
        let deleted = entity(Self.deletedObject, [
            attr("uuid", .stringAttributeType, optional: false), attr("seq", .integer64AttributeType, optional: false),
            attr("sampleType", .stringAttributeType, optional: false), attr("medicationConceptIdentifier", .stringAttributeType),
            attr("metadata", .binaryDataAttributeType), attr("deletedAt", .dateAttributeType, optional: false),
        ], indexes: [["sampleType", "seq"]])
        let authorization = entity(Self.authorization, [
            attr("bundleIdentifier", .stringAttributeType, optional: false), attr("kind", .stringAttributeType, optional: false),
            attr("key", .stringAttributeType, optional: false), attr("granted", .booleanAttributeType, optional: false),
        ], indexes: [["bundleIdentifier", "kind", "key"]])
        // One row: the last sequence number handed out, updated in the transaction that uses it.
        let counter = entity(Self.changeCounter, [
            attr("name", .stringAttributeType, optional: false), attr("value", .integer64AttributeType, optional: false),
        ], indexes: [], unique: [["name"]])
        let model = NSManagedObjectModel()
        model.entities = [medication, dose, category, deleted, authorization, counter]
        return model
    }
}

/// Metadata dictionaries stored as JSON (string, number, boolean and date values).
enum MetadataCoding {
    static func encode(_ metadata: [String: any Sendable]?) -> Data? {
        guard let metadata, !metadata.isEmpty else { return nil }
        var out: [String: [String: Any]] = [:]
        for (key, value) in metadata {
            switch value {
            case let v as String: out[key] = ["s": v]
            case let v as Bool: out[key] = ["b": v]
            case let v as Int: out[key] = ["i": v]
            case let v as Double: out[key] = ["d": v]
            case let v as Date: out[key] = ["t": v.timeIntervalSinceReferenceDate]
            default: out[key] = ["s": "\(value)"]
            }
        }
        return try? JSONSerialization.data(withJSONObject: out, options: [.sortedKeys])
    }

    static func decode(_ data: Data?) -> [String: any Sendable]? {
        guard let data, let object = try? JSONSerialization.jsonObject(with: data) as? [String: [String: Any]] else { return nil }
        var out: [String: any Sendable] = [:]
        for (key, tagged) in object {
            if let v = tagged["s"] as? String { out[key] = v }
            else if let v = tagged["b"] as? Bool { out[key] = v }
            else if let v = tagged["i"] as? Int { out[key] = v }
            else if let v = tagged["d"] as? Double { out[key] = v }
            else if let v = tagged["t"] as? Double { out[key] = Date(timeIntervalSinceReferenceDate: v) }
        }
        return out
    }
}
