import Foundation

/// A model written as JSON, so a store can keep the model it was written with (`Z_MODELCACHE`) and
/// lightweight migration can find its source model without the app shipping every old version.
///
/// Covers what the version hashes and the SQL layout depend on: entities (name, class name,
/// abstract, hierarchy, indexes, uniqueness constraints, hash modifier, renaming identifier) and
/// properties (attributes with type and default value, composites with their elements, relationships
/// with destination, inverse, counts, ordering and delete rule).
struct ModelArchive: Codable {
    struct Entity: Codable {
        var name: String
        var className: String?
        var isAbstract: Bool
        var subentities: [String]
        var properties: [Property]
        var indexes: [Index]
        var uniquenessConstraints: [[String]]
        var versionHashModifier: String?
        var renamingIdentifier: String?
    }

    struct Index: Codable {
        var name: String
        var keyPaths: [String]
        var ascending: [Bool]
    }

    final class Property: Codable {
        var kind: String
        var name: String
        var isOptional: Bool
        var isTransient: Bool
        var isReadOnly: Bool
        var isIndexed: Bool
        var versionHashModifier: String?
        var renamingIdentifier: String?
        var attributeType: UInt?
        var valueTransformerName: String?
        var defaultValue: String?
        var elements: [Property]?
        var destination: String?
        var inverse: String?
        var deleteRule: UInt?
        var minCount: Int?
        var maxCount: Int?
        var isOrdered: Bool?

        init(kind: String, name: String, isOptional: Bool, isTransient: Bool, isReadOnly: Bool, isIndexed: Bool) {
            self.kind = kind
            self.name = name
            self.isOptional = isOptional
            self.isTransient = isTransient
            self.isReadOnly = isReadOnly
            self.isIndexed = isIndexed
        }
    }

    var versionIdentifiers: [String]
    var entities: [Entity]

    init(_ model: NSManagedObjectModel) {
        versionIdentifiers = model.versionIdentifiers.compactMap { $0.base as? String }.sorted()
        entities = model.entities.map { entity in
            Entity(name: entity.name ?? "", className: entity.managedObjectClassName, isAbstract: entity.isAbstract,
                   subentities: entity.subentities.compactMap(\.name),
                   properties: entity.properties.map(ModelArchive.archive),
                   indexes: entity.indexes.map { Index(name: $0.name, keyPaths: $0.elements.map(\.propertyName), ascending: $0.elements.map(\.isAscending)) },
                   uniquenessConstraints: entity.uniquenessConstraints.map { $0.compactMap { $0 as? String } },
                   versionHashModifier: entity.versionHashModifier, renamingIdentifier: entity.renamingIdentifier)
        }
    }

    static func archive(_ property: NSPropertyDescription) -> Property {
        let kind: String
        switch property {
        case is NSCompositeAttributeDescription: kind = "composite"
        case is NSAttributeDescription: kind = "attribute"
        default: kind = "relationship"
        }
        let p = Property(kind: kind, name: property.name, isOptional: property.isOptional, isTransient: property.isTransient,
                         isReadOnly: property.isReadOnly, isIndexed: property.isIndexed)
        p.versionHashModifier = property.versionHashModifier
        p.renamingIdentifier = property.renamingIdentifier
        if let attribute = property as? NSAttributeDescription {
            p.attributeType = attribute.attributeType.rawValue
            p.valueTransformerName = attribute.valueTransformerName
            p.defaultValue = DefaultValueText.encode(attribute.defaultValue, type: attribute.attributeType)
            if let composite = attribute as? NSCompositeAttributeDescription { p.elements = composite.elements.map(archive) }
        }
        if let relationship = property as? NSRelationshipDescription {
            p.destination = relationship.destinationEntity?.name
            p.inverse = relationship.inverseRelationship?.name
            p.deleteRule = relationship.deleteRule.rawValue
            p.minCount = relationship.minCount
            p.maxCount = relationship.maxCount
            p.isOrdered = relationship.isOrdered
        }
        return p
    }

    /// The model again: entities, hierarchy and relationships linked by name.
    func model() throws -> NSManagedObjectModel {
        var byName: [String: NSEntityDescription] = [:]
        let built: [NSEntityDescription] = try entities.map { archived in
            let entity = NSEntityDescription(name: archived.name)
            entity.managedObjectClassName = archived.className ?? "NSManagedObject"
            entity.isAbstract = archived.isAbstract
            entity.properties = try archived.properties.map(ModelArchive.unarchive)
            entity.uniquenessConstraints = archived.uniquenessConstraints.map { $0 as [Any] }
            entity.versionHashModifier = archived.versionHashModifier
            entity.renamingIdentifier = archived.renamingIdentifier
            entity.indexes = archived.indexes.map { index in
                NSFetchIndexDescription(name: index.name, elements: zip(index.keyPaths, index.ascending).map { path, ascending in
                    let element = NSFetchIndexElementDescription(keyPath: path)
                    element.isAscending = ascending
                    return element
                })
            }
            byName[archived.name] = entity
            return entity
        }
        for (archived, entity) in zip(entities, built) {
            entity.subentities = try archived.subentities.map { name in
                guard let sub = byName[name] else { throw Self.damaged("subentity \(name) of \(archived.name)") }
                return sub
            }
        }
        for (archived, entity) in zip(entities, built) {
            for (p, property) in zip(archived.properties, entity.properties) {
                guard let relationship = property as? NSRelationshipDescription else { continue }
                guard let destinationName = p.destination, let destination = byName[destinationName] else {
                    throw Self.damaged("destination of \(archived.name).\(p.name)")
                }
                relationship.destinationEntity = destination
                if let inverse = p.inverse {
                    relationship.inverseRelationship = destination.properties.first { $0.name == inverse } as? NSRelationshipDescription
                }
            }
        }
        let model = NSManagedObjectModel()
        model.entities = built
        model.versionIdentifiers = Set(versionIdentifiers.map { AnyHashable($0) })
        return model
    }

    static func unarchive(_ p: Property) throws -> NSPropertyDescription {
        let property: NSPropertyDescription
        switch p.kind {
        case "composite":
            let composite = NSCompositeAttributeDescription()
            composite.elements = try (p.elements ?? []).map { try unarchive($0) as! NSAttributeDescription }
            property = composite
        case "attribute":
            let attribute = NSAttributeDescription()
            guard let raw = p.attributeType, let type = NSAttributeType(rawValue: raw) else { throw damaged("type of \(p.name)") }
            attribute.attributeType = type
            attribute.valueTransformerName = p.valueTransformerName
            attribute.defaultValue = p.defaultValue.flatMap { DefaultValueText.decode($0, type: type) }
            property = attribute
        case "relationship":
            let relationship = NSRelationshipDescription()
            relationship.deleteRule = NSDeleteRule(rawValue: p.deleteRule ?? 1) ?? .nullifyDeleteRule
            relationship.minCount = p.minCount ?? 0
            relationship.maxCount = p.maxCount ?? 1
            relationship.isOrdered = p.isOrdered ?? false
            property = relationship
        default:
            throw damaged("kind \(p.kind) of \(p.name)")
        }
        property.name = p.name
        property.isOptional = p.isOptional
        property.isTransient = p.isTransient
        property.isReadOnly = p.isReadOnly
        property.isIndexed = p.isIndexed
        property.versionHashModifier = p.versionHashModifier
        property.renamingIdentifier = p.renamingIdentifier
        return property
    }

    static func damaged(_ what: String) -> NSError {
        coreDataError(NSFileReadCorruptFileError, "The store's cached model (Z_MODELCACHE) is damaged: \(what).")
    }

    static func encode(_ model: NSManagedObjectModel) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(ModelArchive(model))
    }

    static func decode(_ data: Data) throws -> NSManagedObjectModel {
        try JSONDecoder().decode(ModelArchive.self, from: data).model()
    }
}

/// Default values as text, typed back by the attribute's type.
enum DefaultValueText {
    static func encode(_ value: Any?, type: NSAttributeType) -> String? {
        guard let value, !(value is NSNull) else { return nil }
        switch type {
        case .dateAttributeType: return (value as? Date).map { String($0.timeIntervalSinceReferenceDate) }
        case .binaryDataAttributeType: return (value as? Data)?.base64EncodedString()
        case .UUIDAttributeType: return (value as? UUID)?.uuidString
        case .URIAttributeType: return (value as? URL)?.absoluteString
        case .booleanAttributeType: return (value as? Bool).map { $0 ? "1" : "0" } ?? NumericValue(value).map { $0.int64 != 0 ? "1" : "0" }
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            return NumericValue(value).map { String($0.int64) }
        case .doubleAttributeType, .floatAttributeType:
            return NumericValue(value).map { String($0.double) }
        case .decimalAttributeType:
            if let d = value as? Decimal { return "\(d)" }
            return NumericValue(value).map { String($0.double) }
        case .stringAttributeType: return value as? String
        default: return nil
        }
    }

    static func decode(_ text: String, type: NSAttributeType) -> Any? {
        switch type {
        case .dateAttributeType: return Double(text).map { Date(timeIntervalSinceReferenceDate: $0) }
        case .binaryDataAttributeType: return Data(base64Encoded: text)
        case .UUIDAttributeType: return UUID(uuidString: text)
        case .URIAttributeType: return URL(string: text)
        case .booleanAttributeType: return text == "1"
        case .integer16AttributeType: return Int64(text).map { Int16(truncatingIfNeeded: $0) }
        case .integer32AttributeType: return Int64(text).map { Int32(truncatingIfNeeded: $0) }
        case .integer64AttributeType: return Int64(text)
        case .doubleAttributeType: return Double(text)
        case .floatAttributeType: return Double(text).map { Float($0) }
        case .decimalAttributeType: return Decimal(string: text)
        case .stringAttributeType: return text
        default: return nil
        }
    }
}
