import Dispatch
import NIOConcurrencyHelpers

/// The Network framework's callback API for finding Bonjour services, built on the same multicast DNS querier as
/// ``NetworkBrowser``: results and state changes arrive on the `DispatchQueue` given to ``start(queue:)``.
///
/// ```swift
/// let browser = NWBrowser(for: .bonjour(type: "_orchard._tcp", domain: nil), using: .tcp)
/// browser.browseResultsChangedHandler = { results, changes in ... }
/// browser.start(queue: .main)
/// ```
public final class NWBrowser: Sendable, CustomDebugStringConvertible {
    /// What to look for.
    public enum Descriptor: Sendable, Hashable {
        /// Services of `type` in `domain` (nil: `local.`).
        case bonjour(type: String, domain: String?)
        /// The same, with each result's TXT record in its metadata.
        case bonjourWithTXTRecord(type: String, domain: String?)
    }

    /// The browser's states.
    public enum State: Sendable, Equatable {
        /// Created, not started.
        case setup
        /// Browsing.
        case ready
        /// Browsing could not start (no interface with multicast, for example).
        case failed(NWError)
        /// Cancelled.
        case cancelled
        /// Waiting for the network (not entered on Linux).
        case waiting(NWError)
    }

    /// A service found.
    public struct Result: Sendable, Hashable {
        /// What a result carries beside its endpoint.
        public enum Metadata: Sendable, Hashable {
            /// The service's TXT record (descriptor `.bonjourWithTXTRecord`).
            case bonjour(NWTXTRecord)
            /// Nothing.
            case none
        }

        /// How a result changed between two calls of the handler.
        public enum Change: Sendable, Hashable {
            /// The result is the same as before.
            case identical
            /// A new result.
            case added(Result)
            /// A result that went away.
            case removed(Result)
            /// A result whose metadata or interfaces changed.
            case changed(old: Result, new: Result, flags: Flags)

            /// What changed in a `changed` result.
            public struct Flags: OptionSet, Sendable, Hashable {
                /// The raw bits.
                public let rawValue: UInt32
                /// Creates flags from raw bits.
                public init(rawValue: UInt32) { self.rawValue = rawValue }
                /// Only the result's identity is the same.
                public static let identical = Flags([])
                /// The metadata (TXT record) changed.
                public static let metadataChanged = Flags(rawValue: 1 << 0)
                /// The result was found on another interface too.
                public static let interfaceAdded = Flags(rawValue: 1 << 1)
                /// The result is gone from an interface.
                public static let interfaceRemoved = Flags(rawValue: 1 << 2)
            }
        }

        /// The service endpoint (`.service(name:type:domain:interface:)`).
        public let endpoint: NWEndpoint
        /// Its TXT record, when asked for.
        public let metadata: Metadata
        /// The interfaces it was found on.
        public let interfaces: [NWInterface]

        /// Results are the same service when their endpoints are (metadata aside).
        public static func == (a: Result, b: Result) -> Bool { a.endpoint == b.endpoint }
        /// Hashes the endpoint, as equality compares it.
        public func hash(into hasher: inout Hasher) { hasher.combine(endpoint) }
    }

    /// What is browsed for.
    public let descriptor: Descriptor
    /// The parameters given (their transport does not change what is found).
    public let parameters: NWParameters
    private let shared = NIOLockedValueBox(Shared())

    private struct Shared {
        var queue: DispatchQueue?
        var state: State = .setup
        var results: Set<Result> = []
        var stateUpdateHandler: (@Sendable (State) -> Void)?
        var browseResultsChangedHandler: (@Sendable (Set<Result>, Set<Result.Change>) -> Void)?
        var task: Task<Void, Never>?
    }

    /// A browser for `descriptor`.
    public init(for descriptor: Descriptor, using parameters: NWParameters) {
        self.descriptor = descriptor
        self.parameters = parameters
    }

    /// Called on the browser's queue with every state change.
    public var stateUpdateHandler: (@Sendable (State) -> Void)? {
        get { shared.withLockedValue { $0.stateUpdateHandler } }
        set { shared.withLockedValue { $0.stateUpdateHandler = newValue } }
    }

    /// Called on the browser's queue with all current results and what changed, each time they change.
    public var browseResultsChangedHandler: (@Sendable (Set<Result>, Set<Result.Change>) -> Void)? {
        get { shared.withLockedValue { $0.browseResultsChangedHandler } }
        set { shared.withLockedValue { $0.browseResultsChangedHandler = newValue } }
    }

    /// The results found so far.
    public var browseResults: Set<Result> { shared.withLockedValue { $0.results } }

    /// The current state.
    public var state: State { shared.withLockedValue { $0.state } }

    /// Starts browsing; handlers run on `queue`. A second call does nothing.
    public func start(queue: DispatchQueue) {
        let first = shared.withLockedValue { s -> Bool in
            guard s.queue == nil else { return false }
            s.queue = queue
            return true
        }
        guard first else { return }
        let (type, domain, withTXT): (String, String?, Bool) = {
            switch descriptor {
            case .bonjour(let type, let domain): (type, domain, false)
            case .bonjourWithTXTRecord(let type, let domain): (type, domain, true)
            }
        }()
        let shared = self.shared
        let normalizedDomain = NetworkBrowser<BonjourBrowseDescriptor>.normalized(domain)
        if normalizedDomain.lowercased() != "local" {
            // A unicast DNS-SD domain: browsed through NetworkBrowser, which asks the system's DNS servers.
            let task = Task {
                do {
                    Self.set(.ready, in: shared)
                    let _: Never = try await NetworkBrowser(
                        for: .bonjour(type, domain: normalizedDomain, includeTxtRecord: withTXT)
                    ).run { endpoints in
                        let results = Set(
                            endpoints.map { endpoint in
                                Result(
                                    endpoint: endpoint,
                                    metadata: withTXT ? .bonjour(endpoint.txtRecord ?? NWTXTRecord()) : .none,
                                    interfaces: [])
                            })
                        Self.update(results, in: shared)
                        return .continue
                    }
                } catch is CancellationError {
                    Self.set(.cancelled, in: shared)
                } catch {
                    Self.set(.failed(NWError.from(error)), in: shared)
                }
            }
            shared.withLockedValue { $0.task = task }
            return
        }
        let task = Task {
            do {
                let (_, stream) = try await MulticastDNS.shared.browse(
                    type: type.hasSuffix(".") ? String(type.dropLast()) : type,
                    domain: NetworkBrowser<BonjourBrowseDescriptor>.normalized(domain))
                Self.set(.ready, in: shared)
                for await instances in stream {
                    let results = Set(
                        instances.map { i in
                            Result(
                                endpoint: .service(
                                    name: i.name, type: i.type, domain: i.domain + ".", interface: nil),
                                metadata: withTXT ? .bonjour(NWTXTRecord(strings: i.txt ?? [])) : .none,
                                interfaces: MulticastDNS.interface(i.interface).map { [$0] } ?? [])
                        })
                    Self.update(results, in: shared)
                }
            } catch {
                Self.set(.failed(NWError.from(error)), in: shared)
                return
            }
            Self.set(.cancelled, in: shared)
        }
        shared.withLockedValue { $0.task = task }
    }

    /// Stops browsing.
    public func cancel() {
        let task = shared.withLockedValue { s -> Task<Void, Never>? in
            defer { s.task = nil }
            return s.task
        }
        if let task { task.cancel() } else { Self.set(.cancelled, in: shared) }
    }

    private static func set(_ state: State, in shared: NIOLockedValueBox<Shared>) {
        let (queue, handler) = shared.withLockedValue { s -> (DispatchQueue?, (@Sendable (State) -> Void)?) in
            s.state = state
            return (s.queue, s.stateUpdateHandler)
        }
        guard let queue, let handler else { return }
        queue.async { handler(state) }
    }

    private static func update(_ results: Set<Result>, in shared: NIOLockedValueBox<Shared>) {
        let (queue, handler, changes) = shared.withLockedValue { s in
            let old = s.results
            var changes: Set<Result.Change> = []
            for r in results where !old.contains(r) { changes.insert(.added(r)) }
            for r in old where !results.contains(r) { changes.insert(.removed(r)) }
            for r in results {
                guard let before = old.first(where: { $0 == r }) else { continue }
                if before.metadata != r.metadata {
                    changes.insert(.changed(old: before, new: r, flags: .metadataChanged))
                }
            }
            s.results = results
            return (s.queue, s.browseResultsChangedHandler, changes)
        }
        guard !changes.isEmpty, let queue, let handler else { return }
        queue.async { handler(results, changes) }
    }

    /// The descriptor and state, as Apple prints a browser.
    public var debugDescription: String { "[browser \(descriptor) \(state)]" }
}
