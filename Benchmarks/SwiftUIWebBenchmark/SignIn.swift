import Foundation
import SwiftUIWeb
import SwiftUIWebDriver

/// A SwiftUIWeb server the benchmark started, found and signed in to as a person's tools would: through the
/// token file it writes, then the link in it (which sets the cookie every page and socket needs). The
/// benchmark measures the server with its access control on, as people run it.
struct SignedInServer: Sendable {
    /// The port it listens on.
    let port: Int
    /// The link with the launch's token, read from the token file.
    let link: String
    /// The `Cookie` header value the link set.
    let cookie: String

    /// Reads the token file of `launch` and follows its link.
    static func signIn(_ launch: AppServer.Launch) async throws -> SignedInServer {
        guard let file = launch.tokenFile, let data = FileManager.default.contents(atPath: file),
            let record = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let link = record["url"] as? String, let url = URL(string: link)
        else { throw BrowserError(description: "the server wrote no readable token file") }
        let reply = try await offCooperativePool { try httpExchange("GET", url) }
        guard reply.status == 303, let pair = reply.header("set-cookie")?.split(separator: ";").first else {
            throw BrowserError(description: "the token file's link did not sign in (HTTP \(reply.status))")
        }
        return SignedInServer(port: launch.port, link: link, cookie: String(pair))
    }
}

/// A launch handed over by a server task once it listens.
actor LaunchBox {
    private var launch: AppServer.Launch?
    func set(_ value: AppServer.Launch) { launch = value }
    /// Waits (10 s at most) for the launch and signs in.
    func signIn() async throws -> SignedInServer {
        for _ in 0..<400 {
            if let launch { return try await SignedInServer.signIn(launch) }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw BrowserError(description: "server did not start")
    }
}
