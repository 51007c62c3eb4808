import Foundation

/// How the entities and properties of one model version map onto the next. Orchard makes only
/// inferred mapping models (lightweight migration); custom mapping models with migration policies
/// are not supported.
open class NSMappingModel: NSObject, @unchecked Sendable {
    /// One mapping per destination entity.
    open var entityMappings: [NSEntityMapping]!
    /// Every change the mapping makes, one line each (an Orchard addition, for tools and logs).
    public let changeDescriptions: [String]

    init(inference: MigrationInference) {
        changeDescriptions = inference.changes
        entityMappings = inference.destination.entities.sorted { ($0.name ?? "") < ($1.name ?? "") }.map { entity in
            let name = entity.name ?? ""
            let origin = inference.entitySource[name]
            let mapping = NSEntityMapping()
            mapping.name = origin.map { "\($0.name ?? "")To\(name)" } ?? "AddTo\(name)"
            mapping.sourceEntityName = origin?.name
            mapping.destinationEntityName = name
            mapping.mappingType = origin == nil ? .addEntityMappingType : (origin!.versionHash == entity.versionHash ? .copyEntityMappingType : .transformEntityMappingType)
            let sources = inference.propertySource[name] ?? [:]
            let properties = entity.layout.properties.filter { !$0.isTransient }
            mapping.attributeMappings = properties.filter { $0 is NSAttributeDescription }.map { NSPropertyMapping(name: $0.name, source: sources[$0.name]?.name) }
            mapping.relationshipMappings = properties.filter { $0 is NSRelationshipDescription }.map { NSPropertyMapping(name: $0.name, source: sources[$0.name]?.name) }
            return mapping
        }
        super.init()
    }

    /// The mapping lightweight migration infers between two models. Throws
    /// `NSMigrationMissingMappingModelError` naming the entities and properties at fault when the
    /// change cannot be inferred; `try?` gives nil, as the seed describes.
    open class func inferredMappingModel(forSourceModel sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel) throws -> NSMappingModel {
        NSMappingModel(inference: try LightweightMigration.infer([sourceModel, destinationModel], code: NSMigrationMissingMappingModelError))
    }
}

/// How one destination entity is made.
open class NSEntityMapping: NSObject, @unchecked Sendable {
    /// The kinds of entity mapping, with Apple's raw values.
    public enum MappingType: UInt, Sendable {
        /// Made in code.
        case customEntityMappingType = 1
        /// A new entity: no source rows.
        case addEntityMappingType = 2
        /// The entity is removed.
        case removeEntityMappingType = 3
        /// Rows copied unchanged.
        case copyEntityMappingType = 4
        /// Rows copied with changed properties.
        case transformEntityMappingType = 5
    }
    /// The mapping's name.
    open var name: String!
    /// The kind of mapping.
    open var mappingType: MappingType = .copyEntityMappingType
    /// The entity the rows come from.
    open var sourceEntityName: String?
    /// The entity the rows go to.
    open var destinationEntityName: String?
    /// How each destination attribute gets its value.
    open var attributeMappings: [NSPropertyMapping]?
    /// How each destination relationship gets its value.
    open var relationshipMappings: [NSPropertyMapping]?
}

/// How one destination property gets its value.
open class NSPropertyMapping: NSObject, @unchecked Sendable {
    /// The destination property's name.
    open var name: String?
    /// The value: `$source.<property>` for a property carried over, nil for a new one (its default).
    open var valueExpression: NSExpression?
    /// Free-form information.
    open var userInfo: [AnyHashable: Any]?

    /// Creates an empty property mapping.
    public override init() { super.init() }

    init(name: String, source: String?) {
        self.name = name
        self.valueExpression = source.map { NSExpression(forKeyPath: $0, of: NSExpression(forVariable: "source")) }
        super.init()
    }
}
