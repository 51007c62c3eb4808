/// Who may use an app's server, and how they prove it.
///
/// By default only the person who started the app gets in: every launch makes a new random token, printed in
/// the app's link; the first visit with the token gets a cookie (`HttpOnly`, `SameSite=Strict`) and every page,
/// asset and event socket asks for that cookie. Requests whose `Host` is not one the app answers to are refused
/// whatever they carry (a page of another site rebound to 127.0.0.1 says its own name). Listening beyond
/// loopback needs TLS and the token.
public struct AccessPolicy: Sendable {
    /// How a visitor proves they are the person who started the app.
    public enum Authentication: Sendable, Equatable {
        /// The launch's token, in the printed link or typed on the sign-in page, exchanged for a cookie.
        case token
        /// Nobody is asked. Allowed on loopback only, for demos; the app says so loudly when it starts.
        case none
    }

    /// How a visitor proves they are the person who started the app (default ``Authentication/token``).
    public var authentication: Authentication
    /// Host names, beyond `localhost`, `127.0.0.1` and `[::1]`, that requests may carry in their `Host`.
    public var allowedHosts: [String]
    /// The certificate the server presents, or `nil` for plain HTTP (allowed on loopback only).
    public var tls: ServerTLS?
    /// A fixed password the sign-in page also takes (as well as the token), for servers that run for long;
    /// `nil` for none.
    public var password: PasswordHash?
    /// The folder where a started server writes `<App>-<port>.json` (its link and token, mode 0600), or
    /// `nil` for none.
    public var tokenDirectory: String?
    /// This launch's token: 32 bytes from the system's random source, as 64 hex digits. Each policy value
    /// has its own.
    public let token: String

    /// A policy for one launch, with a new token.
    public init(
        authentication: Authentication = .token, allowedHosts: [String] = [], tls: ServerTLS? = nil,
        password: PasswordHash? = nil, tokenDirectory: String? = nil
    ) {
        self.authentication = authentication
        self.allowedHosts = allowedHosts
        self.tls = tls
        self.password = password
        self.tokenDirectory = tokenDirectory
        self.token = AccessSecret.make()
    }

    /// Refuses to serve on `address` what would let others in: no authentication beyond loopback, or plain
    /// HTTP beyond loopback (the token and every page would cross the network in the clear).
    public func check(listeningOn address: String) throws {
        guard !ListenAddress.isLoopback(address) else { return }
        if authentication == .none {
            throw AccessPolicyError(
                "--no-auth lets anyone in, so it is allowed on loopback only (127.0.0.1, ::1, localhost); "
                    + "refusing to listen on \(address) without it. Drop --no-auth to use the launch's token.")
        }
        if tls == nil {
            throw AccessPolicyError(
                "listening on \(address) reaches beyond this machine, and without TLS the token and every page "
                    + "would cross the network in the clear; refusing to start. Give a certificate with "
                    + "--tls-cert FILE --tls-key FILE, or make one with --tls-self-signed.")
        }
    }
}

/// The certificate a server presents over TLS.
public enum ServerTLS: Sendable, Equatable {
    /// A certificate chain and its private key, from PEM files.
    case certificateFiles(certificate: String, privateKey: String)
    /// A self-signed certificate the app makes (and keeps in its state folder for later launches); its
    /// SHA-256 fingerprint is printed at start so a client can check it.
    case selfSigned
}

/// Why a server would not start with its access policy, naming what to change.
public struct AccessPolicyError: Error, CustomStringConvertible {
    /// The message.
    public let description: String
    init(_ description: String) { self.description = description }
}
