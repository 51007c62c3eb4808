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

/// JSON, with one `JSONEncoder` and one `JSONDecoder`, set up once by the closures given (if any) and shared by every
/// message (Foundation's encoder and decoder may be used from several threads at once).
public struct NetworkJSONCoder: NetworkCoder {
    private let encoder: JSONEncoder
    private let decoder: JSONDecoder

    /// JSON with Foundation's defaults, or with the encoder and decoder set up by `encoder` and `decoder` (date and
    /// key strategies, for example). The closures run once, here.
    public init(
        encoder: (JSONEncoder) -> Void = { _ in },
        decoder: (JSONDecoder) -> Void = { _ in }
    ) {
        let configuredEncoder = JSONEncoder()
        encoder(configuredEncoder)
        self.encoder = configuredEncoder
        let configuredDecoder = JSONDecoder()
        decoder(configuredDecoder)
        self.decoder = configuredDecoder
    }

    /// The value as JSON.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        try encoder.encode(value)
    }

    /// A value from JSON.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decoder.decode(type, from: data)
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
