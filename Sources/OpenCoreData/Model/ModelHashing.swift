import Crypto
import Foundation

/// Orchard's canonical, documented digests for model versions.
///
/// Apple does not publish what its hashes cover, so Orchard defines its own (docs/ARCHITECTURE.md):
/// every hash is SHA-256 over a canonical byte string made of `tag` and `value` fields, each written as
/// a 4-byte big-endian length followed by UTF-8 bytes (or the nested digest's 32 bytes).
/// - A property's fields: name, isOptional, isTransient, isReadOnly, versionHashModifier; attributes
///   add their type (and a composite its elements' hashes, sorted by element name); relationships add
///   the destination entity's name, the inverse's name, isToMany and isOrdered.
/// - An entity's fields: name, the superentity's hash, isAbstract, versionHashModifier, then its own
///   properties' hashes sorted by property name.
/// - The model's `versionChecksum`: base64 of SHA-256 over the entities sorted by name, each as its
///   name and version hash. Declaration order, run, and machine do not change any of these.
enum ModelHashing {
    struct Builder {
        var bytes = Data("orchard-model-hash-v1".utf8)

        mutating func add(_ tag: String, _ value: String) { field(tag); field(Data(value.utf8)) }
        mutating func add(_ tag: String, _ value: Bool) { add(tag, value ? "1" : "0") }
        mutating func add(_ tag: String, _ value: Int) { add(tag, String(value)) }
        mutating func add(_ tag: String, _ value: Data) { field(tag); field(value) }

        private mutating func field(_ tag: String) { field(Data(tag.utf8)) }
        private mutating func field(_ data: Data) {
            var length = UInt32(data.count).bigEndian
            withUnsafeBytes(of: &length) { bytes.append(contentsOf: $0) }
            bytes.append(data)
        }

        var digest: Data { Data(SHA256.hash(data: bytes)) }
    }

    static func hash(of property: NSPropertyDescription) -> Data {
        var builder = Builder()
        property.hashFields(into: &builder)
        return builder.digest
    }

    static func hash(of entity: NSEntityDescription) -> Data {
        var builder = Builder()
        builder.add("entity", entity.name ?? "")
        builder.add("super", entity.superentity.map { hash(of: $0) } ?? Data())
        builder.add("abstract", entity.isAbstract)
        builder.add("modifier", entity.versionHashModifier ?? "")
        for property in entity.properties.sorted(by: { $0.name < $1.name }) {
            builder.add("property", hash(of: property))
        }
        return builder.digest
    }

    static func checksum(of model: NSManagedObjectModel) -> String {
        var builder = Builder()
        for entity in model.entities.sorted(by: { ($0.name ?? "") < ($1.name ?? "") }) {
            builder.add(entity.name ?? "", hash(of: entity))
        }
        return builder.digest.base64EncodedString()
    }

    static func checksum(ofEntityHashes hashes: [String: Data]) -> String {
        var builder = Builder()
        for name in hashes.keys.sorted() {
            builder.add(name, hashes[name]!)
        }
        return builder.digest.base64EncodedString()
    }
}
