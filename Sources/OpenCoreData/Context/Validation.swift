import Foundation

/// Core Data's save-time validation: mandatory values, types, relationship counts, validation
/// predicates and deny delete rules, with Core Data's error codes and messages naming entity and property.
enum Validation {
    static func validate(_ object: NSManagedObject) throws {
        var errors: [NSError] = []
        object.fireFaultIfNeeded()
        let values = object.data.values ?? []
        let layout = object.payload.layout
        for (slot, property) in layout.properties.enumerated() where !property.isTransient {
            guard let type = layout.attributeTypes[slot] else {
                let relationship = property as! NSRelationshipDescription
                let value = object.value(atSlot: slot)
                if let error = checkRelationship(value, relationship: relationship, object: object) {
                    errors.append(error)
                }
                continue
            }
            // Attribute values are read straight from their slots (no key lookups). Without validation
            // predicates, a value of the attribute's own type has nothing more to check, and a composite
            // only its elements.
            let typed = slot < values.count ? values[slot: slot] : .null
            let attribute = property as! NSAttributeDescription  // The slot has an attribute type: an attribute.
            if attribute.validationPredicates.isEmpty {
                if !typed.isNull, typed.isNormalized(for: type) { continue }
                if case .composite(let dictionary) = typed,
                    let composite = attribute as? NSCompositeAttributeDescription
                {
                    if let error = checkComposite(
                        dictionary, composite: composite, path: [object.entity.name ?? "?", attribute.name],
                        object: object)
                    {
                        errors.append(error)
                    }
                    continue
                }
            }
            if let error = check(value: typed.any, property: property, object: object) { errors.append(error) }
        }
        try throwCollected(errors, object: object)
    }

    static func validateDelete(_ object: NSManagedObject) throws {
        var errors: [NSError] = []
        for case let relationship as NSRelationshipDescription in object.entity.layout.properties
        where relationship.deleteRule == .denyDeleteRule {
            let related = RelationshipValues.objects(from: object.value(forKey: relationship.name)).filter {
                !$0.isDeleted
            }
            if !related.isEmpty
                || (!relationship.isToMany && object.value(forKey: relationship.name) as? NSManagedObject != nil
                    && !related.isEmpty)
            {
                errors.append(
                    error(
                        NSValidationRelationshipDeniedDeleteError,
                        "\(object.entity.name ?? "?").\(relationship.name) has a deny delete rule and still holds \(related.count) object(s).",
                        object: object, key: relationship.name, value: nil))
            }
        }
        try throwCollected(errors, object: object)
    }

    static func check(value: Any?, property: NSPropertyDescription, object: NSManagedObject) -> NSError? {
        var entityName: String { object.entity.name ?? "?" }
        guard let attribute = property as? NSAttributeDescription else { return nil }
        guard let value else {
            if !attribute.isOptional {
                return error(
                    NSValidationMissingMandatoryPropertyError, "\(entityName).\(attribute.name) is a required value.",
                    object: object, key: attribute.name, value: nil)
            }
            return nil
        }
        if !AttributeValues.hasExpectedType(value, for: attribute) {
            return error(
                NSManagedObjectValidationError,
                "\(entityName).\(attribute.name) holds a \(type(of: value)), not a value of type \(attribute.attributeType.xcodeName).",
                object: object, key: attribute.name, value: value)
        }
        if let composite = attribute as? NSCompositeAttributeDescription, let dictionary = value as? [String: Any] {
            if let problem = checkComposite(
                dictionary, composite: composite, path: [entityName, attribute.name], object: object)
            {
                return problem
            }
        }
        for (index, predicate) in attribute.validationPredicates.enumerated() where !predicate.evaluate(with: value) {
            let warning =
                index < attribute.validationWarnings.count
                ? "\(attribute.validationWarnings[index])" : "fails \(predicate.predicateFormat)"
            return error(
                NSManagedObjectValidationError, "\(entityName).\(attribute.name): \(warning)", object: object,
                key: attribute.name, value: value)
        }
        return nil
    }

    /// Checks a composite's elements; `path` (entity, attribute, outer elements) is built only for a message.
    private static func checkComposite(
        _ dictionary: [String: Any], composite: NSCompositeAttributeDescription, path: @autoclosure () -> [String],
        object: NSManagedObject
    ) -> NSError? {
        let elements = composite.elements
        // One pass over the elements; keys that name no element are looked for only when some key
        // was not matched (that error comes first).
        var matched = 0
        var problem: NSError?
        for element in elements {
            guard let entry = dictionary[element.name] else {
                if problem == nil, !element.isOptional {
                    problem = error(
                        NSValidationMissingMandatoryPropertyError,
                        "\((path() + [element.name]).joined(separator: ".")) is a required value.",
                        object: object, key: composite.name, value: nil)
                }
                continue
            }
            matched += 1
            guard problem == nil else { continue }
            if isNull(entry) {
                if !element.isOptional {
                    problem = error(
                        NSValidationMissingMandatoryPropertyError,
                        "\((path() + [element.name]).joined(separator: ".")) is a required value.",
                        object: object, key: composite.name, value: nil)
                }
            } else if !AttributeValues.hasExpectedType(entry, for: element) {
                problem = error(
                    NSManagedObjectValidationError,
                    "\((path() + [element.name]).joined(separator: ".")) holds a \(type(of: entry)), not a value of type \(element.attributeType.xcodeName).",
                    object: object, key: composite.name, value: entry)
            } else if let nested = element as? NSCompositeAttributeDescription, let inner = entry as? [String: Any] {
                problem = checkComposite(inner, composite: nested, path: path() + [element.name], object: object)
            }
        }
        if matched < dictionary.count {
            for key in dictionary.keys where !elements.contains(where: { $0.name == key }) {
                return error(
                    NSManagedObjectValidationError, "\(path().joined(separator: ".")) has no element named \"\(key)\".",
                    object: object, key: composite.name, value: dictionary)
            }
        }
        return problem
    }

    private static func checkRelationship(
        _ value: Any?, relationship: NSRelationshipDescription, object: NSManagedObject
    ) -> NSError? {
        var entityName: String { object.entity.name ?? "?" }
        if relationship.isToMany {
            let count = RelationshipValues.objects(from: value).filter { !$0.isDeleted }.count
            if count == 0 && !relationship.isOptional {
                return error(
                    NSValidationMissingMandatoryPropertyError,
                    "\(entityName).\(relationship.name) is a required value.", object: object, key: relationship.name,
                    value: nil)
            }
            if relationship.minCount > 0, count > 0 || !relationship.isOptional, count < relationship.minCount {
                return error(
                    NSValidationRelationshipLacksMinimumCountError,
                    "\(entityName).\(relationship.name) has \(count) object(s); at least \(relationship.minCount) required.",
                    object: object, key: relationship.name, value: nil)
            }
            if relationship.maxCount > 0, count > relationship.maxCount {
                return error(
                    NSValidationRelationshipExceedsMaximumCountError,
                    "\(entityName).\(relationship.name) has \(count) object(s); at most \(relationship.maxCount) allowed.",
                    object: object, key: relationship.name, value: nil)
            }
        } else if !relationship.isOptional {
            let target = value as? NSManagedObject
            if target == nil || target!.isDeleted {
                return error(
                    NSValidationMissingMandatoryPropertyError,
                    "\(entityName).\(relationship.name) is a required value.", object: object, key: relationship.name,
                    value: nil)
            }
        }
        return nil
    }

    static func error(_ code: Int, _ message: String, object: NSManagedObject, key: String, value: Any?) -> NSError {
        var info: [String: Any] = [NSValidationObjectErrorKey: object, NSValidationKeyErrorKey: key]
        if let value { info[NSValidationValueErrorKey] = value }
        return coreDataError(code, message, info)
    }

    static func throwCollected(_ errors: [NSError], object: NSManagedObject?) throws {
        if errors.count == 1 { throw errors[0] }
        if errors.count > 1 {
            throw coreDataError(
                NSValidationMultipleErrorsError,
                "Multiple validation errors occurred: " + errors.map(\.localizedDescription).joined(separator: "; "),
                [NSDetailedErrorsKey: errors])
        }
    }
}
