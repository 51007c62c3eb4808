import Foundation
import GRDB

/// Converts attribute values to and from SQLite values, as Core Data stores them:
/// integers and Booleans as INTEGER, dates as seconds since 2001-01-01 (REAL), UUIDs as 16-byte
/// BLOBs, URIs as text, decimals as REAL, transformables as the BLOB their transformer produces.
enum SQLValueCodec {
    static func encode(_ value: Any?, type: NSAttributeType, transformerName: String? = nil) -> DatabaseValue {
        guard let value else { return .null }
        // Exact Swift types first (casting to Foundation classes makes Swift try bridging).
        switch type {
        case .stringAttributeType: if let s = value as? String { return s.databaseValue }
        case .integer64AttributeType: if let v = value as? Int64 { return v.databaseValue }
        case .integer32AttributeType: if let v = value as? Int32 { return Int64(v).databaseValue }
        case .integer16AttributeType: if let v = value as? Int16 { return Int64(v).databaseValue }
        case .doubleAttributeType: if let v = value as? Double { return v.databaseValue }
        case .booleanAttributeType: if let v = value as? Bool { return (v ? 1 : 0 as Int64).databaseValue }
        case .dateAttributeType: if let d = value as? Date { return d.timeIntervalSinceReferenceDate.databaseValue }
        default: break
        }
        if isNull(value) { return .null }
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            if let n = NumericValue(value) { return n.int64.databaseValue }
        case .booleanAttributeType:
            if let b = value as? Bool { return (b ? 1 : 0 as Int64).databaseValue }
            if let n = NumericValue(value) { return (n.int64 != 0 ? 1 : 0 as Int64).databaseValue }
        case .doubleAttributeType, .floatAttributeType, .decimalAttributeType:
            if let d = value as? Decimal { return NSDecimalNumber(decimal: d).doubleValue.databaseValue }
            if let n = NumericValue(value) { return n.double.databaseValue }
        case .stringAttributeType:
            if let s = value as? String { return s.databaseValue }
        case .dateAttributeType:
            if let d = value as? Date { return d.timeIntervalSinceReferenceDate.databaseValue }
        case .binaryDataAttributeType:
            if let d = value as? Data { return d.databaseValue }
        case .UUIDAttributeType:
            if let u = value as? UUID { return UUIDBytes.data(u).databaseValue }
        case .URIAttributeType:
            if let u = value as? URL { return u.absoluteString.databaseValue }
        case .transformableAttributeType:
            if let data = Transformers.encode(value, transformerName: transformerName) { return data.databaseValue }
            return .null
        case .undefinedAttributeType, .objectIDAttributeType, .compositeAttributeType:
            break
        }
        // Values of other types reach here only past validation (for example in predicates).
        if let s = value as? String { return s.databaseValue }
        if let n = NumericValue(value) { return n.isInteger ? n.int64.databaseValue : n.double.databaseValue }
        if let d = value as? Date { return d.timeIntervalSinceReferenceDate.databaseValue }
        if let d = value as? Data { return d.databaseValue }
        if let u = value as? UUID { return UUIDBytes.data(u).databaseValue }
        if let u = value as? URL { return u.absoluteString.databaseValue }
        return String(describing: value).databaseValue
    }

    /// Reads column `index` of a row as a typed slot value of the attribute's type (a transformable
    /// through the transformer named `transformerName`, asked for only then).
    @inline(__always)
    static func decodeSlot<Columns: SQLColumns>(
        _ row: Columns, _ index: Int, type: NSAttributeType,
        transformerName: @autoclosure () -> String? = nil
    ) -> SlotValue {
        switch type {
        case .stringAttributeType: return row.string(index).map(SlotValue.string) ?? .null
        case .integer64AttributeType: return row.int64(index).map(SlotValue.int64) ?? .null
        case .integer32AttributeType: return row.int64(index).map { .int32(Int32(truncatingIfNeeded: $0)) } ?? .null
        case .integer16AttributeType: return row.int64(index).map { .int16(Int16(truncatingIfNeeded: $0)) } ?? .null
        case .booleanAttributeType: return row.int64(index).map { .bool($0 != 0) } ?? .null
        case .doubleAttributeType: return row.double(index).map(SlotValue.double) ?? .null
        case .floatAttributeType: return row.double(index).map { .float(Float($0)) } ?? .null
        case .dateAttributeType:
            return row.double(index).map { .date(Date(timeIntervalSinceReferenceDate: $0)) } ?? .null
        case .binaryDataAttributeType: return row.data(index).map(SlotValue.data) ?? .null
        case .UUIDAttributeType:
            guard let data = row.data(index), let uuid = UUIDBytes.uuid(data) else { return .null }
            return .uuid(uuid)
        case .decimalAttributeType:
            return SlotValue(row.double(index).map { Decimal(string: String($0)) ?? Decimal($0) })
        case .URIAttributeType: return SlotValue(row.string(index).flatMap { URL(string: $0) })
        case .transformableAttributeType:
            guard let data = row.data(index) else { return .null }
            return SlotValue(Transformers.decode(data, transformerName: transformerName()))
        case .undefinedAttributeType, .objectIDAttributeType, .compositeAttributeType:
            return .null
        }
    }

    /// Reads column `index` of a row as a value of the attribute's type.
    @inline(__always)
    static func decode<Columns: SQLColumns>(
        _ row: Columns, _ index: Int, type: NSAttributeType,
        transformerName: @autoclosure () -> String? = nil
    ) -> Any? {
        decodeSlot(row, index, type: type, transformerName: transformerName()).takeAny()
    }
}

/// Transformable attribute support: a registered `ValueTransformer`, or by default a keyed archive.
enum Transformers {
    static func encode(_ value: Any, transformerName: String?) -> Data? {
        if let name = transformerName,
            let transformer = ValueTransformer.registered(forName: NSValueTransformerName(name))
        {
            return transformer.transformedValue(value) as? Data
        }
        if let data = value as? Data { return data }
        return try? NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: false)
    }

    static func decode(_ data: Data, transformerName: String?) -> Any? {
        if let name = transformerName,
            let transformer = ValueTransformer.registered(forName: NSValueTransformerName(name))
        {
            return transformer.reverseTransformedValue(data)
        }
        return (try? NSKeyedUnarchiver.unarchiveTopLevelObjectWithData(data)) ?? data
    }
}

/// A UUID as the 16 bytes Core Data stores for it, and back.
enum UUIDBytes {
    static func data(_ uuid: UUID) -> Data {
        let u = uuid.uuid
        return Data([u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15])
    }

    /// The UUID in `data`, when it is 16 bytes long.
    static func uuid(_ data: Data) -> UUID? {
        guard data.count == 16 else { return nil }
        let b = Array(data)
        return UUID(
            uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])
        )
    }
}
