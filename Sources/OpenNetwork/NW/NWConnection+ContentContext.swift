import Foundation

extension NWConnection {
    /// What content is within the connection: an ordinary message (`.defaultMessage`), the last one
    /// (`.finalMessage`), or a message carrying protocol metadata such as a framer's
    /// ``NWProtocolFramer/Message``.
    ///
    /// The last message: the connection's sending side closes after it (over TLS with a close_notify first) and
    /// reading goes on; over UDP the connection closes gracefully.
    public final class ContentContext: Sendable {
        /// A name for the context.
        public let identifier: String
        /// Milliseconds after the send call beyond which content still queued is dropped (0: never). A dropped
        /// send completes with ETIMEDOUT.
        public let expirationMilliseconds: UInt64
        /// The content's priority relative to other sends, 0 to 1. Kept and reported; one stream (TCP, TLS) or
        /// socket (UDP) sends in call order whatever the priority, as Apple's do on those transports.
        public let relativePriority: Double
        /// Whether this is the last content sent on the connection.
        public let isFinal: Bool
        /// Content that must be processed before this one. Sends complete in call order, so an antecedent sent
        /// earlier always comes first.
        public let antecedent: ContentContext?
        /// The metadata protocols attached: a framer's message, for one.
        public let protocolMetadata: [NWProtocolMetadata]

        /// A context named `identifier`; `metadata` holds per-message protocol metadata (a framer's message).
        public init(
            identifier: String, expiration: UInt64 = 0, priority: Double = 0.5, isFinal: Bool = false,
            antecedent: ContentContext? = nil, metadata: [NWProtocolMetadata]? = []
        ) {
            self.identifier = identifier
            self.expirationMilliseconds = expiration
            self.relativePriority = priority
            self.isFinal = isFinal
            self.antecedent = antecedent
            self.protocolMetadata = metadata ?? []
        }

        /// The metadata the protocol `definition` attached, if any.
        public func protocolMetadata(definition: NWProtocolDefinition) -> NWProtocolMetadata? {
            protocolMetadata.first { $0.definition === definition }
        }

        /// An ordinary message.
        public static let defaultMessage = ContentContext(identifier: "default")
        /// The last message: the sending side closes once it is written.
        public static let finalMessage = ContentContext(identifier: "final", isFinal: true)
        /// Content of a stream that has no message boundaries.
        public static let defaultStream = ContentContext(identifier: "stream")
    }
}
