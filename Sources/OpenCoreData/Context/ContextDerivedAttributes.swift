import Foundation

extension NSManagedObjectContext {
    /// Computes the derived attributes (`NSDerivedAttributeDescription`) of the objects a save touches, before it
    /// validates and writes them: every inserted or updated object that has some, and the objects an inserted,
    /// updated or deleted object points to through a to-one relationship (the owner whose `items.@count` or
    /// `sum:(items.price)` it changes). Returns the objects whose derived values changed that were not already
    /// being saved; they are saved too.
    ///
    /// An expression that cannot be evaluated fails the save with an error naming the entity, the attribute and
    /// the expression; nothing is written.
    func computeDerivedAttributes(
        inserted: [NSManagedObject], updated: [NSManagedObject], deleted: [NSManagedObject]
    ) throws -> [NSManagedObject] {
        // Most models have no derived attribute: then there is nothing to look at.
        var derivedByEntity: [ObjectIdentifier: [NSDerivedAttributeDescription]] = [:]
        var derivedEntities: [NSEntityDescription] = []
        for entity in persistentStoreCoordinator?.managedObjectModel.entities ?? [] {
            let derived = Self.derivedAttributes(of: entity)
            if !derived.isEmpty {
                derivedByEntity[ObjectIdentifier(entity)] = derived
                derivedEntities.append(entity)
            }
        }
        guard !derivedByEntity.isEmpty else { return [] }
        var ownerRelationships: [ObjectIdentifier: [String]] = [:]
        var targets: [(NSManagedObject, [NSDerivedAttributeDescription])] = []
        var seen = Set<ObjectIdentifier>()
        func consider(_ object: NSManagedObject) {
            guard !object.isDeleted, let derived = derivedByEntity[ObjectIdentifier(object.entity)],
                seen.insert(ObjectIdentifier(object)).inserted
            else { return }
            targets.append((object, derived))
        }
        /// The objects `object` points to through to-ones whose destinations have derived attributes.
        func owners(of object: NSManagedObject) -> [NSManagedObject] {
            let key = ObjectIdentifier(object.entity)
            if ownerRelationships[key] == nil {
                ownerRelationships[key] = object.entity.relationshipsByName.values.filter { relationship in
                    guard !relationship.isToMany, let destination = relationship.destinationEntity else { return false }
                    return derivedEntities.contains { $0 === destination || $0.isKindOf(entity: destination) }
                }.map(\.name)
            }
            return (ownerRelationships[key] ?? []).compactMap { object.value(forKey: $0) as? NSManagedObject }
        }
        let saving = Set((inserted + updated).map(ObjectIdentifier.init))
        for object in inserted + updated {
            consider(object)
            owners(of: object).forEach(consider)
        }
        for object in deleted { owners(of: object).forEach(consider) }
        var newlyChanged: [NSManagedObject] = []
        for (object, derived) in targets {
            var changed = false
            for attribute in derived {
                guard let expression = attribute.derivationExpression else { continue }
                let computed: Any?
                do {
                    computed = Self.coerce(try expression.evaluate(with: object), to: attribute.attributeType)
                } catch {
                    throw coreDataError(
                        NSPersistentStoreSaveError,
                        "The derived attribute \(object.entity.name ?? "?").\(attribute.name) (\(expression)) could "
                            + "not be computed: \(error)")
                }
                if !PredicateValues.equal(object.value(forKey: attribute.name), computed) {
                    object.setValue(computed, forKey: attribute.name)
                    changed = true
                }
            }
            if changed, !saving.contains(ObjectIdentifier(object)) { newlyChanged.append(object) }
        }
        return newlyChanged
    }

    /// The entity's derived attributes, inherited ones included.
    static func derivedAttributes(of entity: NSEntityDescription) -> [NSDerivedAttributeDescription] {
        entity.attributesByName.values.compactMap { $0 as? NSDerivedAttributeDescription }
    }

    /// A computed value in the attribute's type (a count into a Double attribute, a sum of doubles into an integer
    /// one, rounded toward zero as NSNumber's integer accessors do).
    static func coerce(_ value: Any?, to type: NSAttributeType) -> Any? {
        guard let value = PredicateValues.unwrap(value) else { return nil }
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            if let i = PredicateValues.int64(value) { return Int(i) }
            if let d = PredicateValues.double(value), d.isFinite, let i = Int(exactly: d.rounded(.towardZero)) {
                return i
            }
            return value
        case .doubleAttributeType, .floatAttributeType, .decimalAttributeType:
            return PredicateValues.double(value) ?? value
        case .stringAttributeType:
            return PredicateValues.string(value) ?? value
        default:
            return value
        }
    }
}
