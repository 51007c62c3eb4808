import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads the model files Xcode writes: `.xcdatamodeld` folders (versions + `.xccurrentversion`) and the
/// `contents` XML of each `.xcdatamodel`, composite attributes included.
enum XcodeModelLoader {
    /// Loads the model at a `.xcdatamodeld` folder (its current version), an `.xcdatamodel` folder, or a
    /// `contents` file.
    static func load(_ url: URL) throws -> NSManagedObjectModel {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw coreDataError(NSFileReadNoSuchFileError, "No model file at \(url.path).")
        }
        if !isDirectory.boolValue { return try loadContents(url, versionName: url.deletingLastPathComponent().deletingPathExtension().lastPathComponent) }
        if url.pathExtension == "xcdatamodeld" {
            let version = try currentVersion(of: url)
            return try load(url.appendingPathComponent(version))
        }
        return try loadContents(url.appendingPathComponent("contents"), versionName: url.deletingPathExtension().lastPathComponent)
    }

    /// The file name of the current version inside a `.xcdatamodeld` folder.
    static func currentVersion(of bundle: URL) throws -> String {
        let marker = bundle.appendingPathComponent(".xccurrentversion")
        if let data = try? Data(contentsOf: marker) {
            guard let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
                  let name = plist["_XCCurrentVersionName"] as? String else {
                throw coreDataError(NSFileReadCorruptFileError, "\(marker.path) is not a property list with _XCCurrentVersionName.")
            }
            return name
        }
        let versions = try self.versions(in: bundle)
        guard versions.count == 1, let only = versions.first else {
            throw coreDataError(NSFileReadCorruptFileError, "\(bundle.path) has \(versions.count) versions and no .xccurrentversion.")
        }
        return only
    }

    /// The `.xcdatamodel` version folders inside a `.xcdatamodeld` folder, sorted by name.
    static func versions(in bundle: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: bundle.path).filter { $0.hasSuffix(".xcdatamodel") }.sorted()
    }

    static func loadContents(_ url: URL, versionName: String) throws -> NSManagedObjectModel {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw coreDataError(NSFileReadCorruptFileError, "Cannot read model file \(url.path): \(error.localizedDescription)")
        }
        let document: XMLDocument
        do { document = try XMLDocument(data: data, options: []) } catch {
            throw coreDataError(NSFileReadCorruptFileError, "Model file \(url.path) is not valid XML: \(error.localizedDescription)")
        }
        guard let root = document.rootElement(), root.name == "model" else {
            throw coreDataError(NSFileReadCorruptFileError, "Model file \(url.path) has no <model> root element.")
        }
        let model = try parseModel(root, file: url.path)
        model.versionIdentifiers = [versionName]
        return model
    }

    private static func parseModel(_ root: XMLElement, file: String) throws -> NSManagedObjectModel {
        func fail(_ message: String) -> NSError { coreDataError(NSFileReadCorruptFileError, "\(file): \(message)") }
        // Composite types are declared once and referenced by attributes.
        var compositeElements: [String: XMLElement] = [:]
        for composite in root.elements(forName: "composite") {
            guard let name = composite.attribute(forName: "name")?.stringValue else { throw fail("a <composite> has no name") }
            compositeElements[name] = composite
        }
        var entities: [NSEntityDescription] = []
        var pendingRelationships: [(NSRelationshipDescription, XMLElement, String)] = []
        var parents: [(NSEntityDescription, String)] = []
        var byName: [String: NSEntityDescription] = [:]

        func attribute(from element: XMLElement, owner: String, depth: Int) throws -> NSAttributeDescription {
            guard let name = element.attribute(forName: "name")?.stringValue else { throw fail("an attribute of \(owner) has no name") }
            let typeName = element.attribute(forName: "attributeType")?.stringValue ?? "Undefined"
            guard let type = NSAttributeType(xcodeName: typeName) else {
                throw fail("attribute \(owner).\(name) has unknown attributeType \"\(typeName)\"")
            }
            let description: NSAttributeDescription
            if type == .compositeAttributeType {
                guard depth < 32 else { throw fail("composite \(owner).\(name) nests too deeply (a cycle?)") }
                guard let compositeName = element.attribute(forName: "composite")?.stringValue,
                      let definition = compositeElements[compositeName] else {
                    throw fail("composite attribute \(owner).\(name) refers to an undeclared composite")
                }
                let composite = NSCompositeAttributeDescription()
                composite.elements = try definition.elements(forName: "attribute").map {
                    try attribute(from: $0, owner: "\(owner).\(name)", depth: depth + 1)
                }
                description = composite
            } else if bool(element, "derived") {
                // A derived attribute: its value is computed from the derivation expression when saved.
                guard let derivation = element.attribute(forName: "derivation")?.stringValue else {
                    throw fail("derived attribute \(owner).\(name) has no derivation expression")
                }
                let derived = NSDerivedAttributeDescription()
                do {
                    derived.derivationExpression = try NSExpression(validatingFormat: derivation)
                } catch {
                    throw fail("derived attribute \(owner).\(name)'s derivation \"\(derivation)\" is not an expression: \(error)")
                }
                derived.attributeType = type
                description = derived
            } else {
                description = NSAttributeDescription()
                description.attributeType = type
            }
            description.name = name
            description.isOptional = bool(element, "optional")
            description.isTransient = bool(element, "transient")
            description.isIndexed = bool(element, "indexed")
            description.allowsExternalBinaryDataStorage = bool(element, "allowsExternalBinaryDataStorage")
            description.preservesValueInHistoryOnDeletion = bool(element, "preserveAfterDeletion")
            description.valueTransformerName = element.attribute(forName: "valueTransformerName")?.stringValue
            description.renamingIdentifier = element.attribute(forName: "elementID")?.stringValue
            description.versionHashModifier = element.attribute(forName: "versionHashModifier")?.stringValue
            if let defaultString = element.attribute(forName: "defaultValueString")?.stringValue {
                description.defaultValue = defaultValue(defaultString, type: type)
            }
            return description
        }

        for entityElement in root.elements(forName: "entity") {
            guard let name = entityElement.attribute(forName: "name")?.stringValue else { throw fail("an <entity> has no name") }
            let entity = NSEntityDescription()
            entity.name = name
            entity.managedObjectClassName = entityElement.attribute(forName: "representedClassName")?.stringValue ?? "NSManagedObject"
            entity.isAbstract = bool(entityElement, "isAbstract")
            entity.renamingIdentifier = entityElement.attribute(forName: "elementID")?.stringValue
            entity.versionHashModifier = entityElement.attribute(forName: "versionHashModifier")?.stringValue
            if let parent = entityElement.attribute(forName: "parentEntity")?.stringValue { parents.append((entity, parent)) }
            var properties: [NSPropertyDescription] = []
            for child in entityElement.children?.compactMap({ $0 as? XMLElement }) ?? [] {
                switch child.name {
                case "attribute":
                    properties.append(try attribute(from: child, owner: name, depth: 0))
                case "relationship":
                    guard let relName = child.attribute(forName: "name")?.stringValue else { throw fail("a relationship of \(name) has no name") }
                    let relationship = NSRelationshipDescription()
                    relationship.name = relName
                    relationship.isOptional = bool(child, "optional")
                    relationship.isTransient = bool(child, "transient")
                    relationship.isOrdered = bool(child, "ordered")
                    relationship.renamingIdentifier = child.attribute(forName: "elementID")?.stringValue
                    relationship.versionHashModifier = child.attribute(forName: "versionHashModifier")?.stringValue
                    if bool(child, "toMany") {
                        relationship.maxCount = Int(child.attribute(forName: "maxCount")?.stringValue ?? "") ?? 0
                    } else {
                        relationship.maxCount = 1
                    }
                    relationship.minCount = Int(child.attribute(forName: "minCount")?.stringValue ?? "") ?? 0
                    switch child.attribute(forName: "deletionRule")?.stringValue ?? "Nullify" {
                    case "Cascade": relationship.deleteRule = .cascadeDeleteRule
                    case "Deny": relationship.deleteRule = .denyDeleteRule
                    case "No Action": relationship.deleteRule = .noActionDeleteRule
                    default: relationship.deleteRule = .nullifyDeleteRule
                    }
                    pendingRelationships.append((relationship, child, name))
                    properties.append(relationship)
                case "fetchIndex":
                    let indexName = child.attribute(forName: "name")?.stringValue ?? "index"
                    let elements = child.elements(forName: "fetchIndexElement").compactMap { e -> NSFetchIndexElementDescription? in
                        guard let property = e.attribute(forName: "property")?.stringValue else { return nil }
                        let element = NSFetchIndexElementDescription(keyPath: property,
                                                                     collationType: e.attribute(forName: "type")?.stringValue == "RTree" ? .rTree : .binary)
                        element.isAscending = e.attribute(forName: "order")?.stringValue != "descending"
                        return element
                    }
                    entity.indexes.append(NSFetchIndexDescription(name: indexName, elements: elements))
                case "uniquenessConstraints":
                    for constraint in child.elements(forName: "uniquenessConstraint") {
                        entity.uniquenessConstraints.append(constraint.elements(forName: "constraint").compactMap { $0.attribute(forName: "value")?.stringValue })
                    }
                default:
                    continue
                }
            }
            entity.properties = properties
            entities.append(entity)
            byName[name] = entity
        }
        for (relationship, element, owner) in pendingRelationships {
            guard let destinationName = element.attribute(forName: "destinationEntity")?.stringValue,
                  let destination = byName[destinationName] else {
                throw fail("relationship \(owner).\(relationship.name) has no known destinationEntity")
            }
            relationship.destinationEntity = destination
            if let inverseName = element.attribute(forName: "inverseName")?.stringValue {
                let inverseEntity = element.attribute(forName: "inverseEntity")?.stringValue.flatMap { byName[$0] } ?? destination
                guard let inverse = inverseEntity.properties.first(where: { $0.name == inverseName }) as? NSRelationshipDescription else {
                    throw fail("relationship \(owner).\(relationship.name) names inverse \(inverseName), which \(inverseEntity.name ?? "?") lacks")
                }
                relationship.inverseRelationship = inverse
            }
        }
        for (entity, parentName) in parents {
            guard let parent = byName[parentName] else { throw fail("entity \(entity.name ?? "?") has unknown parentEntity \(parentName)") }
            parent.subentities.append(entity)
        }
        let model = NSManagedObjectModel()
        model.entities = entities
        for configuration in root.elements(forName: "configuration") {
            guard let name = configuration.attribute(forName: "name")?.stringValue else { continue }
            let members = configuration.elements(forName: "memberEntity").compactMap { $0.attribute(forName: "name")?.stringValue }
            model.setEntities(members.compactMap { byName[$0] }, forConfigurationName: name)
        }
        return model
    }

    private static func bool(_ element: XMLElement, _ name: String) -> Bool {
        element.attribute(forName: name)?.stringValue == "YES"
    }

    private static func defaultValue(_ string: String, type: NSAttributeType) -> Any? {
        switch type {
        case .integer16AttributeType: return Int16(string)
        case .integer32AttributeType: return Int32(string)
        case .integer64AttributeType: return Int64(string)
        case .doubleAttributeType: return Double(string)
        case .floatAttributeType: return Float(string)
        case .decimalAttributeType: return Decimal(string: string)
        case .booleanAttributeType: return string == "YES" || string == "1" || string.lowercased() == "true"
        case .stringAttributeType: return string
        case .URIAttributeType: return URL(string: string)
        case .UUIDAttributeType: return UUID(uuidString: string)
        case .dateAttributeType: return Double(string).map { Date(timeIntervalSinceReferenceDate: $0) }
        default: return nil
        }
    }
}
