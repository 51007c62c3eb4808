/// Identifies a protocol in a stack: ``NWProtocolFramer/Definition`` is one. Two definitions are equal when they are
/// the same object, as Apple's are.
public class NWProtocolDefinition: @unchecked Sendable, Equatable, CustomDebugStringConvertible {  // Unchecked: immutable.
    /// The protocol's name (a framer's `label`).
    public let name: String

    init(name: String) { self.name = name }

    /// Whether both are the same definition.
    public static func == (lhs: NWProtocolDefinition, rhs: NWProtocolDefinition) -> Bool { lhs === rhs }

    /// The protocol's name.
    public var debugDescription: String { name }
}

/// Per-message information a protocol attaches to content: a framer's ``NWProtocolFramer/Message`` is one. It
/// travels in an ``NWConnection/ContentContext``'s `protocolMetadata`.
public class NWProtocolMetadata: @unchecked Sendable {  // Unchecked: immutable here; subclasses lock their fields.
    /// The protocol that made it.
    let definition: NWProtocolDefinition

    init(definition: NWProtocolDefinition) { self.definition = definition }

    /// Whether this is a framer's message.
    public var isFramerMessage: Bool { self is NWProtocolFramer.Message }
}
