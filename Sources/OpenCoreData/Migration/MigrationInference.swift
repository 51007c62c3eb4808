import Foundation

/// Infers how a destination model's entities and properties come from a source model's, through any
/// intermediate versions (renames chain: each step matches by `renamingIdentifier`, then by name), and
/// lists every change lightweight migration cannot make.
struct MigrationInference {
    /// Source entity name for each destination entity name (absent: a new entity).
    var entitySource: [String: NSEntityDescription] = [:]
    /// For each destination entity name, the source property of each destination property name.
    var propertySource: [String: [String: NSPropertyDescription]] = [:]
    /// The changes lightweight migration cannot make, one sentence each, naming entity and property.
    var faults: [String] = []
    /// Readable descriptions of what changes (for `NSMappingModel` and the command-line tool).
    var changes: [String] = []

    let source: NSManagedObjectModel
    let destination: NSManagedObjectModel

    /// `chain` lists the models from source to destination (at least two).
    init(chain: [NSManagedObjectModel]) {
        source = chain.first!
        destination = chain.last!
        let descending = Array(chain.reversed())
        var claimed: [ObjectIdentifier: String] = [:]
        for entity in destination.entities.sorted(by: { ($0.name ?? "") < ($1.name ?? "") }) {
            let name = entity.name ?? ""
            guard let origin = Self.trace(entity, through: descending) else {
                changes.append("add entity \(name)")
                continue
            }
            if let other = claimed[ObjectIdentifier(origin)] {
                faults.append("Entities \(other) and \(name) both come from source entity \(origin.name ?? "?"); lightweight migration cannot split an entity.")
                continue
            }
            claimed[ObjectIdentifier(origin)] = name
            entitySource[name] = origin
            if origin.name != name { changes.append("rename entity \(origin.name ?? "?") to \(name)") }
            checkProperties(of: entity, origin: origin, chain: descending)
        }
        for entity in source.entities where claimed[ObjectIdentifier(entity)] == nil {
            changes.append("remove entity \(entity.name ?? "?")")
        }
        checkTables()
    }

    /// The entity a destination entity came from, following the chain back to the source model.
    static func trace(_ entity: NSEntityDescription, through descending: [NSManagedObjectModel]) -> NSEntityDescription? {
        var current = entity
        for model in descending.dropFirst() {
            guard let previous = previousEntity(of: current, in: model) else { return nil }
            current = previous
        }
        return current
    }

    static func previousEntity(of entity: NSEntityDescription, in model: NSManagedObjectModel) -> NSEntityDescription? {
        if let id = entity.renamingIdentifier {
            if let hit = model.entities.first(where: { $0.name == id || $0.renamingIdentifier == id }) { return hit }
        }
        return model.entities.first { $0.name == entity.name }
    }

    static func previousProperty<P: NSPropertyDescription>(of property: NSPropertyDescription, among candidates: [P]) -> P? {
        if let id = property.renamingIdentifier {
            if let hit = candidates.first(where: { $0.name == id || $0.renamingIdentifier == id }) { return hit }
        }
        return candidates.first { $0.name == property.name }
    }

    /// The property a destination property came from: each step looks in the previous version of the
    /// entity, inherited properties included (so properties may move within a hierarchy).
    static func trace(_ property: NSPropertyDescription, of entity: NSEntityDescription, through descending: [NSManagedObjectModel]) -> NSPropertyDescription? {
        var currentEntity = entity
        var current = property
        for model in descending.dropFirst() {
            guard let previousEntity = previousEntity(of: currentEntity, in: model),
                  let previous = previousProperty(of: current, among: previousEntity.layout.properties) else { return nil }
            currentEntity = previousEntity
            current = previous
        }
        return current.isTransient ? nil : current
    }

    mutating func checkProperties(of entity: NSEntityDescription, origin: NSEntityDescription, chain descending: [NSManagedObjectModel]) {
        let name = entity.name ?? ""
        var sources: [String: NSPropertyDescription] = [:]
        var used: [ObjectIdentifier: String] = [:]
        for property in entity.layout.properties where !property.isTransient {
            let at = "\(name).\(property.name)"
            guard let from = Self.trace(property, of: entity, through: descending) else {
                changes.append("add \(at)")
                continue
            }
            if let other = used[ObjectIdentifier(from)] {
                faults.append("\(at) and \(name).\(other) both come from \(origin.name ?? "?").\(from.name).")
                continue
            }
            used[ObjectIdentifier(from)] = property.name
            sources[property.name] = from
            if from.name != property.name { changes.append("rename \(origin.name ?? "?").\(from.name) to \(at)") }
            switch (property, from) {
            case (let d as NSCompositeAttributeDescription, let s as NSCompositeAttributeDescription):
                checkElements(d.elements, s.elements, at: at)
                if !d.isOptional, s.isOptional { changes.append("\(at) becomes non-optional") }
            case (is NSCompositeAttributeDescription, _), (_, is NSCompositeAttributeDescription):
                faults.append("\(at) changes between a composite and a non-composite attribute.")
            case (let d as NSAttributeDescription, let s as NSAttributeDescription):
                if d.attributeType != s.attributeType {
                    faults.append("\(at) changes type from \(s.attributeType.xcodeName) to \(d.attributeType.xcodeName).")
                } else if !d.isOptional, s.isOptional {
                    changes.append(d.defaultValue == nil ? "\(at) becomes non-optional (rows must not be nil)" : "\(at) becomes non-optional with a default")
                } else if d.isOptional, !s.isOptional {
                    changes.append("\(at) becomes optional")
                }
            case (let d as NSRelationshipDescription, let s as NSRelationshipDescription):
                if s.isToMany, !d.isToMany {
                    faults.append("\(at) changes from to-many to to-one.")
                }
                if let destination = d.destinationEntity {
                    let traced = Self.trace(destination, through: descending)
                    if let traced, let sd = s.destinationEntity, traced !== sd, !traced.isKindOf(entity: sd), !sd.isKindOf(entity: traced) {
                        faults.append("\(at) changes destination from \(sd.name ?? "?") to \(destination.name ?? "?"), an unrelated entity.")
                    }
                }
                if !s.isToMany, d.isToMany { changes.append("\(at) becomes to-many") }
                if s.isOrdered != d.isOrdered { changes.append("\(at) becomes \(d.isOrdered ? "ordered" : "unordered")") }
            default:
                faults.append("\(at) changes between an attribute and a relationship.")
            }
        }
        for property in origin.layout.properties where !property.isTransient && used[ObjectIdentifier(property)] == nil {
            changes.append("remove \(origin.name ?? "?").\(property.name)")
        }
        propertySource[name] = sources
    }

    mutating func checkElements(_ destination: [NSAttributeDescription], _ source: [NSAttributeDescription], at path: String) {
        for element in destination {
            let at = "\(path).\(element.name)"
            guard let from = Self.previousProperty(of: element, among: source) else {
                changes.append("add element \(at)")
                continue
            }
            if from.name != element.name { changes.append("rename element \(path).\(from.name) to \(at)") }
            switch (element, from) {
            case (let d as NSCompositeAttributeDescription, let s as NSCompositeAttributeDescription):
                checkElements(d.elements, s.elements, at: at)
            case (is NSCompositeAttributeDescription, _), (_, is NSCompositeAttributeDescription):
                faults.append("\(at) changes between a composite and a non-composite element.")
            default:
                if element.attributeType != from.attributeType {
                    faults.append("\(at) changes type from \(from.attributeType.xcodeName) to \(element.attributeType.xcodeName).")
                }
            }
        }
        let matched = destination.compactMap { Self.previousProperty(of: $0, among: source) }
        for element in source where !matched.contains(where: { $0 === element }) {
            changes.append("remove element \(path).\(element.name)")
        }
    }

    /// Each destination table takes its rows from at most one source table: lightweight migration
    /// cannot merge two hierarchies.
    mutating func checkTables() {
        var roots: [String: (String, String)] = [:]
        for entity in destination.entities {
            guard let origin = entitySource[entity.name ?? ""] else { continue }
            let root = entity.rootEntity.name ?? ""
            let sourceRoot = origin.rootEntity.name ?? ""
            if let (seen, seenEntity) = roots[root], seen != sourceRoot {
                faults.append("\(seenEntity) and \(entity.name ?? "") come from two hierarchies (\(seen) and \(sourceRoot)) that lightweight migration cannot merge into \(root).")
            } else {
                roots[root] = (sourceRoot, entity.name ?? "")
            }
        }
    }
}
