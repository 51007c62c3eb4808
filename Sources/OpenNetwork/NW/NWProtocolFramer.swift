import NIOConcurrencyHelpers

/// A custom protocol in an ``NWParameters`` stack: an app's own message framing, written as an
/// ``NWProtocolFramerImplementation`` and put on top of TCP or TLS.
///
/// ```swift
/// final class GameProtocol: NWProtocolFramerImplementation {
///     static let definition = NWProtocolFramer.Definition(implementation: GameProtocol.self)
///     static var label: String { "Game" }
///     ... handleInput parses a header and calls framer.deliverInputNoCopy(length:message:isComplete:);
///     ... handleOutput writes a header with framer.writeOutput(data:) and the body with writeOutputNoCopy(length:).
/// }
/// let parameters = NWParameters.tcp
/// parameters.defaultProtocolStack.applicationProtocols.insert(
///     NWProtocolFramer.Options(definition: GameProtocol.definition), at: 0)
/// ```
///
/// The framer's callbacks run one at a time (Apple runs them on the connection's queue; here they run under a lock
/// the connection holds, so they must not block or wait for the connection). Messages are sent with an
/// ``NWConnection/ContentContext`` carrying an ``NWProtocolFramer/Message`` in its metadata, and received through
/// `receiveMessage`, whose context carries the message the framer delivered.
///
/// Linux differences: one framer per stack, above TCP or TLS (a framer over UDP, or two framers, fail the
/// connection with an error saying so); a delivered message is at most 16 MiB (a peer announcing more fails the
/// connection with ``NWError/messageTooLarge(length:limit:)`` instead of making it buffer without bound).
public enum NWProtocolFramer {
    /// The definition of a framer protocol: its implementation type, and its identity in contexts' metadata.
    public final class Definition: NWProtocolDefinition, @unchecked Sendable {  // Unchecked: immutable.
        /// The type whose instances frame each connection.
        let implementation: any NWProtocolFramerImplementation.Type

        /// The definition of the framer `implementation` (named by its `label`).
        public init(implementation: any NWProtocolFramerImplementation.Type) {
            self.implementation = implementation
            super.init(name: implementation.label)
        }
    }

    /// What ``NWProtocolFramerImplementation/start(framer:)`` says: ready now, or once the framer calls
    /// ``Instance/markReady()`` (after a handshake of its own, say).
    public enum StartResult: Sendable {
        /// The framer is ready: the connection becomes ready.
        case ready
        /// The framer will call ``Instance/markReady()``; the connection stays preparing until then.
        case willMarkReady
    }

    /// The options that put a framer in a stack: insert them in `defaultProtocolStack.applicationProtocols`.
    public final class Options: NWProtocolOptions, @unchecked Sendable {  // Unchecked: `values` is read under `lock`.
        /// The framer these options put in the stack.
        public let definition: Definition
        private var values: [String: Any] = [:]

        /// Options for the framer `definition`.
        public init(definition: Definition) { self.definition = definition }

        /// A value the app stores for its framer (read it back from the options the framer was made with).
        public subscript(key: String) -> Any? {
            get { lock.withLock { values[key] } }
            set { lock.withLock { values[key] = newValue } }
        }
    }

    /// A framer's per-message metadata: the app sets values on it before sending (in the context's metadata), and
    /// the framer sets them on the messages it delivers.
    public final class Message: NWProtocolMetadata, @unchecked Sendable {  // Unchecked: `values` is read under `lock`.
        private let lock = NIOLock()
        private var values: [String: Any] = [:]

        /// An empty message of the framer `definition`.
        public init(definition: Definition) { super.init(definition: definition) }

        /// An empty message of the framer `instance` runs.
        public convenience init(instance: Instance) { self.init(definition: instance.definition) }

        /// A value stored on the message.
        public subscript(key: String) -> Any? {
            get { lock.withLock { values[key] } }
            set { lock.withLock { values[key] = newValue } }
        }
    }
}

/// A framer protocol's implementation: one instance per connection, made with ``init(framer:)``; its callbacks run
/// one at a time.
public protocol NWProtocolFramerImplementation: AnyObject {
    /// The protocol's name.
    static var label: String { get }
    /// Makes the implementation for one connection's framer instance.
    init(framer: NWProtocolFramer.Instance)
    /// Called once the transport below is ready: `.ready`, or `.willMarkReady` to call ``NWProtocolFramer/Instance/markReady()`` later.
    func start(framer: NWProtocolFramer.Instance) -> NWProtocolFramer.StartResult
    /// Called when input arrived: parse it with `parseInput` and deliver messages with `deliverInput` or
    /// `deliverInputNoCopy`. Returns how many bytes must be buffered before the next call (0: call on any input).
    func handleInput(framer: NWProtocolFramer.Instance) -> Int
    /// Called for each message the app sends: write the framed bytes with `writeOutput` and
    /// `writeOutputNoCopy(length:)` (which takes `messageLength` bytes of the app's content).
    func handleOutput(
        framer: NWProtocolFramer.Instance, message: NWProtocolFramer.Message, messageLength: Int, isComplete: Bool)
    /// Called when a wakeup scheduled with `scheduleWakeup(wakeupTime:)` is due.
    func wakeup(framer: NWProtocolFramer.Instance)
    /// Called when the connection ends. The connection is closing already, so `false` cannot hold it open here;
    /// ``cleanup(framer:)`` follows at once.
    func stop(framer: NWProtocolFramer.Instance) -> Bool
    /// Called last, to release what the implementation holds.
    func cleanup(framer: NWProtocolFramer.Instance)
}
