import NIOConcurrencyHelpers

/// Advertising a listener as a Bonjour service.
extension NetworkListener {
    /// A Bonjour service a listener advertises while it runs: `Service(name: "Kitchen", type: "_orchard._tcp")`.
    public struct Service: Sendable, Hashable {
        /// The instance name; nil uses the machine's host name.
        public var name: String?
        /// The service type, `_name._tcp` or `_name._udp`.
        public var type: String
        /// The domain; nil advertises in the default domain (`local.`).
        public var domain: String?
        /// The TXT record published with the service.
        public var txtRecord: NWTXTRecord

        /// A service of `type`, named `name` (nil: the host name), with a TXT record.
        public init(name: String? = nil, type: String, domain: String? = nil, txtRecord: NWTXTRecord = NWTXTRecord()) {
            self.name = name
            self.type = type
            self.domain = domain
            self.txtRecord = txtRecord
        }
    }

    /// A change to the listener's advertised service: the endpoint others find it by.
    public enum ServiceRegistrationChange: Sendable, Hashable {
        /// The service is advertised under this endpoint (after a name conflict, under its new name).
        case add(NWEndpoint)
        /// The service is no longer advertised under this endpoint.
        case remove(NWEndpoint)
    }

    /// The service advertised while the listener runs (set before calling ``run(_:)``).
    public var service: Service? {
        get { shared.withLockedValue { $0.service } }
        set { shared.withLockedValue { $0.service = newValue } }
    }

    /// Sets the advertised service; returns the listener for chaining.
    @discardableResult
    public func service(_ service: Service?) -> Self {
        self.service = service
        return self
    }

    /// Installs a handler told when the advertised service is registered, renamed after a conflict (a `remove` of
    /// the old name, then an `add` of the new), and withdrawn when the listener stops.
    @discardableResult
    public func onServiceRegistrationUpdate(
        _ handler: @escaping @Sendable (NetworkListener<ApplicationProtocol>, ServiceRegistrationChange) -> Void
    ) -> Self {
        let ref = WeakReference<NetworkListener<ApplicationProtocol>>(value: self)
        shared.withLockedValue { $0.registrationHandler = { change in if let me = ref.value { handler(me, change) } } }
        return self
    }

    /// Registers ``service`` (if any) for the bound port; returns what withdraws it (a goodbye, then a `remove`)
    /// when the listener stops.
    func advertise() async throws -> (@Sendable () -> Void)? {
        guard let service, let port else { return nil }
        let type = service.type.hasSuffix(".") ? String(service.type.dropLast()) : service.type
        guard type.hasPrefix("_"), type.hasSuffix("._tcp") || type.hasSuffix("._udp") else {
            throw NWError.transport(
                "Bonjour service type \"\(service.type)\" is not of the form _name._tcp or _name._udp")
        }
        let domain = NetworkBrowser<BonjourBrowseDescriptor>.normalized(service.domain)
        let name = service.name ?? MulticastDNS.hostLabel()
        guard !name.isEmpty, name.utf8.count <= 63 else {
            throw NWError.transport("Bonjour service name \"\(name)\" must be 1 to 63 bytes of UTF-8")
        }
        let notify = shared.withLockedValue { $0.registrationHandler }
        let advertised = NIOLockedValueBox<NWEndpoint?>(nil)
        let endpoint: @Sendable (String) -> NWEndpoint = { name in
            .service(name: name, type: type, domain: domain + ".", interface: nil)
        }
        let id = try await MulticastDNS.shared.register(
            .init(name: name, type: type, domain: domain, port: port.rawValue, txt: service.txtRecord.strings)
        ) { event in
            switch event {
            case .registered(let name):
                advertised.withLockedValue { $0 = endpoint(name) }
                notify?(.add(endpoint(name)))
            case .renamed(let from, _):
                // Only a name that was announced is withdrawn; a clash while probing renames before any `add`.
                let old = advertised.withLockedValue { a -> NWEndpoint? in
                    defer { if a == endpoint(from) { a = nil } }
                    return a == endpoint(from) ? a : nil
                }
                if let old { notify?(.remove(old)) }
            }
        }
        return {
            MulticastDNS.shared.unregister(id)
            if let last = advertised.withLockedValue({ a in
                defer { a = nil }
                return a
            }) {
                notify?(.remove(last))
            }
        }
    }
}
