import Foundation
import Hummingbird
import Logging

extension AppServer {
    /// What a started server tells whoever launched it.
    public struct Launch: Sendable {
        /// The port it listens on.
        public let port: Int
        /// The link that opens the app and signs the browser in (it carries the token, unless the policy asks
        /// no one to sign in).
        public let url: String
        /// The file holding the link and token (mode 0600), when the policy names a token folder.
        public let tokenFile: String?
        /// The SHA-256 fingerprint of the server's TLS certificate, when it speaks TLS.
        public let fingerprint: String?
    }

    /// The access rules of one run: the gate, and the certificate when the server speaks TLS.
    struct Security: Sendable {
        let gate: AccessGate
        let certificate: ServerCertificate?
        let urlHost: String
        let passwords: PasswordChecker?
    }

    /// Checks the policy against the address and loads what it needs: the session key and the certificate.
    func prepareSecurity(address: String) async throws -> Security {
        try access.check(listeningOn: address)
        let host = self.host
        let (folder, appName) = await MainActor.run {
            (host.storageFile.deletingLastPathComponent().path, host.appName)
        }
        // The names the server answers to: loopback, the configured ones, the address it listens on (or, on
        // every interface, the machine's name).
        var names = access.allowedHosts
        let urlHost: String
        if ListenAddress.isWildcard(address) {
            let machine = ProcessInfo.processInfo.hostName
            names.append(machine)
            urlHost = machine
        } else {
            names.append(address)
            urlHost = ListenAddress.urlHost(address)
        }
        let allowlist = HostAllowlist(extra: names)
        let session = try SessionKey.load(from: folder, appName: appName, logger: logger)
        let certificate = try access.tls.map { tls in
            try ServerCertificate.load(
                tls, stateFolder: folder, names: ["localhost", "127.0.0.1", "::1"] + names, logger: logger)
        }
        var gate = AccessGate(
            allowlist: allowlist, authentication: access.authentication, token: access.token, session: session,
            secure: certificate != nil)
        gate.takesPassword = access.password != nil && access.authentication == .token
        return Security(
            gate: gate, certificate: certificate, urlHost: urlHost,
            passwords: gate.takesPassword ? access.password.map(PasswordChecker.init) : nil)
    }

    /// The link that opens the app on `port` (with the token when visitors sign in).
    func launchURL(_ security: Security, port: Int) -> String {
        let scheme = security.certificate == nil ? "http" : "https"
        let base = "\(scheme)://\(security.urlHost):\(port)/"
        return access.authentication == .token ? base + "?\(AccessGate.tokenParameter)=\(access.token)" : base
    }

    /// `GET /_swiftuiweb/sign-in`: the sign-in page, or the app for a browser signed in already.
    static func signInPage(_ request: Request, gate: AccessGate, appName: String) -> Response {
        if gate.authentication == .none || gate.isSignedIn(cookies: request.headers[values: .cookie]) {
            return Response(status: .seeOther, headers: [.location: "/"])
        }
        return AccessResponse.signInPage(
            appName: appName, status: .ok, refused: false, takesPassword: gate.takesPassword)
    }

    /// `POST /_swiftuiweb/sign-in` with the form's `token` field (the token, the whole link, or the app's
    /// password when it has one): sets the cookie and opens the app, or shows the page again saying it was wrong.
    static func signIn(
        _ request: Request, gate: AccessGate, passwords: PasswordChecker?, appName: String, logger: Logger
    ) async throws -> Response {
        // A browser posts the form with `Origin: null` (every response is `Referrer-Policy: no-referrer`, which
        // nulls the Origin of form posts); another site's page names its own origin and is refused. Signing in
        // needs the token anyway, so a null Origin lets in no one who lacks it.
        let origins = request.headers[values: .origin]
        guard AppServer.sameOrigin(request) || origins.allSatisfy({ $0 == "null" }) else {
            logger.warning("sign-in refused: the form was not sent from a page of this server")
            return AccessResponse.text(.forbidden, "Sign in from this app's own page.")
        }
        let body: ByteBuffer
        do { body = try await request.body.collect(upTo: 4096) } catch {
            return AccessResponse.text(.contentTooLarge, "The sign-in form is too large.")
        }
        let typed = formField("token", in: String(decoding: body.readableBytesView, as: UTF8.self)) ?? ""
        var accepted = gate.authentication == .none || gate.acceptsTyped(typed)
        if !accepted, let passwords {
            do {
                accepted = try await passwords.check(typed)
            } catch {
                logger.error("sign-in: the password could not be checked: \(error)")
                return AccessResponse.text(
                    .internalServerError, "The password could not be checked; the app's log says why.")
            }
        }
        guard accepted else {
            logger.warning(
                "sign-in refused: what was typed is not this launch's token\(passwords == nil ? "" : " nor the password")"
            )
            return AccessResponse.signInPage(
                appName: appName, status: .forbidden, refused: true, takesPassword: gate.takesPassword)
        }
        return Response(status: .seeOther, headers: [.location: "/", .setCookie: gate.setCookie])
    }

    /// A field of an `application/x-www-form-urlencoded` body.
    static func formField(_ name: String, in body: String) -> String? {
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] == name else { continue }
            let spaced = parts[1].replacingOccurrences(of: "+", with: " ")
            return spaced.removingPercentEncoding ?? spaced
        }
        return nil
    }
}
