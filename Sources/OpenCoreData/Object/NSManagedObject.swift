import Foundation

/// A record of an entity, living in a managed object context. Subclass it for typed properties
/// (declared with `@Managed`), or use it directly through key-value coding.
open class NSManagedObject: NSObject {
    /// The object's entity.
    public var entity: NSEntityDescription { payload.entity }
    /// The context the object lives in (nil once deleted and saved, or after the context is gone).
    /// Held (weakly) by the payload, which keeps a batch shell down to its own few fields.
    open internal(set) var managedObjectContext: NSManagedObjectContext? {
        get { payload.context }
        set {
            // A shell or fetched row shares its payload's context; one that moves gets data of its own first.
            if payload.kind != .data, payload.context !== newValue { _ = data }
            payload.context = newValue
        }
    }
    /// `ObjectData` (an identified object, loaded or fault), `RowBlock` (a fetched row, unchanged) or
    /// `BatchGroup` (a batch shell).
    /// Read on every property access: no run-time exclusivity checks on these.
    // Safe because the object's context serializes access to its objects (Core Data's rule).
    @usableFromInline @exclusivity(unchecked) final var payload: ObjectPayload
    /// The object's row in its `RowBlock`, or the shell's index in its batch group.
    // Safe because: as `payload`.
    @usableFromInline @exclusivity(unchecked) final var batchIndex: Int32 = 0
    // Safe because: as `payload`.
    @exclusivity(unchecked) var flags: ObjectFlags = []

    struct ObjectFlags: OptionSet {
        let rawValue: UInt8
        static let inserted = ObjectFlags(rawValue: 1)
        static let deleted = ObjectFlags(rawValue: 2)
        static let registered = ObjectFlags(rawValue: 4)
        static let awakened = ObjectFlags(rawValue: 8)
        /// A member of a batch group (see `BatchGroup`), at index `batchIndex`.
        static let batched = ObjectFlags(rawValue: 16)
    }

    /// Creates an object of an entity and inserts it into a context (or leaves it outside any context
    /// when `context` is nil, to be inserted later with `insert(_:)`).
    public required init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) {
        if let pending = ObjectConstruction.take() {
            // A fault, fetched row or batch shell for a stored row (see ObjectConstruction).
            self.payload = pending.payload
            self.batchIndex = pending.index
            super.init()
            return
        }
        if entity.isAbstract {
            fatalError("Cannot create an instance of abstract entity \(entity.name ?? "?")")
        }
        let data = ObjectData(primaryKey: 0, entity: entity)
        data.values = NSManagedObject.defaultValues(for: entity)
        data.isNew = true
        self.payload = data
        super.init()
        entity.noteClass(type(of: self))
        if let context {
            context.insert(self)
        }
    }

    /// Creates an object of the entity whose class is this class, inserted into `context`.
    public convenience init(context: NSManagedObjectContext) {
        let cls = type(of: self)
        guard let entity = context.entityForClass(cls) else {
            fatalError(
                "No entity in the context's model uses class \(NSStringFromClass(cls)); set the entity's managedObjectClassName (or managedObjectClass)."
            )
        }
        self.init(entity: entity, insertInto: context)
    }

    /// The entity whose class is this class, in the models of the loaded stores.
    open class func entity() -> NSEntityDescription {
        guard let entity = ModelRegistry.shared.entity(for: self) else {
            fatalError("No loaded model has an entity for class \(NSStringFromClass(self)).")
        }
        return entity
    }

    deinit {
        if flags.contains(.batched) {
            let group = (payload as? BatchGroup) ?? (payload as? ObjectData)?.batchGroup
            group?.forget(Int(batchIndex))
        }
        if flags.contains(.registered), let registry = payload.registry {
            registry.unregister(self, root: payload.layout.rootID, primaryKey: primaryKeyIfKnown)
        }
    }

    // MARK: Identity

    /// The object's own state, made from its row or batch shell the first time it is needed.
    var data: ObjectData {
        switch payload.view {
        case .data(let data):
            return data
        case .rows(let block):
            let row = Int(batchIndex)
            let data = detachedData()
            data.values = block.values(at: row)
            data.version = block.version(at: row)
            return data
        case .batch(let group):
            let data = detachedData()
            data.batchGroup = group
            return data
        }
    }

    /// Replaces a shared payload (row block or batch group) with an `ObjectData` of the object's own,
    /// with the same key, entity and context and no values yet.
    private func detachedData() -> ObjectData {
        let data = ObjectData(primaryKey: primaryKeyIfKnown, entity: payload.entity)
        data.context = payload.context
        payload = data
        return data
    }

    var primaryKeyIfKnown: Int64 {
        switch payload.view {
        case .data(let data): return data.primaryKey
        case .rows(let block): return block.primaryKey(at: Int(batchIndex))
        case .batch(let group): return group.primaryKeys[Int(batchIndex)]
        }
    }

    /// Turns the object into a fault: its values are dropped (and read again from the store when next used).
    func dropValues() {
        switch payload.view {
        case .rows:
            _ = detachedData()
        case .data(let data):
            data.values = nil
            data.committed = nil
            data.changedSlots.removeAll()
        case .batch:
            break
        }
    }

    /// The object's ID: temporary until the object is saved, then permanent.
    open var objectID: NSManagedObjectID {
        if case .data(let data) = payload.view, data.isNew {
            if let temporary = data.temporaryID { return temporary }
            let temporary = NSManagedObjectID(temporaryFor: entity)
            data.temporaryID = temporary
            return temporary
        }
        if let store = managedObjectContext?.persistentStoreCoordinator?.store(for: entity) {
            return NSManagedObjectID(entity: entity, store: store, primaryKey: primaryKeyIfKnown)
        }
        return NSManagedObjectID(temporaryFor: entity)
    }

    // MARK: State

    /// Whether the object was inserted and not yet saved.
    open var isInserted: Bool { flags.contains(.inserted) }
    /// Whether the object was deleted and the deletion not yet saved.
    open var isDeleted: Bool { flags.contains(.deleted) }
    /// Whether the object has unsaved changes to its values.
    open var isUpdated: Bool {
        guard !isInserted, !isDeleted, let data = payload as? ObjectData else { return false }
        return !data.changedSlots.isEmpty
    }
    /// Whether the object has unsaved changes of any kind (inserted, updated or deleted).
    open var hasChanges: Bool { isInserted || isDeleted || isUpdated }
    /// Whether the object has changes to stored (not transient) values.
    open var hasPersistentChangedValues: Bool { !changedValues().isEmpty || isInserted || isDeleted }
    /// Whether the object's values have not been loaded yet.
    open var isFault: Bool { !hasValues }

    /// Whether the object's values are loaded (`isFault`'s opposite, without dynamic dispatch).
    @inline(__always) final var hasValues: Bool {
        switch payload.view {
        case .data(let data): return data.values != nil
        case .rows: return true
        case .batch: return false
        }
    }
    /// 0 when loaded, 1 when a fault.
    open var faultingState: Int { isFault ? 1 : 0 }

    // MARK: Lifecycle hooks

    /// Called once after the object is inserted into a context; set default values here.
    open func awakeFromInsert() {}
    /// Called after the object's values are loaded from the store.
    open func awakeFromFetch() {}
    /// Called before the object is saved.
    open func willSave() {}
    /// Called after the object is saved.
    open func didSave() {}
    /// Called before the object is deleted.
    open func prepareForDeletion() {}
    /// Called before the object turns into a fault.
    open func willTurnIntoFault() {}
    /// Called after the object turned into a fault.
    open func didTurnIntoFault() {}

    /// Key-value observing hook before a value is read (no-op; kept for API parity).
    open func willAccessValue(forKey key: String?) {}
    /// Key-value observing hook after a value was read (no-op; kept for API parity).
    open func didAccessValue(forKey key: String?) {}
    /// Called before a value changes.
    open func willChangeValue(forKey key: String) {}
    /// Called after a value changed.
    open func didChangeValue(forKey key: String) {}

    // MARK: Key-value coding

    /// The value of a property: attributes as their Swift values (composites as `[String: Any]`),
    /// to-one relationships as `NSManagedObject`, to-many as `NSSet` (`NSOrderedSet` when ordered).
    /// Unknown keys trap, as Apple's `valueForUndefinedKey:` does; `value(forKeyPath:)` walks dots.
    open func value(forKey key: String) -> Any? {
        let layout = payload.layout
        guard let slot = layout.slot(named: key) else {
            if key.contains(".") { return value(forKeyPath: key) }
            fatalError(
                "[<\(entity.name ?? "?")> valueForUndefinedKey:]: the entity \(entity.name ?? "?") is not key value coding-compliant for the key \"\(key)\"."
            )
        }
        return value(atSlot: slot)
    }

    /// The value at a key path: dots go through to-one relationships and composite elements.
    open func value(forKeyPath keyPath: String) -> Any? {
        var current: Any? = self
        for component in keyPath.split(separator: ".") {
            let key = String(component)
            switch current {
            case let object as NSManagedObject:
                guard object.entity.layout.slotByName[key] != nil else { return nil }
                current = object.value(forKey: key)
            case let dictionary as [String: Any]:
                current = dictionary[key]
            case let set as NSSet:
                current = NSSet(array: set.allObjects.compactMap { ($0 as? NSManagedObject)?.value(forKey: key) })
            default:
                return nil
            }
        }
        return current
    }

    /// Sets a property's value, tracking the change and keeping inverse relationships consistent.
    open func setValue(_ value: Any?, forKey key: String) {
        guard let slot = payload.layout.slot(named: key) else {
            if key.contains(".") {
                setValue(value, forKeyPath: key)
                return
            }
            fatalError(
                "[<\(entity.name ?? "?")> setValue:forUndefinedKey:]: the entity \(entity.name ?? "?") is not key value coding-compliant for the key \"\(key)\"."
            )
        }
        willChangeValue(forKey: key)
        setValue(value, atSlot: slot, maintainInverse: true)
        didChangeValue(forKey: key)
    }

    /// Sets a value at a key path; `"colorScheme.primary"` changes one composite element.
    open func setValue(_ value: Any?, forKeyPath keyPath: String) {
        let parts = keyPath.split(separator: ".").map(String.init)
        guard parts.count > 1 else {
            setValue(value, forKey: keyPath)
            return
        }
        let head = parts[0]
        if let composite = payload.layout.propertiesByName[head] as? NSCompositeAttributeDescription {
            var dictionary = (self.value(forKey: head) as? [String: Any]) ?? [:]
            CompositeValues.set(value, at: Array(parts.dropFirst()), in: &dictionary, composite: composite)
            setValue(dictionary, forKey: head)
        } else if let target = self.value(forKey: head) as? NSManagedObject {
            target.setValue(value, forKeyPath: parts.dropFirst().joined(separator: "."))
        }
    }

    /// The stored value of a property, without change notifications.
    open func primitiveValue(forKey key: String) -> Any? { value(forKey: key) }

    /// Sets the stored value of a property without change notifications. A key the entity does not have stops
    /// the process, as Apple's raise does (it was once ignored, losing the value in silence).
    open func setPrimitiveValue(_ value: Any?, forKey key: String) {
        guard let slot = payload.layout.slotByName[key] else {
            fatalError(
                "[<\(entity.name ?? "?")> setPrimitiveValue:forKey:]: the entity \(entity.name ?? "?") is not key value coding-compliant for the key \"\(key)\"."
            )
        }
        setValue(value, atSlot: slot, maintainInverse: false)
    }

    /// The properties changed since the last save, with their new values.
    open func changedValues() -> [String: Any] {
        guard let data = payload as? ObjectData, let values = data.values else { return [:] }
        var result: [String: Any] = [:]
        let properties = payload.layout.properties
        for slot in data.changedSlots where !properties[slot].isTransient {
            result[properties[slot].name] = externalValue(values[slot], property: properties[slot]) ?? NSNull()
        }
        return result
    }

    /// The changes since the last `processPendingChanges` (the same as `changedValues()` here).
    open func changedValuesForCurrentEvent() -> [String: Any] { changedValues() }

    /// The values last read from or saved to the store, for the given keys (all when nil).
    open func committedValues(forKeys keys: [String]?) -> [String: Any] {
        let properties = payload.layout.properties
        guard payload.kind != .batch, case let data = self.data, let committed = data.committed ?? data.values else {
            return [:]
        }
        var result: [String: Any] = [:]
        for (slot, property) in properties.enumerated() where keys == nil || keys!.contains(property.name) {
            if property is NSRelationshipDescription, data.committed == nil { continue }
            result[property.name] = externalValue(committed[slot], property: property) ?? NSNull()
        }
        return result
    }

    /// A mutable set whose changes are applied to a to-many relationship.
    open func mutableSetValue(forKey key: String) -> ManagedMutableSet {
        ManagedMutableSet(owner: self, key: key)
    }

    /// A mutable ordered set whose changes are applied to an ordered to-many relationship.
    open func mutableOrderedSetValue(forKey key: String) -> ManagedMutableSet {
        ManagedMutableSet(owner: self, key: key)
    }

    // MARK: Validation

    /// Checks a value for a property against the model's rules; throws an error naming entity and property.
    /// (Linux has no autoreleasing pointers: the value is passed `inout`.)
    open func validateValue(_ value: inout Any?, forKey key: String) throws {
        guard let property = payload.layout.propertiesByName[key] else { return }
        if let attribute = property as? NSAttributeDescription {
            value = AttributeValues.normalize(value, for: attribute)
        }
        if let error = Validation.check(value: value, property: property, object: self) { throw error }
    }

    /// Checks the object before it is inserted by a save.
    open func validateForInsert() throws { try Validation.validate(self) }
    /// Checks the object before its changes are saved.
    open func validateForUpdate() throws { try Validation.validate(self) }
    /// Checks that the object may be deleted (deny rules).
    open func validateForDelete() throws { try Validation.validateDelete(self) }

    /// A description listing the entity, ID and values (or that it is a fault).
    open override var description: String {
        if isFault { return "<\(entity.name ?? "?"): \(objectID.uriRepresentation().absoluteString)> (fault)" }
        let values = payload.layout.properties.filter { $0 is NSAttributeDescription }.map {
            "\($0.name)=\(String(describing: value(forKey: $0.name) ?? "nil"))"
        }
        return
            "<\(entity.name ?? "?"): \(objectID.uriRepresentation().absoluteString)> { \(values.joined(separator: ", ")) }"
    }

    // MARK: Slots

    static func defaultValues(for entity: NSEntityDescription) -> SlotValues {
        let layout = entity.layout
        var values = layout.defaults
        for slot in layout.toManySlots { values[slot] = RelationshipObjects() }
        return values
    }

    /// Values for an object whose row can't be had: every attribute and to-one nil (read as 0 or false
    /// by scalar accessors), every to-many empty.
    static func nullValues(for entity: NSEntityDescription) -> SlotValues {
        let layout = entity.layout
        var values = SlotValues(Array(repeating: SlotValue.null, count: layout.properties.count))
        for slot in layout.toManySlots { values[slot] = RelationshipObjects() }
        return values
    }

    static func computeDefaults(_ properties: [NSPropertyDescription]) -> SlotValues {
        SlotValues(
            properties.map { property -> SlotValue in
                if let attribute = property as? NSAttributeDescription { return SlotValue(attribute.defaultValue) }
                if let relationship = property as? NSRelationshipDescription, relationship.isToMany {
                    return .objects(RelationshipObjects())
                }
                return .null
            })
    }

    /// Loads the object's values from the store if it is a fault.
    @inline(__always) func fireFaultIfNeeded() {
        if hasValues { return }
        managedObjectContext?.fulfillFault(for: self)
        // No context or store to load from (the context is gone): nil, 0 and false, as Core Data answers.
        if data.values == nil { data.values = NSManagedObject.nullValues(for: entity) }
    }

    /// A loaded attribute's value, read straight from its slot (the accessors' hot path); nil for a
    /// relationship or a fault.
    @inline(__always)
    func loadedAttribute(atSlot slot: Int, layout: EntityLayout) -> SlotValue? {
        guard layout.attributeTypes[slot] != nil else { return nil }
        switch payload.view {
        case .rows(let block): return block.value(row: Int(batchIndex), slot: slot)
        case .data(let data): return data.values?[slot: slot]
        case .batch: return nil
        }
    }

    func value(atSlot slot: Int) -> Any? {
        let layout = payload.layout
        if let loaded = loadedAttribute(atSlot: slot, layout: layout) { return loaded.any }
        fireFaultIfNeeded()
        let property = layout.properties[slot]
        let raw = data.values![slot]
        if let relationship = property as? NSRelationshipDescription {
            return relationshipValue(raw, relationship: relationship, slot: slot)
        }
        return raw
    }

    func relationshipValue(_ raw: Any?, relationship: NSRelationshipDescription, slot: Int) -> Any? {
        if relationship.isToMany {
            let objects = toManyObjects(slot: slot, relationship: relationship)
            return relationship.isOrdered ? objects.asOrderedSet() : objects.asSet()
        }
        if let reference = raw as? RowReference {
            let object = managedObjectContext?.object(for: reference)
            data.values![slot] = object
            if data.committed != nil, data.committed!.count > slot, data.committed![slot] is RowReference {
                data.committed![slot] = object
            }
            return object
        }
        return raw
    }

    /// The objects of a to-many relationship, loading them from the store the first time.
    func toManyObjects(slot: Int, relationship: NSRelationshipDescription) -> RelationshipObjects {
        fireFaultIfNeeded()
        if let loaded = data.values![slot] as? RelationshipObjects { return loaded }
        let objects = RelationshipObjects(
            managedObjectContext?.fetchRelated(of: self, relationship: relationship) ?? [])
        data.values![slot] = objects
        if data.committed != nil, data.committed!.count > slot { data.committed![slot] = objects.copy() }
        return objects
    }

    /// Sets a slot's value; relationships update their inverse on the other objects.
    func setValue(_ newValue: Any?, atSlot slot: Int, maintainInverse: Bool) {
        fireFaultIfNeeded()
        let property = payload.layout.properties[slot]
        if let relationship = property as? NSRelationshipDescription {
            if relationship.isToMany {
                let newObjects = RelationshipValues.objects(from: newValue)
                setToMany(newObjects, slot: slot, relationship: relationship, maintainInverse: maintainInverse)
            } else {
                setToOne(
                    newValue as? NSManagedObject, slot: slot, relationship: relationship,
                    maintainInverse: maintainInverse)
            }
            return
        }
        let attribute = property as! NSAttributeDescription
        let normalized = AttributeValues.normalize(newValue, for: attribute)
        markChanged(slot: slot)
        data.values![slot] = normalized
    }

    func markChanged(slot: Int) {
        let data = self.data
        if data.committed == nil, !isInserted { data.committed = data.values }
        data.changedSlots.insert(slot)
        // Inserted and deleted objects are tracked already (and reading the weak context is not free).
        if !flags.contains(.inserted), !flags.contains(.deleted) { managedObjectContext?.objectDidChange(self) }
    }

    func setToOne(_ object: NSManagedObject?, slot: Int, relationship: NSRelationshipDescription, maintainInverse: Bool)
    {
        let old = relationshipValue(data.values![slot], relationship: relationship, slot: slot) as? NSManagedObject
        if old === object { return }
        if let object, let destination = relationship.destinationEntity, !object.entity.isKindOf(entity: destination) {
            fatalError(
                "Unacceptable type of value for to-one relationship: property = \"\(relationship.name)\"; desired type = \(destination.name ?? "?"); given type = \(object.entity.name ?? "?")."
            )
        }
        if let object, let context = managedObjectContext, object.managedObjectContext == nil {
            context.insert(object)
        }
        markChanged(slot: slot)
        data.values![slot] = object
        guard maintainInverse, let inverse = relationship.inverseRelationship else { return }
        if let old { old.removeInverse(self, relationship: inverse) }
        if let object { object.addInverse(self, relationship: inverse) }
    }

    func setToMany(
        _ objects: [NSManagedObject], slot: Int, relationship: NSRelationshipDescription, maintainInverse: Bool
    ) {
        let current = toManyObjects(slot: slot, relationship: relationship)
        let newSet = RelationshipObjects(objects)
        let removed = current.objects.filter { !newSet.contains($0) }
        let added = objects.filter { !current.contains($0) }
        let reordered =
            relationship.isOrdered
            && current.objects.map(ObjectIdentifier.init) != newSet.objects.map(ObjectIdentifier.init)
        if removed.isEmpty, added.isEmpty, !reordered { return }
        if let context = managedObjectContext {
            for object in added where object.managedObjectContext == nil { context.insert(object) }
        }
        markChanged(slot: slot)
        data.values![slot] = newSet
        guard maintainInverse, let inverse = relationship.inverseRelationship else { return }
        for object in removed { object.removeInverse(self, relationship: inverse) }
        for object in added { object.addInverse(self, relationship: inverse) }
    }

    /// Makes `self.relationship` include `object` (the other side of a change made on `object`).
    func addInverse(_ object: NSManagedObject, relationship: NSRelationshipDescription) {
        guard let slot = payload.layout.slotByName[relationship.name] else { return }
        if relationship.isToMany {
            let objects = toManyObjects(slot: slot, relationship: relationship)
            guard !objects.contains(object) else { return }
            let updated = objects.copy()
            updated.insert(object)
            markChanged(slot: slot)
            data.values![slot] = updated
        } else {
            let old = relationshipValue(data.values![slot], relationship: relationship, slot: slot) as? NSManagedObject
            if old === object { return }
            markChanged(slot: slot)
            data.values![slot] = object
            if let old, let inverse = relationship.inverseRelationship {
                old.removeInverse(self, relationship: inverse)
            }
        }
    }

    /// Makes `self.relationship` no longer include `object`.
    func removeInverse(_ object: NSManagedObject, relationship: NSRelationshipDescription) {
        guard let slot = payload.layout.slotByName[relationship.name] else { return }
        if relationship.isToMany {
            let objects = toManyObjects(slot: slot, relationship: relationship)
            guard objects.contains(object) else { return }
            let updated = objects.copy()
            updated.remove(object)
            markChanged(slot: slot)
            data.values![slot] = updated
        } else {
            let current =
                relationshipValue(data.values![slot], relationship: relationship, slot: slot) as? NSManagedObject
            guard current === object else { return }
            markChanged(slot: slot)
            data.values![slot] = nil
        }
    }

    /// A value as callers see it (relationship containers turned into sets).
    func externalValue(_ raw: Any?, property: NSPropertyDescription) -> Any? {
        if let objects = raw as? RelationshipObjects {
            return (property as? NSRelationshipDescription)?.isOrdered == true
                ? objects.asOrderedSet() : objects.asSet()
        }
        if let reference = raw as? RowReference { return managedObjectContext?.object(for: reference) }
        return raw
    }
}

extension NSManagedObject: KeyValueCodingReadable {}

extension NSManagedObject: StoredRow {
    /// The object's row (key 0 while unsaved); none once the object was deleted and saved away.
    var storedRow: RowReference? {
        if isDeleted && managedObjectContext == nil { return nil }
        return RowReference(entity: entity, primaryKey: primaryKeyIfKnown)
    }
}

/// `NSManagedObject.fetchRequest()`: a request for the class's entity. Declared in a protocol extension
/// so that a subclass's own `fetchRequest() -> NSFetchRequest<Aircraft>` (as Xcode generates) wins.
public protocol NSManagedObjectFetchRequestProviding: AnyObject {}

extension NSManagedObject: NSManagedObjectFetchRequestProviding {}

extension NSManagedObjectFetchRequestProviding where Self: NSManagedObject {
    /// A fetch request for the entity this class represents.
    public static func fetchRequest() -> NSFetchRequest<NSFetchRequestResult> {
        let request = NSFetchRequest<NSFetchRequestResult>()
        request.entity = ModelRegistry.shared.entity(for: self)
        request.entityName = request.entity?.name ?? String(describing: self)
        return request
    }
}
