import Foundation

/// The serialization format a ``Coder`` uses.
public enum CoderFormat: Sendable {
    /// JSON (JSONEncoder / JSONDecoder).
    case json
    /// Binary property lists (PropertyListEncoder / PropertyListDecoder).
    case propertyList

    func encode<T: Encodable>(_ value: T) throws -> Data {
        switch self {
        case .json: return try JSONEncoder().encode(value)
        case .propertyList:
            let e = PropertyListEncoder()
            e.outputFormat = .binary
            return try e.encode(value)
        }
    }

    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        switch self {
        case .json: return try JSONDecoder().decode(type, from: data)
        case .propertyList: return try PropertyListDecoder().decode(type, from: data)
        }
    }
}
