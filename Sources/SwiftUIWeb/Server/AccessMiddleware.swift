import Foundation
import Hummingbird
import Logging

/// Carries out the ``AccessGate``'s verdict on every request (pages, assets, uploads and socket upgrades alike)
/// and adds the security headers to every response, errors included.
struct AccessMiddleware<Context: RequestContext>: RouterMiddleware {
    let gate: AccessGate
    let appName: String
    let logger: Logger

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    )
        async throws -> Response
    {
        let verdict = gate.verdict(
            authority: request.head.authority, path: request.uri.path, query: request.uri.query,
            cookies: request.headers[values: .cookie])
        var response: Response
        switch verdict {
        case .serve:
            do {
                response = try await next(request, context)
            } catch let error as HTTPResponseError {
                response = try error.response(from: request, context: context)
            }
        case .refuseHost(let authority):
            let named = authority.map { "its Host “\($0)”" } ?? "it has no Host, which"
            let names = gate.allowlist.names.sorted().joined(separator: ", ")
            logger.warning(
                "request refused: \(named) is not a name this app answers to (\(names)); if it should be, start the app with --allow-host NAME"
            )
            response = AccessResponse.text(.forbidden, "This app does not answer to that host name.")
        case .signIn(let location):
            response = Response(
                status: .seeOther,
                headers: [.location: location, .setCookie: gate.setCookie, .cacheControl: "no-store"])
        case .wrongToken:
            logger.warning("sign-in refused: a link with a token that is not this launch's")
            response = AccessResponse.signInPage(
                appName: appName, status: .forbidden, refused: true, takesPassword: gate.takesPassword)
        case .askToSignIn:
            response = AccessResponse.signInPage(
                appName: appName, status: .unauthorized, refused: false, takesPassword: gate.takesPassword)
        }
        AccessResponse.addSecurityHeaders(&response)
        return response
    }
}

/// The responses access control gives, and the headers every response gets.
enum AccessResponse {
    /// Headers every response gets: no content sniffing, no referrer sent on, the page policy (script,
    /// sockets and images from this server only, no framing), and no caching of pages.
    static func addSecurityHeaders(_ response: inout Response) {
        response.headers[.init("X-Content-Type-Options")!] = "nosniff"
        response.headers[.init("Referrer-Policy")!] = "no-referrer"
        if response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] = AppServer.contentSecurityPolicy
        }
        let type = response.headers[.contentType] ?? ""
        if type.hasPrefix("text/html") || response.status.code >= 300 {
            response.headers[.cacheControl] = "no-store"
        }
    }

    /// The sign-in page, with `status`.
    static func signInPage(
        appName: String, status: HTTPResponse.Status, refused: Bool, takesPassword: Bool
    )
        -> Response
    {
        let html = SignInPage.html(appName: appName, refused: refused, takesPassword: takesPassword)
        return Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// A plain text response.
    static func text(_ status: HTTPResponse.Status, _ message: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: message)))
    }
}
