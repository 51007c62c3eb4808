import Foundation

/// An entity: a kind of managed object, with its properties, place in a hierarchy, indexes and constraints.
open class NSEntityDescription: NSObject, @unchecked Sendable {
    /// The entity's name.
    open var name: String? { didSet { invalidateLayout() } }
    /// The name of the NSManagedObject subclass that represents the entity.
    ///
    /// On Linux, classes are found by (in order) the class registered with `managedObjectClass`, the
    /// subclass an app used for this entity (`Aircraft(context:)`, `NSFetchRequest<Aircraft>`), and
    /// `NSClassFromString` (module-qualified names such as "MyApp.Aircraft").
    open var managedObjectClassName: String! = "NSManagedObject"
    /// Whether the entity only serves as a parent: no instances of it can be created.
    open var isAbstract: Bool = false
    /// The entity's parent, if any.
    open internal(set) unowned var superentity: NSEntityDescription?
    /// The entity's direct children. Setting it sets each child's superentity.
    open var subentities: [NSEntityDescription] = [] {
        didSet {
            for sub in subentities {
                sub.superentity = self
                sub.invalidateLayout()
            }
            invalidateLayout()
        }
    }
    /// The entity's own properties (not the inherited ones). Setting it sets each property's entity.
    open var properties: [NSPropertyDescription] = [] {
        didSet {
            for property in properties { property.entity = self }
            invalidateLayout()
        }
    }
    /// Indexes the store keeps for this entity.
    open var indexes: [NSFetchIndexDescription] = [] {
        didSet { for index in indexes { index.entity = self } }
    }
    /// Uniqueness constraints: each inner array lists property names (or key paths of composite
    /// elements) whose values together must be unique among the entity's objects.
    open var uniquenessConstraints: [[Any]] = []
    /// A string that changes the version hash without changing the schema.
    open var versionHashModifier: String?
    /// The name this entity had in an earlier model version, for lightweight migration.
    open var renamingIdentifier: String?
    /// Free-form information about the entity.
    open var userInfo: [AnyHashable: Any]?
    /// The model the entity belongs to.
    open internal(set) weak var managedObjectModel: NSManagedObjectModel!
    /// A class set explicitly for this entity's objects (an Orchard addition; Linux has no ObjC runtime).
    open var managedObjectClass: NSManagedObject.Type? {
        get { lock.withLock { _explicitClass } }
        set { lock.withLock { _explicitClass = newValue } }
    }

    private let lock = NSRecursiveLock()
    private var _explicitClass: NSManagedObject.Type?
    private var _layout: EntityLayout?

    /// Creates an entity with no name.
    public override init() { super.init() }

    /// Creates an entity with a name and properties.
    public convenience init(name: String, properties: [NSPropertyDescription] = [], abstract: Bool = false) {
        self.init()
        self.name = name
        self.properties = properties
        self.isAbstract = abstract
        for property in properties { property.entity = self }
    }

    /// All properties, inherited ones first, by name.
    open var propertiesByName: [String: NSPropertyDescription] { layout.propertiesByName }
    /// All attributes (including composites), inherited ones included, by name.
    open var attributesByName: [String: NSAttributeDescription] {
        layout.propertiesByName.compactMapValues { $0 as? NSAttributeDescription }
    }
    /// All relationships, inherited ones included, by name.
    open var relationshipsByName: [String: NSRelationshipDescription] {
        layout.propertiesByName.compactMapValues { $0 as? NSRelationshipDescription }
    }

    /// The relationships whose destination is `entity`.
    open func relationships(forDestination entity: NSEntityDescription) -> [NSRelationshipDescription] {
        layout.properties.compactMap { $0 as? NSRelationshipDescription }.filter { $0.destinationEntity === entity }
    }

    /// Whether this entity is `entity` or one of its descendants.
    open func isKindOf(entity: NSEntityDescription) -> Bool {
        var current: NSEntityDescription? = self
        while let candidate = current {
            if candidate === entity { return true }
            current = candidate.superentity
        }
        return false
    }

    /// The entity's version hash: see `ModelHashing` for what it covers.
    open var versionHash: Data { ModelHashing.hash(of: self) }

    /// Finds the entity of a name in the model of a context.
    open class func entity(forEntityName entityName: String, in context: NSManagedObjectContext) -> NSEntityDescription?
    {
        context.persistentStoreCoordinator?.managedObjectModel.entitiesByName[entityName]
    }

    /// Creates and inserts a new object of the named entity; traps, as Apple's does, when the model has no such entity.
    open class func insertNewObject(
        forEntityName entityName: String, into context: NSManagedObjectContext
    ) -> NSManagedObject {
        guard let entity = entity(forEntityName: entityName, in: context) else {
            fatalError("+entityForName: could not locate an entity named '\(entityName)' in this model.")
        }
        let cls = entity.resolvedClass()
        return cls.init(entity: entity, insertInto: context)
    }

    // MARK: Layout

    /// The entity's properties (inherited first) with their slot numbers, computed once and cached.
    var layout: EntityLayout {
        lock.lock()
        defer { lock.unlock() }
        if let layout = _layout { return layout }
        let layout = EntityLayout(entity: self)
        _layout = layout
        return layout
    }

    func invalidateLayout() {
        lock.lock()
        _layout = nil
        let subs = subentities
        lock.unlock()
        for sub in subs { sub.invalidateLayout() }
    }

    /// The root of the entity's hierarchy (the entity whose table holds its rows).
    var rootEntity: NSEntityDescription {
        var entity = self
        while let parent = entity.superentity { entity = parent }
        return entity
    }

    /// This entity and all its descendants, depth-first.
    var selfAndDescendants: [NSEntityDescription] {
        [self] + subentities.flatMap { $0.selfAndDescendants }
    }

    /// The class that represents this entity's objects.
    func resolvedClass() -> NSManagedObject.Type {
        if let cached = lock.withLock({ _classFast }) { return cached }
        if let explicit = managedObjectClass { return explicit }
        if let found = ManagedClassRegistry.shared.lookup(className: managedObjectClassName, entityName: name ?? "") {
            lock.withLock { _classFast = found }
            return found
        }
        return NSManagedObject.self
    }

    /// Records the class an app used for this entity's objects (the first subclass seen wins).
    func noteClass(_ cls: NSManagedObject.Type) {
        if lock.withLock({ _classFast == nil }), cls != NSManagedObject.self {
            ManagedClassRegistry.shared.register(cls)
            lock.withLock { if _classFast == nil { _classFast = cls } }
        }
    }

    /// Guarded by `lock`.
    private var _classFast: NSManagedObject.Type?

    func copyEntity() -> NSEntityDescription {
        let copy = NSEntityDescription()
        copy.name = name
        copy.managedObjectClassName = managedObjectClassName
        copy.isAbstract = isAbstract
        copy.properties = properties.map { $0.copyProperty() }
        copy.uniquenessConstraints = uniquenessConstraints
        copy.versionHashModifier = versionHashModifier
        copy.renamingIdentifier = renamingIdentifier
        copy.userInfo = userInfo
        copy.managedObjectClass = managedObjectClass
        return copy
    }
}

/// An entity's properties in slot order, with lookups by name.
@usableFromInline
final class EntityLayout: @unchecked Sendable {
    /// All properties: inherited first, then the entity's own.
    let properties: [NSPropertyDescription]
    /// Slot index by property name.
    let slotByName: [String: Int]
    /// Property by name.
    let propertiesByName: [String: NSPropertyDescription]
    /// The hierarchy's root entity, which identifies the table rows live in.
    unowned let root: NSEntityDescription
    /// The root entity's identity (the registry's key), read without touching the unowned reference.
    let rootID: ObjectIdentifier
    /// Default values by slot (to-many slots get a fresh container per object).
    let defaults: SlotValues
    /// Slots of to-many relationships.
    let toManySlots: [Int]
    /// Attribute types by slot (nil for relationships): attributes are read straight from the values,
    /// and written typed by the accessors.
    let attributeTypes: [NSAttributeType?]
    /// The derived attributes (inherited ones included), computed when an object is saved.
    let derivedAttributes: [NSDerivedAttributeDescription]
    /// Property names by slot, for `slot(named:)`.
    private let names: [String]
    /// The slots of `@Managed` properties, by their `ManagedProperty` constants.
    @usableFromInline let managedSlots = ManagedSlotTable()

    /// The slot of a property by name (key-value coding's hot path): entities have few properties, and
    /// comparing names beats hashing the key.
    @inline(__always)
    func slot(named name: String) -> Int? {
        guard names.count <= 32 else { return slotByName[name] }
        for i in names.indices where names[i] == name { return i }
        return nil
    }

    init(entity: NSEntityDescription) {
        var chain: [NSEntityDescription] = []
        var current: NSEntityDescription? = entity
        while let e = current {
            chain.insert(e, at: 0)
            current = e.superentity
        }
        var properties: [NSPropertyDescription] = []
        var slots: [String: Int] = [:]
        for e in chain {
            for property in e.properties {
                if let existing = slots[property.name] {
                    properties[existing] = property
                } else {
                    slots[property.name] = properties.count
                    properties.append(property)
                }
            }
        }
        self.properties = properties
        self.slotByName = slots
        var byName: [String: NSPropertyDescription] = [:]
        for p in properties { byName[p.name] = p }
        self.propertiesByName = byName
        self.root = chain[0]
        self.rootID = ObjectIdentifier(chain[0])
        self.defaults = NSManagedObject.computeDefaults(properties)
        self.toManySlots = properties.indices.filter {
            (properties[$0] as? NSRelationshipDescription)?.isToMany == true
        }
        self.attributeTypes = properties.map { ($0 as? NSAttributeDescription)?.attributeType }
        self.derivedAttributes = properties.compactMap { $0 as? NSDerivedAttributeDescription }
        self.names = properties.map(\.name)
    }
}

/// Classes the app has used for entities, so objects fetched later get the right class.
final class ManagedClassRegistry: @unchecked Sendable {
    static let shared = ManagedClassRegistry()
    private let lock = NSLock()
    private var byName: [String: NSManagedObject.Type] = [:]

    func register(_ cls: NSManagedObject.Type) {
        guard cls != NSManagedObject.self else { return }
        let qualified = NSStringFromClass(cls)
        let short = qualified.split(separator: ".").last.map(String.init) ?? qualified
        lock.withLock {
            if byName[qualified] == nil { byName[qualified] = cls }
            if byName[short] == nil { byName[short] = cls }
        }
    }

    func lookup(className: String?, entityName: String) -> NSManagedObject.Type? {
        if let className, className != "NSManagedObject" {
            if let hit = lock.withLock({ byName[className] }) { return hit }
            if let cls = NSClassFromString(className) as? NSManagedObject.Type {
                register(cls)
                return cls
            }
            let short = className.split(separator: ".").last.map(String.init) ?? className
            if let hit = lock.withLock({ byName[short] }) { return hit }
            return nil
        }
        return nil
    }
}
