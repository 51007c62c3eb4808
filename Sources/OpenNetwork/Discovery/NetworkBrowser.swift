import NIOConcurrencyHelpers

/// Finds endpoints to connect to: `try await NetworkBrowser(for: .bonjour("_orchard._tcp")).run { endpoints in
/// endpoints.isEmpty ? .continue : .finish(endpoints[0]) }`.
///
/// `run` calls its handler with every endpoint currently found, each time the set changes (services appearing,
/// leaving with a goodbye, or expiring), until the handler returns ``Action/finish(_:)``; then `run` returns that
/// value. Cancelling the calling task stops the browse and makes `run` throw `CancellationError`. Bonjour browsing
/// uses this process's multicast DNS responder (``MulticastDNS``), which starts on first use; `run` throws an
/// ``NWError`` when it cannot (no multicast interface, port 5353 unavailable).
public final class NetworkBrowser<Descriptor: BrowseDescriptor>: Sendable {
    /// What the handler tells the browser.
    public enum Action<Value: Sendable>: Sendable {
        /// Keep browsing; the handler is called again when the endpoints change.
        case `continue`
        /// Stop browsing; `run` returns the value.
        case finish(Value)
    }

    /// What is browsed for.
    public let descriptor: Descriptor

    /// A browser for `descriptor`.
    public init(for descriptor: Descriptor) {
        self.descriptor = descriptor
    }

    /// Browses until `handler` returns ``Action/finish(_:)`` and returns its value.
    public func run<Value: Sendable>(
        _ handler: @Sendable ([NWEndpoint]) async throws -> Action<Value>
    ) async throws -> Value {
        if let reason = descriptor.unsupportedReason { throw NWError.transport(reason) }
        guard let bonjour = descriptor as? BonjourBrowseDescriptor else {
            throw NWError.transport("\(Descriptor.self) browsing is not supported on Linux; browse with .bonjour(_:)")
        }
        let domain = Self.normalized(bonjour.domain)
        let type = bonjour.type.hasSuffix(".") ? String(bonjour.type.dropLast()) : bonjour.type
        guard type.hasPrefix("_"), type.hasSuffix("._tcp") || type.hasSuffix("._udp") else {
            throw NWError.transport(
                "Bonjour service type \"\(bonjour.type)\" is not of the form _name._tcp or _name._udp")
        }
        if domain.lowercased() != "local" {
            return try await browseUnicast(type: type, domain: domain, withTXT: bonjour.includeTxtRecord, handler)
        }
        let (_, stream) = try await MulticastDNS.shared.browse(type: type, domain: domain)
        for await instances in stream {
            let endpoints = instances.map { i in
                NWEndpoint.service(
                    name: i.name, type: i.type, domain: i.domain + ".", interface: MulticastDNS.interface(i.interface))
            }
            if bonjour.includeTxtRecord {
                DiscoveredTXTRecords.shared.withLockedValue { table in
                    for (endpoint, instance) in zip(endpoints, instances) {
                        table[endpoint] = instance.txt.map(NWTXTRecord.init(strings:))
                    }
                }
            }
            if case .finish(let value) = try await handler(endpoints) { return value }
        }
        // The stream ends only when this task is cancelled.
        throw CancellationError()
    }

    /// Browses a unicast DNS domain (``UnicastDNS``): asks for the instances, tells the handler, and asks again when
    /// their TTL runs out (at least every 10 s, at most every 5 minutes), telling the handler when they changed.
    private func browseUnicast<Value: Sendable>(
        type: String, domain: String, withTXT: Bool, _ handler: @Sendable ([NWEndpoint]) async throws -> Action<Value>
    ) async throws -> Value {
        var last: [NWEndpoint]?
        while true {
            let (instances, ttl) = try await UnicastDNS.browse(type: type, domain: domain)
            let endpoints = instances.map {
                NWEndpoint.service(name: $0, type: type, domain: domain + ".", interface: nil)
            }
            if withTXT {
                for (endpoint, name) in zip(endpoints, instances) {
                    let txt = try await UnicastDNS.resolve(name: name, type: type, domain: domain, withTXT: true).txt
                    DiscoveredTXTRecords.shared.withLockedValue { $0[endpoint] = txt.map(NWTXTRecord.init(strings:)) }
                }
            }
            if endpoints != last {
                last = endpoints
                if case .finish(let value) = try await handler(endpoints) { return value }
            }
            try await Task.sleep(for: .seconds(Int(min(max(ttl, 10), 300))))
        }
    }

    /// "local." and nil both mean the link-local domain; the label is kept without its trailing dot.
    static func normalized(_ domain: String?) -> String {
        guard let domain, !domain.isEmpty else { return "local" }
        return domain.hasSuffix(".") ? String(domain.dropLast()) : domain
    }
}

/// TXT records of service endpoints found by browses that asked for them (read by ``NWEndpoint/txtRecord``).
enum DiscoveredTXTRecords {
    static let shared = NIOLockedValueBox<[NWEndpoint: NWTXTRecord]>([:])
}
