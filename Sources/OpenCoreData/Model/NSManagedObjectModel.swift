import Foundation

/// A schema: the entities of an object graph, their properties and relationships.
open class NSManagedObjectModel: NSObject, @unchecked Sendable {
    /// The model's entities. Setting it sets each entity's model.
    open var entities: [NSEntityDescription] = [] {
        didSet { for entity in entities { entity.managedObjectModel = self } }
    }
    /// Entities by name.
    open var entitiesByName: [String: NSEntityDescription] {
        var result: [String: NSEntityDescription] = [:]
        for entity in entities { if let name = entity.name { result[name] = entity } }
        return result
    }
    /// Identifiers of this model version (from Xcode's model files, or set by the app).
    open var versionIdentifiers: Set<AnyHashable> = []
    /// Configuration names and the entities in each.
    private var configurationEntities: [String: [String]] = [:]
    /// The file the model was loaded from, if any.
    open internal(set) var sourceURL: URL?

    /// Creates an empty model.
    public override init() { super.init() }

    private let classLock = NSLock()
    private var entityByClass: [ObjectIdentifier: NSEntityDescription] = [:]

    /// The entity a class stands for (cached).
    func entity(forClass cls: NSManagedObject.Type) -> NSEntityDescription? {
        if let cached = classLock.withLock({ entityByClass[ObjectIdentifier(cls)] }) { return cached }
        guard let entity = EntityMatching.entity(for: cls, in: self) else { return nil }
        classLock.withLock { entityByClass[ObjectIdentifier(cls)] = entity }
        return entity
    }

    /// Loads a model from Xcode's model files: a `.xcdatamodeld` folder (its current version), a
    /// `.xcdatamodel` folder or its `contents` file. Returns nil when the files are missing or malformed;
    /// `NSManagedObjectModel.load(contentsOf:)` says why.
    public convenience init?(contentsOf url: URL) {
        guard let loaded = try? XcodeModelLoader.load(url) else { return nil }
        self.init()
        self.adopt(loaded)
        self.sourceURL = url
    }

    /// Loads a model from Xcode's model files, throwing an error that says what is wrong.
    public static func load(contentsOf url: URL) throws -> NSManagedObjectModel {
        let model = try XcodeModelLoader.load(url)
        model.sourceURL = url
        return model
    }

    func adopt(_ other: NSManagedObjectModel) {
        entities = other.entities
        versionIdentifiers = other.versionIdentifiers
        configurationEntities = other.configurationEntities
        sourceURL = other.sourceURL
    }

    /// The names of the model's configurations.
    open var configurations: [String] { configurationEntities.keys.sorted() }

    /// The entities of a configuration (all entities for nil or "Default").
    open func entities(forConfigurationName configuration: String?) -> [NSEntityDescription]? {
        guard let configuration, configuration != "Default", configuration != "PF_DEFAULT_CONFIGURATION_NAME" else {
            return entities
        }
        guard let names = configurationEntities[configuration] else { return nil }
        let byName = entitiesByName
        return names.compactMap { byName[$0] }
    }

    /// Puts entities in a named configuration.
    open func setEntities(_ entities: [NSEntityDescription], forConfigurationName configuration: String) {
        configurationEntities[configuration] = entities.compactMap(\.name)
    }

    /// Version hashes of the model's entities by name.
    open var entityVersionHashesByName: [String: Data] {
        var result: [String: Data] = [:]
        for entity in entities { if let name = entity.name { result[name] = entity.versionHash } }
        return result
    }

    /// A checksum of the whole model: base64 of a SHA-256 digest over the entities' version hashes, in
    /// Apple's format (see `ModelHashing`): the string Xcode shows and `NSLightweightMigrationStage` takes.
    open var versionChecksum: String { ModelHashing.checksum(of: self) }

    /// The metadata keys a store written with this model carries, as Apple's Core Data writes them: entity
    /// hashes, their version (3), digest and checksum, and the version identifiers.
    var storeMetadataKeys: [String: Any] {
        let hashes = entityVersionHashesByName
        return [
            NSStoreModelVersionHashesKey: hashes,
            NSStoreModelVersionHashesVersionKey: 3,
            NSStoreModelVersionHashesDigestKey: ModelHashing.digest(ofEntityHashes: hashes),
            NSStoreModelVersionChecksumKey: ModelHashing.checksum(ofEntityHashes: hashes),
            NSStoreModelVersionIdentifiersKey: versionIdentifiers.compactMap { $0.base as? String }.sorted(),
        ]
    }

    /// Whether a store whose metadata is `metadata` was written with this model.
    open func isConfiguration(
        withName configuration: String?, compatibleWithStoreMetadata metadata: [String: Any]
    ) -> Bool {
        guard let stored = metadata[NSStoreModelVersionHashesKey] as? [String: Data] else { return false }
        let mine = (entities(forConfigurationName: configuration) ?? entities)
        var hashes: [String: Data] = [:]
        for entity in mine { if let name = entity.name { hashes[name] = entity.versionHash } }
        return hashes == stored
    }

    /// A deep copy of the model: entities, properties, hierarchy and relationships re-linked.
    open func copyModel() -> NSManagedObjectModel {
        let copy = NSManagedObjectModel()
        var map: [ObjectIdentifier: NSEntityDescription] = [:]
        for entity in entities {
            let c = entity.copyEntity()
            map[ObjectIdentifier(entity)] = c
        }
        for entity in entities {
            let c = map[ObjectIdentifier(entity)]!
            c.subentities = entity.subentities.compactMap { map[ObjectIdentifier($0)] }
            for (original, copied) in zip(entity.properties, c.properties) {
                guard let o = original as? NSRelationshipDescription, let r = copied as? NSRelationshipDescription
                else { continue }
                if let d = o.destinationEntity { r.destinationEntity = map[ObjectIdentifier(d)] }
                if let inv = o.inverseRelationship, let dest = r.destinationEntity,
                    let invOwner = inv.entity, let copiedOwner = map[ObjectIdentifier(invOwner)]
                {
                    _ = dest
                    r.inverseRelationship =
                        copiedOwner.properties.first { $0.name == inv.name } as? NSRelationshipDescription
                }
            }
            c.indexes = entity.indexes.map { index in
                NSFetchIndexDescription(
                    name: index.name,
                    elements: index.elements.map {
                        let e = NSFetchIndexElementDescription(
                            keyPath: $0.propertyName, collationType: $0.collationType)
                        e.isAscending = $0.isAscending
                        return e
                    })
            }
        }
        copy.entities = entities.compactMap { map[ObjectIdentifier($0)] }
        copy.versionIdentifiers = versionIdentifiers
        copy.configurationEntities = configurationEntities
        return copy
    }

    /// Checks the model for mistakes Core Data refuses: unnamed or duplicate entities and properties,
    /// invalid composite elements, relationships without a destination, abstract entities without
    /// children being instantiated is checked at insert time. Throws an `NSError` naming the problem.
    open func validate() throws {
        var names = Set<String>()
        for entity in entities {
            guard let name = entity.name, !name.isEmpty else {
                throw coreDataError(NSCoreDataError, "An entity in the model has no name.")
            }
            guard names.insert(name).inserted else {
                throw coreDataError(NSCoreDataError, "The model has two entities named \(name).")
            }
            var propertyNames = Set<String>()
            for property in entity.properties {
                guard !property.name.isEmpty else {
                    throw coreDataError(NSCoreDataError, "A property of entity \(name) has no name.")
                }
                guard propertyNames.insert(property.name).inserted else {
                    throw coreDataError(NSCoreDataError, "Entity \(name) has two properties named \(property.name).")
                }
                if let composite = property as? NSCompositeAttributeDescription {
                    if let problem = composite.elementProblem(path: "\(name).\(composite.name)") {
                        throw coreDataError(NSCoreDataError, problem, [NSValidationKeyErrorKey: composite.name])
                    }
                } else if let attribute = property as? NSAttributeDescription {
                    if !attribute.isTransient,
                        attribute.attributeType == .undefinedAttributeType
                            || attribute.attributeType == .objectIDAttributeType
                    {
                        throw coreDataError(
                            NSCoreDataError,
                            "Attribute \(name).\(attribute.name) has no storable type (\(attribute.attributeType.xcodeName))."
                        )
                    }
                    if attribute.attributeType == .compositeAttributeType {
                        throw coreDataError(
                            NSCoreDataError,
                            "Attribute \(name).\(attribute.name) is composite but not an NSCompositeAttributeDescription."
                        )
                    }
                } else if let relationship = property as? NSRelationshipDescription {
                    guard let destination = relationship.destinationEntity,
                        entities.contains(where: { $0 === destination })
                    else {
                        throw coreDataError(
                            NSCoreDataError,
                            "Relationship \(name).\(relationship.name) has no destination entity in this model.")
                    }
                }
            }
        }
    }
}

/// Metadata key holding the entities' version hashes of the model a store was written with.
public let NSStoreModelVersionHashesKey = "NSStoreModelVersionHashes"
/// Metadata key holding the checksum of the model a store was written with (Apple's key since 2023).
public let NSStoreModelVersionChecksumKey = "NSStoreModelVersionChecksumKey"
/// Metadata key holding the version of the hash format (3).
let NSStoreModelVersionHashesVersionKey = "NSStoreModelVersionHashesVersion"
/// Metadata key holding a SHA-512 digest of the entity names and hashes.
let NSStoreModelVersionHashesDigestKey = "NSStoreModelVersionHashesDigest"
/// Metadata key holding the model version identifiers.
public let NSStoreModelVersionIdentifiersKey = "NSStoreModelVersionIdentifiers"
/// Metadata key holding the store's type.
public let NSStoreTypeKey = "NSStoreType"
/// Metadata key holding the store's UUID.
public let NSStoreUUIDKey = "NSStoreUUID"
