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
        // Most models have no derived attribute: then there is nothing to look at (each entity's list is cached
        // in its layout).
        let derivedEntities = (persistentStoreCoordinator?.managedObjectModel.entities ?? []).filter {
            !$0.layout.derivedAttributes.isEmpty
        }
        guard !derivedEntities.isEmpty else { return [] }
        var ownerRelationships: [ObjectIdentifier: [String]] = [:]
        var targets: [(NSManagedObject, [NSDerivedAttributeDescription])] = []
        var seen = Set<ObjectIdentifier>()
        func consider(_ object: NSManagedObject) {
            let derived = object.entity.layout.derivedAttributes
            guard !object.isDeleted, !derived.isEmpty, seen.insert(ObjectIdentifier(object)).inserted else { return }
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
                    // setValue stores it in the attribute's type, as any value set on the attribute.
                    computed = try expression.evaluate(with: object)
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
}
