import Crypto
import Foundation

/// Core Data's version hashes, byte for byte (../shared/reference/coredata-version-hashes.md, reconstructed
/// from values Apple's tools wrote into public models and stores; docs/CORE-DATA-FORMATS.md says which
/// paths no outside value has checked yet).
///
/// Every hash is SHA-256. Strings are their UTF-8 bytes with no length or terminator (an absent or empty
/// optional string adds nothing), integers are little-endian, and "sorted" is `NSString.compare(_:)` order,
/// which for names is UTF-16 code-unit order.
/// - A property's base: name, a 2-byte flags word (optional 1, transient 2, readOnly 4), versionHashModifier.
/// - An attribute: the base's hash, `attributeType` as 4 bytes, then a byte `01` for external binary
///   storage and one for `preservesValueInHistoryOnDeletion`. A composite: its non-transient leaf
///   elements' hashes, sorted by name (name, flags and type of the composite itself are not part of it).
/// - A relationship: the base's hash, the destination's name, the inverse's name (unless it is its own
///   inverse), maxCount and minCount as 4 bytes each (unbounded is 0), and `01 00` if ordered.
/// - An entity: name, a byte for isAbstract, the superentity's hash, the hashes of every non-transient
///   property including inherited ones sorted by name, versionHashModifier, then each uniqueness
///   constraint's property names joined with "." (these strings sorted).
/// - `versionChecksum`: base64 of SHA-256 over the entity hashes in sorted entity-name order.
/// - `NSStoreModelVersionHashesDigest`: base64 of SHA-512 over each entity's name and hash, sorted by name.
/// Not part of any hash: renaming identifiers, delete rules, defaults, class names, user info, validation,
/// fetch indexes, configurations, transformer names.
enum ModelHashing {
    /// The bytes a hash is taken over.
    struct Bytes {
        private(set) var data = Data()

        mutating func string(_ value: String?) {
            if let value { data.append(contentsOf: Array(value.utf8)) }
        }

        mutating func bytes(_ value: Data) { data.append(value) }

        mutating func byte(_ value: UInt8) { data.append(value) }

        mutating func uint16(_ value: UInt16) {
            data.append(UInt8(value & 0xFF))
            data.append(UInt8(value >> 8))
        }

        mutating func uint32(_ value: UInt32) {
            for shift in stride(from: 0, to: 32, by: 8) { data.append(UInt8((value >> UInt32(shift)) & 0xFF)) }
        }

        var sha256: Data { Data(SHA256.hash(data: data)) }
        var sha512: Data { Data(SHA512.hash(data: data)) }
    }

    /// `NSString.compare(_:)` order for names: UTF-16 code units.
    static func precedes(_ a: String, _ b: String) -> Bool { a.utf16.lexicographicallyPrecedes(b.utf16) }

    static func hash(of property: NSPropertyDescription) -> Data {
        if let composite = property as? NSCompositeAttributeDescription {
            var bytes = Bytes()
            for leaf in leaves(of: composite).sorted(by: { precedes($0.name, $1.name) }) {
                bytes.bytes(hash(of: leaf))
            }
            return bytes.sha256
        }
        if let derived = property as? NSDerivedAttributeDescription, let expression = derived.derivationExpression {
            // The derivation's predicateFormat alone (name, flags and type are not part of a derived hash).
            var bytes = Bytes()
            bytes.string(expression.description)
            return bytes.sha256
        }
        var bytes = Bytes()
        bytes.bytes(baseHash(of: property))
        if let attribute = property as? NSAttributeDescription {
            bytes.uint32(UInt32(truncatingIfNeeded: attribute.attributeType.rawValue))
            if attribute.allowsExternalBinaryDataStorage { bytes.byte(1) }
            if attribute.preservesValueInHistoryOnDeletion { bytes.byte(1) }
        } else if let relationship = property as? NSRelationshipDescription {
            bytes.string(relationship.destinationEntity?.name)
            if let inverse = relationship.inverseRelationship, !isOwnInverse(relationship, inverse) {
                bytes.string(inverse.name)
            }
            bytes.uint32(UInt32(truncatingIfNeeded: relationship.maxCount))
            bytes.uint32(UInt32(truncatingIfNeeded: relationship.minCount))
            if relationship.isOrdered {
                bytes.byte(1)
                bytes.byte(0)
            }
        }
        return bytes.sha256
    }

    /// Name, flags and modifier: what every property's hash starts from.
    private static func baseHash(of property: NSPropertyDescription) -> Data {
        var bytes = Bytes()
        bytes.string(property.name)
        var flags: UInt16 = 0
        if property.isOptional { flags |= 1 }
        if property.isTransient { flags |= 2 }
        if property.isReadOnly { flags |= 4 }
        bytes.uint16(flags)
        bytes.string(property.versionHashModifier)
        return bytes.sha256
    }

    /// A composite's leaf elements, nested composites expanded, transient ones left out.
    private static func leaves(of composite: NSCompositeAttributeDescription) -> [NSAttributeDescription] {
        composite.elements.flatMap { element -> [NSAttributeDescription] in
            if let nested = element as? NSCompositeAttributeDescription { return leaves(of: nested) }
            return element.isTransient ? [] : [element]
        }
    }

    /// A relationship that is its own inverse, or the inherited copy of an ancestor's self-inverse one.
    private static func isOwnInverse(_ relationship: NSRelationshipDescription, _ inverse: NSRelationshipDescription) -> Bool {
        if inverse === relationship { return true }
        guard inverse.name == relationship.name, inverse.inverseRelationship === inverse,
              let declaring = inverse.entity, var entity = relationship.entity else { return false }
        while let parent = entity.superentity {
            if parent === declaring { return true }
            entity = parent
        }
        return false
    }

    static func hash(of entity: NSEntityDescription) -> Data {
        var bytes = Bytes()
        bytes.string(entity.name)
        bytes.byte(entity.isAbstract ? 1 : 0)
        if let parent = entity.superentity { bytes.bytes(hash(of: parent)) }
        let properties = entity.layout.properties.filter { !$0.isTransient }.sorted { precedes($0.name, $1.name) }
        for property in properties { bytes.bytes(hash(of: property)) }
        bytes.string(entity.versionHashModifier)
        let constraints = entity.uniquenessConstraints.map { constraint in
            constraint.compactMap { ($0 as? String) ?? ($0 as? NSPropertyDescription)?.name }.joined(separator: ".")
        }
        for constraint in constraints.sorted(by: precedes) { bytes.string(constraint) }
        return bytes.sha256
    }

    static func checksum(of model: NSManagedObjectModel) -> String {
        checksum(ofEntityHashes: model.entityVersionHashesByName)
    }

    /// `versionChecksum` from entity hashes alone (as a store's metadata holds them).
    static func checksum(ofEntityHashes hashes: [String: Data]) -> String {
        var bytes = Bytes()
        for name in hashes.keys.sorted(by: precedes) { bytes.bytes(hashes[name]!) }
        return bytes.sha256.base64EncodedString()
    }

    /// `NSStoreModelVersionHashesDigest` from entity hashes.
    static func digest(ofEntityHashes hashes: [String: Data]) -> String {
        var bytes = Bytes()
        for name in hashes.keys.sorted(by: precedes) {
            bytes.string(name)
            bytes.bytes(hashes[name]!)
        }
        return bytes.sha512.base64EncodedString()
    }
}
