import Foundation

/// Encodes the values a ``Coder`` sends and decodes the ones it receives. Apple's Network framework declares this
/// protocol so that an app can bring its own format; ``NetworkJSONCoder`` (`.json`) and
/// ``NetworkPropertyListCoder`` (`.propertyList`) are the two it ships.
public protocol NetworkCoder: Sendable {
    /// The bytes of one value.
    func encode<T: Encodable>(_ value: T) throws -> Data
    /// One value from the bytes of one message.
    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T
}

/// JSON, with a fresh `JSONEncoder` / `JSONDecoder` configured by the closures given (if any) for each message.
public struct NetworkJSONCoder: NetworkCoder {
    private let configureEncoder: @Sendable (JSONEncoder) -> Void
    private let configureDecoder: @Sendable (JSONDecoder) -> Void

    /// JSON with Foundation's defaults, or with the encoder and decoder set up by `encoder` and `decoder` (date and
    /// key strategies, for example).
    public init(
        encoder: @escaping @Sendable (JSONEncoder) -> Void = { _ in },
        decoder: @escaping @Sendable (JSONDecoder) -> Void = { _ in }
    ) {
        configureEncoder = encoder
        configureDecoder = decoder
    }

    /// The value as JSON.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        configureEncoder(encoder)
        return try encoder.encode(value)
    }

    /// A value from JSON.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let decoder = JSONDecoder()
        configureDecoder(decoder)
        return try decoder.decode(type, from: data)
    }
}

/// Property lists, binary by default.
public struct NetworkPropertyListCoder: NetworkCoder {
    /// The format values are written in (`.binary` or `.xml`); any is read.
    public var outputFormat: PropertyListSerialization.PropertyListFormat

    /// Property lists written in `outputFormat`.
    public init(outputFormat: PropertyListSerialization.PropertyListFormat = .binary) {
        self.outputFormat = outputFormat
    }

    /// The value as a property list.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = outputFormat
        return try encoder.encode(value)
    }

    /// A value from a property list.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try PropertyListDecoder().decode(type, from: data)
    }
}

extension NetworkCoder where Self == NetworkJSONCoder {
    /// JSON: `Coder(GameMessage.self, using: .json) { TLS() }`.
    public static var json: NetworkJSONCoder { NetworkJSONCoder() }
}

extension NetworkCoder where Self == NetworkPropertyListCoder {
    /// Binary property lists: `Coder(GameMessage.self, using: .propertyList) { TLS() }`.
    public static var propertyList: NetworkPropertyListCoder { NetworkPropertyListCoder() }
}
