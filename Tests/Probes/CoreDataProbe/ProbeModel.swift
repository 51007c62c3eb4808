import OpenCoreData

/// A transformer for `[String]` values: JSON bytes in the store.
final class TagListTransformer: ValueTransformer, @unchecked Sendable {
    static let name = NSValueTransformerName("TagListTransformer")

    override func transformedValue(_ value: Any?) -> Any? {
        guard let tags = value as? [String] else { return nil }
        return try? JSONEncoder().encode(tags)
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data else { return nil }
        return try? JSONDecoder().decode([String].self, from: data)
    }

    static func register() {
        ValueTransformer.setValueTransformer(TagListTransformer(), forName: name)
    }
}

/// One attribute of every Core Data type, a nested composite, and ordered and to-one relationships.
final class Specimen: NSManagedObject {
    @Managed var name: String?
    @Managed var int16: Int16
    @Managed var int32: Int32
    @Managed var int64: Int64
    @Managed var decimal: Decimal?
    @Managed var double: Double
    @Managed var float: Float
    @Managed var flag: Bool
    @Managed var date: Date?
    @Managed var blob: Data?
    @Managed var uuid: UUID?
    @Managed var uri: URL?
    @Managed var tags: Any?
    @Managed var placement: [String: Any]?
    @Managed var parts: NSOrderedSet?
}

/// The ordered to-many destination of `Specimen.parts`.
final class Part: NSManagedObject {
    @Managed var label: String?
    @Managed var owner: Specimen?
}

enum ProbeModel {
    /// The model both the probe process and the tests open the store with.
    static func make() -> NSManagedObjectModel {
        TagListTransformer.register()
        let specimen = NSEntityDescription(name: "Specimen")
        specimen.managedObjectClassName = NSStringFromClass(Specimen.self)
        let part = NSEntityDescription(name: "Part")
        part.managedObjectClassName = NSStringFromClass(Part.self)
        let tags = NSAttributeDescription(name: "tags", type: .transformableAttributeType)
        tags.valueTransformerName = TagListTransformer.name.rawValue
        let placement = NSCompositeAttributeDescription(name: "placement", elements: [
            NSAttributeDescription(name: "shelf", type: .stringAttributeType),
            NSAttributeDescription(name: "row", type: .integer32AttributeType),
            NSCompositeAttributeDescription(name: "position", elements: [
                NSAttributeDescription(name: "x", type: .doubleAttributeType),
                NSAttributeDescription(name: "y", type: .doubleAttributeType),
                NSAttributeDescription(name: "checked", type: .dateAttributeType),
            ]),
        ])
        let parts = NSRelationshipDescription(name: "parts", destination: part, toMany: true, deleteRule: .cascadeDeleteRule, ordered: true)
        let owner = NSRelationshipDescription(name: "owner", destination: specimen)
        parts.inverseRelationship = owner
        owner.inverseRelationship = parts
        specimen.properties = [
            NSAttributeDescription(name: "name", type: .stringAttributeType, optional: false),
            NSAttributeDescription(name: "int16", type: .integer16AttributeType, optional: false, defaultValue: Int16(0)),
            NSAttributeDescription(name: "int32", type: .integer32AttributeType, optional: false, defaultValue: Int32(0)),
            NSAttributeDescription(name: "int64", type: .integer64AttributeType, optional: false, defaultValue: Int64(0)),
            NSAttributeDescription(name: "decimal", type: .decimalAttributeType),
            NSAttributeDescription(name: "double", type: .doubleAttributeType, optional: false, defaultValue: 0.0),
            NSAttributeDescription(name: "float", type: .floatAttributeType, optional: false, defaultValue: Float(0)),
            NSAttributeDescription(name: "flag", type: .booleanAttributeType, optional: false, defaultValue: false),
            NSAttributeDescription(name: "date", type: .dateAttributeType),
            NSAttributeDescription(name: "blob", type: .binaryDataAttributeType),
            NSAttributeDescription(name: "uuid", type: .UUIDAttributeType),
            NSAttributeDescription(name: "uri", type: .URIAttributeType),
            tags,
            placement,
            parts,
        ]
        part.properties = [NSAttributeDescription(name: "label", type: .stringAttributeType), owner]
        let model = NSManagedObjectModel()
        model.entities = [specimen, part]
        return model
    }

    /// Opens (creating if needed) the SQLite store at `url` with the probe model.
    static func container(at url: URL) throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "Probe", managedObjectModel: make())
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: url)]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }
}
