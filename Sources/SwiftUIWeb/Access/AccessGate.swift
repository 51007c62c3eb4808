import Foundation

/// Decides, for each request, whether it is served, refused, or signs its visitor in. A value with no I/O:
/// the server asks it and carries out the verdict, so every rule is testable without a socket.
struct AccessGate: Sendable {
    /// The names a request's `Host` may carry.
    let allowlist: HostAllowlist
    /// Whether visitors must sign in.
    let authentication: AccessPolicy.Authentication
    /// This launch's token.
    let token: String
    /// The cookie a signed-in browser carries.
    let session: SessionKey
    /// Whether the server speaks TLS (the cookie is then `Secure`).
    let secure: Bool
    /// Whether the sign-in page also takes a password.
    var takesPassword = false

    /// The path of the sign-in page (`GET`) and form (`POST`): the only ones served without the cookie.
    static let signInPath = "/_swiftuiweb/sign-in"
    /// The query parameter of the printed link that carries the token.
    static let tokenParameter = "token"

    /// What the server does with a request.
    enum Verdict: Equatable, Sendable {
        /// Serve it.
        case serve
        /// Refuse it (403): its `Host` (quoted as received, or `nil` when missing) is not one the app answers to.
        case refuseHost(String?)
        /// The token is right (or the visitor is signed in already): set the cookie and go to `location`,
        /// the same URL without the token.
        case signIn(location: String)
        /// A token that is not this launch's, and no cookie (403, the sign-in page says so).
        case wrongToken
        /// Neither cookie nor token (401, the sign-in page asks for the link).
        case askToSignIn
    }

    /// The verdict on a request for `path` with `query` (without `?`), from `authority` (its `Host`), carrying
    /// the `Cookie` header values `cookies`.
    func verdict(authority: String?, path: String, query: String?, cookies: [String]) -> Verdict {
        guard allowlist.allows(authority: authority) else { return .refuseHost(authority) }
        guard authentication == .token else { return .serve }
        let signedIn = isSignedIn(cookies: cookies)
        if let query, let (given, rest) = AccessGate.takeToken(from: query) {
            // Signed in already (say, an old link from an earlier launch): the token means nothing then.
            guard signedIn || AccessSecret.matches(given, token) else { return .wrongToken }
            return .signIn(location: rest.isEmpty ? path : path + "?" + rest)
        }
        if signedIn || path == AccessGate.signInPath { return .serve }
        return .askToSignIn
    }

    /// Whether one of the `Cookie` header values carries the session cookie with the right value.
    func isSignedIn(cookies: [String]) -> Bool {
        var found = false
        for header in cookies {
            for pair in header.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " }
                guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == session.name else { continue }
                // Every cookie of that name is compared (in constant time): no early answer.
                if AccessSecret.matches(trimmed[trimmed.index(after: equals)...].utf8, session.value.utf8) {
                    found = true
                }
            }
        }
        return found
    }

    /// Whether a token typed or pasted on the sign-in page (the token, or the whole link) is this launch's.
    func acceptsTyped(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let question = trimmed.firstIndex(of: "?"),
            let (given, _) = AccessGate.takeToken(from: String(trimmed[trimmed.index(after: question)...]))
        {
            return AccessSecret.matches(given, token)
        }
        return AccessSecret.matches(trimmed, token)
    }

    /// The `Set-Cookie` value that signs a browser in: `HttpOnly` (no script reads it), `SameSite=Strict` (no
    /// other site's page sends it), the whole app (`Path=/`), `Secure` under TLS, kept 30 days.
    var setCookie: String {
        "\(session.name)=\(session.value); Path=/; HttpOnly; SameSite=Strict; Max-Age=2592000"
            + (secure ? "; Secure" : "")
    }

    /// The token parameter's value in `query`, and the query without it; `nil` when there is none.
    static func takeToken(from query: String) -> (String, String)? {
        var value: String?
        var kept: [Substring] = []
        for item in query.split(separator: "&", omittingEmptySubsequences: false) {
            if item.hasPrefix(tokenParameter + "=") {
                let raw = item.dropFirst(tokenParameter.count + 1)
                value = String(raw).removingPercentEncoding ?? String(raw)
            } else if !item.isEmpty {
                kept.append(item)
            }
        }
        return value.map { ($0, kept.joined(separator: "&")) }
    }
}
