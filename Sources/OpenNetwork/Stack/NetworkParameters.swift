/// A protocol stack plus path options: `.parameters { TLS() }.constrainedPathsProhibited(true)`.
public struct NetworkParameters<ApplicationProtocol: NetworkProtocolOptions>: Sendable {
    /// The application protocol (top of the stack).
    public var applicationProtocol: ApplicationProtocol
    /// Whether constrained (Low Data Mode) paths are prohibited. Linux has no notion of constrained
    /// interfaces, so every path counts as unconstrained: the option is recorded and has no effect.
    public var prohibitsConstrainedPaths = false
    /// Whether expensive (cellular, hotspot) paths are prohibited. Linux exposes no such flag: recorded,
    /// no effect.
    public var prohibitsExpensivePaths = false

    /// Fixed answers for name resolution (internal: tests drive the Happy Eyeballs race with them).
    var resolvedAddresses: [String]?
    /// Whether the connection's sending side can close on its own (TCP half-closure; internal: NWConnection's final
    /// message uses it).
    var halfClosure = false

    /// Parameters for the given stack.
    public init(_ applicationProtocol: ApplicationProtocol) { self.applicationProtocol = applicationProtocol }

    /// Declares parameters from a stack.
    public static func parameters(@ProtocolStackBuilder _ stack: () -> ApplicationProtocol) -> NetworkParameters {
        NetworkParameters(stack())
    }

    /// Prohibits constrained paths (no effect on Linux, see ``prohibitsConstrainedPaths``).
    public func constrainedPathsProhibited(_ prohibited: Bool) -> NetworkParameters {
        var c = self
        c.prohibitsConstrainedPaths = prohibited
        return c
    }

    /// Prohibits expensive paths (no effect on Linux, see ``prohibitsExpensivePaths``).
    public func expensivePathsProhibited(_ prohibited: Bool) -> NetworkParameters {
        var c = self
        c.prohibitsExpensivePaths = prohibited
        return c
    }

    /// Resolves every host name to these addresses instead of asking the system (for tests).
    func resolvedAddresses(_ addresses: [String]) -> NetworkParameters {
        var c = self
        c.resolvedAddresses = addresses
        return c
    }

    /// Lets either side finish sending while the other goes on (TCP half-closure).
    func halfClosure(_ enabled: Bool) -> NetworkParameters {
        var c = self
        c.halfClosure = enabled
        return c
    }
}
