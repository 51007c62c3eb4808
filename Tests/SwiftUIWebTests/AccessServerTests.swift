import Crypto
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import SwiftUIWebDriver
import Testing

@testable import SwiftUIWeb

/// The server tried as an attacker would: another site's page rebound to 127.0.0.1, a local process without
/// the token, a wrong token, a socket from another origin; and as the person who started it: the link, the
/// cookie, the token file, TLS.
@Suite(.serialized, .timeLimit(.minutes(1))) struct AccessServerTests {
    func get(_ url: String, _ headers: [String: String] = [:]) async throws -> HTTPReply {
        let target = URL(string: url)!
        return try await offCooperativePool { try httpExchange("GET", target, headers: headers) }
    }

    /// A WebSocket upgrade request, written by hand so that any Host can be sent; the reply's status.
    func upgrade(_ server: TestServer, id: String, headers: [String: String]) async throws -> HTTPReply {
        let all = [
            "Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        ].merging(headers) { _, given in given }
        let url = URL(string: server.base + "/_swiftuiweb/ws?w=\(id)")!
        return try await offCooperativePool { try httpExchange("GET", url, headers: all, timeout: 5) }
    }

    @Test func aRebindingSitesPageGetsNeitherPageNorSocket() async throws {
        let server = await TestServer(AppHost(app: NotepadApp(), storageDirectory: tempDir()))
        try await server.start()
        let host = server.host
        let id = await MainActor.run {
            let s = host.newScene()
            _ = s.document()
            return s.id
        }
        let evil = "evil.example:\(server.port)"
        // Even with the person's cookie (a rebound page would have it sent, being "same-site" with itself).
        let page = try await get(server.base + "/?w=\(id)", ["Host": evil].merging(server.signedIn) { a, _ in a })
        #expect(page.status == 403)
        #expect(!page.text.contains("Notepad") && !page.text.contains("Count"))
        #expect(server.log.contains("request refused: its Host “\(evil)” is not a name this app answers to"))
        let socket = try await upgrade(
            server, id: id,
            headers: ["Host": evil, "Origin": "http://\(evil)"].merging(server.signedIn) { a, _ in a })
        // Hummingbird answers every refused upgrade with an empty 400; what matters is that there is no 101.
        #expect(socket.status == 400)
        let token = try await get(server.base + "/?token=\(server.access.token)", ["Host": evil])
        #expect(token.status == 403 && token.header("set-cookie") == nil)
        await MainActor.run {
            #expect(!host.isConnected(sceneID: id))
            #expect(host.scenes.count == 1)
        }
        // The same requests under the app's own names work.
        for name in ["127.0.0.1", "localhost", "[::1]"] {
            let reply = try await get(
                server.base + "/?w=\(id)", ["Host": "\(name):\(server.port)"].merging(server.signedIn) { a, _ in a })
            #expect(reply.status == 200, "\(name)")
        }
        let good = try await upgrade(server, id: id, headers: server.signedIn)
        #expect(good.status == 101)
        await server.stop()
    }

    @Test func withoutTheCookieNothingIsServedAndNoSceneIsMade() async throws {
        let server = await TestServer(AppHost(app: NotepadApp(), storageDirectory: tempDir()))
        try await server.start()
        let host = server.host
        let id = await MainActor.run {
            let s = host.newScene()
            _ = s.document()
            return s.id
        }
        let before = await MainActor.run { host.scenes.count }
        let page = try await get(server.base + "/")
        #expect(page.status == 401)
        #expect(page.text.contains("<form method=\"post\" action=\"/_swiftuiweb/sign-in\""))
        #expect(page.text.contains("<title>Sign in to Notepad</title>") && !page.text.contains("Count"))
        #expect(page.header("set-cookie") == nil)
        for path in [
            "/?w=\(id)", "/_swiftuiweb/client.js", "/_swiftuiweb/images/x", "/_swiftuiweb/download?w=\(id)",
            "/anything",
        ] {
            #expect(try await get(server.base + path).status == 401, "\(path)")
        }
        #expect(try await upgrade(server, id: id, headers: [:]).status == 400)  // refused: no 101
        // A guessed cookie is no cookie.
        let guessed = ["Cookie": server.cookie.split(separator: "=")[0] + "=" + String(repeating: "0", count: 64)]
        #expect(try await get(server.base + "/?w=\(id)", guessed).status == 401)
        await #expect(throws: (any Error).self) {
            try await withSocket(SocketTarget(url: "ws://127.0.0.1:\(server.port)/_swiftuiweb/ws?w=\(id)", cookie: ""))
            { _ in }
        }
        await MainActor.run {
            #expect(host.scenes.count == before)
            #expect(!host.isConnected(sceneID: id))
        }
        await server.stop()
    }

    @Test func theLinkSignsInOnceAndLeavesTheURL() async throws {
        let server = await TestServer(AppHost(app: NotepadApp(), storageDirectory: tempDir()))
        try await server.start()
        let token = server.access.token
        let reply = try await get(server.base + "/?g=main&token=\(token)")
        #expect(reply.status == 303)
        #expect(reply.header("location") == "/?g=main")
        let cookie = try #require(reply.header("set-cookie"))
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/"))
        #expect(!cookie.contains(token))
        #expect(reply.header("cache-control") == "no-store")
        let pair = String(cookie.split(separator: ";")[0])
        let page = try await get(server.base + "/", ["Cookie": pair])
        #expect(page.status == 303 && page.header("location")?.hasPrefix("/?w=") == true)

        // A wrong token: refused, said so, logged, no cookie.
        let wrong = try await get(server.base + "/?token=" + String(repeating: "0", count: 64))
        #expect(wrong.status == 403)
        #expect(wrong.text.contains("not this launch"))
        #expect(wrong.header("set-cookie") == nil)
        #expect(server.log.contains("sign-in refused: a link with a token that is not this launch's"))
        // A token of another launch of the same app (a new policy) does not open this one.
        let other = AccessPolicy().token
        #expect(try await get(server.base + "/?token=\(other)").status == 403)
        await server.stop()
    }

    @Test func theSignInFormTakesTheTokenFromThisServersPageOnly() async throws {
        let server = await TestServer(AppHost(app: NotepadApp(), storageDirectory: tempDir()))
        try await server.start()
        let url = URL(string: server.base + "/_swiftuiweb/sign-in")!
        func post(_ body: String, origin: String?) async throws -> HTTPReply {
            var headers = ["Content-Type": "application/x-www-form-urlencoded"]
            if let origin { headers["Origin"] = origin }
            let sent = headers
            return try await offCooperativePool { try httpExchange("POST", url, body: Data(body.utf8), headers: sent) }
        }
        let token = server.access.token
        let link = "http://127.0.0.1:\(server.port)/?token=\(token)"
        let typed = try await post(
            "token=" + link.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!, origin: server.base)
        #expect(typed.status == 303 && typed.header("set-cookie")?.contains("HttpOnly") == true)
        #expect(try await post("token=\(token)", origin: nil).status == 303)
        #expect(try await post("token=\(token)", origin: "null").status == 303)  // what Chromium sends
        let wrong = try await post("token=abc", origin: server.base)
        #expect(wrong.status == 403 && wrong.header("set-cookie") == nil && wrong.text.contains("not this launch"))
        // Another site's page posting the right token (it could not know it, but still): refused.
        let forged = try await post("token=\(token)", origin: "http://evil.example")
        #expect(forged.status == 403 && forged.header("set-cookie") == nil)
        let big = try await post("token=" + String(repeating: "a", count: 5000), origin: server.base)
        #expect(big.status == 413)
        // The page itself is served without the cookie; signed in, it sends the browser to the app.
        #expect(try await get(server.base + "/_swiftuiweb/sign-in").status == 200)
        #expect(try await get(server.base + "/_swiftuiweb/sign-in", server.signedIn).status == 303)
        await server.stop()
    }

    @Test func aServerWithAPasswordTakesItOnTheSignInPage() async throws {
        let password = try PasswordHash(hashing: "long-running server", logN: 10)
        let server = await TestServer(
            AppHost(app: NotepadApp(), storageDirectory: tempDir()), access: AccessPolicy(password: password))
        try await server.start()
        let page = try await get(server.base + "/")
        #expect(page.status == 401 && page.text.contains("Link, token or password"))
        let url = URL(string: server.base + "/_swiftuiweb/sign-in")!
        func post(_ typed: String) async throws -> HTTPReply {
            let body = Data(("token=" + typed.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!).utf8)
            return try await offCooperativePool {
                try httpExchange(
                    "POST", url, body: body, headers: ["Content-Type": "application/x-www-form-urlencoded"])
            }
        }
        let right = try await post("long-running server")
        #expect(right.status == 303 && right.header("set-cookie")?.contains("HttpOnly") == true)
        let wrong = try await post("long-running serve")
        #expect(wrong.status == 403 && wrong.header("set-cookie") == nil && wrong.text.contains("nor the app’s password"))
        #expect(server.log.contains("sign-in refused: what was typed is not this launch's token nor the password"))
        // The token still works, and a password in the URL does nothing.
        #expect(try await post(server.access.token).status == 303)
        #expect(try await get(server.base + "/?token=long-running%20server").status == 403)
        await server.stop()
    }

    @Test func everyResponseCarriesTheSecurityHeaders() async throws {
        let server = await TestServer(AppHost(app: NotepadApp(), storageDirectory: tempDir()))
        try await server.start()
        let id = await MainActor.run { [host = server.host] in
            let s = host.newScene()
            _ = s.document()
            return s.id
        }
        let cases: [(String, [String: String], Int)] = [
            ("/?w=\(id)", server.signedIn, 200), ("/_swiftuiweb/client.js", server.signedIn, 200),
            ("/nothing-here", server.signedIn, 404), ("/", [:], 401), ("/_swiftuiweb/sign-in", [:], 200),
            ("/", ["Host": "evil.example"], 403),
        ]
        for (path, headers, status) in cases {
            let reply = try await get(server.base + path, headers)
            #expect(reply.status == status, "\(path)")
            #expect(reply.header("x-content-type-options") == "nosniff", "\(path)")
            #expect(reply.header("referrer-policy") == "no-referrer", "\(path)")
            #expect(reply.header("content-security-policy")?.contains("frame-ancestors 'none'") == true, "\(path)")
            if reply.header("content-type")?.hasPrefix("text/html") == true {
                #expect(reply.header("cache-control") == "no-store", "\(path)")
            }
        }
        await server.stop()
    }

    @Test func anotherAppsCookieOpensNothingHere() async throws {
        let first = await TestServer(AppHost(app: NotepadApp(), storageDirectory: tempDir()))
        let second = await TestServer(AppHost(app: NotepadApp(), storageDirectory: tempDir()))
        try await first.start()
        try await second.start()
        #expect(first.cookie != second.cookie)
        #expect(try await get(second.base + "/", first.signedIn).status == 401)
        await first.stop()
        await second.stop()
    }

    @Test func theSessionKeyAndTokenFileAreTheUsersAlone() async throws {
        let state = tempDir()
        let run = tempDir() + "/run"
        let server = await TestServer(
            AppHost(app: NotepadApp(), storageDirectory: state), access: AccessPolicy(tokenDirectory: run))
        try await server.start()
        let file = run + "/Notepad-\(server.port).json"
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect((try FileManager.default.attributesOfItem(atPath: run)[.posixPermissions] as? Int) == 0o700)
        let record = try JSONDecoder().decode(LaunchRecord.self, from: Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(record.token == server.access.token && record.port == server.port && record.pid == getpid())
        #expect(record.url == "http://127.0.0.1:\(server.port)/?token=\(server.access.token)")
        let key = state + "/" + SessionKey.fileName
        #expect((try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? Int) == 0o600)
        await server.stop()
        // The token of a stopped server opens nothing: its file is gone.
        #expect(!FileManager.default.fileExists(atPath: file))

        // A session key others could read is not trusted: it is replaced, and the old cookie stops working.
        let oldCookie = server.cookie
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: key)
        let again = await TestServer(AppHost(app: NotepadApp(), storageDirectory: state))
        try await again.start()
        #expect(again.log.contains("replacing the session key"))
        #expect(again.cookie != oldCookie)
        #expect(try await get(again.base + "/", ["Cookie": oldCookie]).status == 401)
        #expect((try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? Int) == 0o600)
        await again.stop()

        // A token folder another user could write into is refused (the link is still handed to the launcher).
        let shared = tempDir() + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: shared)
        let exposed = await TestServer(
            AppHost(app: NotepadApp(), storageDirectory: tempDir()), access: AccessPolicy(tokenDirectory: shared))
        try await exposed.start()
        #expect(exposed.log.contains("could not write the token file in \(shared)"))
        #expect(exposed.log.contains("can be written by other users"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: shared).isEmpty)
        await exposed.stop()
    }

    @Test func restartedServersKeepTheirBrowsersSignedIn() async throws {
        let state = tempDir()
        let first = await TestServer(AppHost(app: NotepadApp(), storageDirectory: state))
        try await first.start()
        let cookie = first.signedIn
        await first.stop()
        let second = await TestServer(AppHost(app: NotepadApp(), storageDirectory: state))
        try await second.start()
        #expect(second.access.token != first.access.token)
        #expect(try await get(second.base + "/", cookie).status == 303)
        // The first launch's link is dead.
        #expect(try await get(second.base + "/?token=\(first.access.token)").status == 403)
        await second.stop()
    }

    @Test func noAuthServesEveryoneOnLoopbackButStillChecksTheHost() async throws {
        let server = await TestServer(
            AppHost(app: NotepadApp(), storageDirectory: tempDir()), access: AccessPolicy(authentication: .none))
        try await server.start()
        #expect(try await get(server.base + "/").status == 303)
        #expect(try await get(server.base + "/", ["Host": "evil.example:\(server.port)"]).status == 403)
        await server.stop()
    }

    @Test func listeningBeyondLoopbackWithoutTLSIsRefusedBeforeAnythingListens() async throws {
        let host = await AppHost(app: NotepadApp(), storageDirectory: tempDir())
        let error = await #expect(throws: AccessPolicyError.self) {
            try await AppServer(host: host).run(host: "0.0.0.0", port: 0) { _ in
                Issue.record("the server started")
            }
        }
        #expect(error?.description.contains("without TLS") == true)
        let noAuth = await #expect(throws: AccessPolicyError.self) {
            try await AppServer(host: host, access: AccessPolicy(authentication: .none, tls: .selfSigned))
                .run(host: "0.0.0.0", port: 0) { _ in Issue.record("the server started") }
        }
        #expect(noAuth?.description.contains("--no-auth") == true)
    }

    @Test func overTLSAClientThatTrustsThePrintedFingerprintGetsIn() async throws {
        let state = tempDir()
        let run = tempDir()
        let host = await AppHost(app: NotepadApp(), storageDirectory: state)
        let policy = AccessPolicy(tls: .selfSigned, tokenDirectory: run)
        let launched = LaunchBox()
        let task = Task {
            try await AppServer(host: host, access: policy).run(host: "127.0.0.1", port: 0) { await launched.set($0) }
        }
        defer { task.cancel() }
        let launch = try await launched.wait()
        let fingerprint = try #require(launch.fingerprint)
        #expect(launch.url == "https://127.0.0.1:\(launch.port)/?token=\(policy.token)")
        #expect(fingerprint.split(separator: ":").count == 32)
        let record = try JSONDecoder().decode(
            LaunchRecord.self, from: Data(contentsOf: URL(fileURLWithPath: launch.tokenFile!)))
        #expect(record.fingerprint == fingerprint)
        #expect(
            (try FileManager.default.attributesOfItem(atPath: state + "/tls-key.pem")[.posixPermissions] as? Int)
                == 0o600)

        let signIn = try await tlsGet(port: launch.port, path: "/?token=\(policy.token)", pinned: fingerprint)
        #expect(signIn.hasPrefix("HTTP/1.1 303"))
        let cookieLine = try #require(
            signIn.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") })
        #expect(cookieLine.hasSuffix("; Secure"))
        let cookie = String(cookieLine.dropFirst("set-cookie:".count).split(separator: ";")[0]).trimmingCharacters(
            in: .whitespaces)
        let page = try await tlsGet(port: launch.port, path: "/", pinned: fingerprint, cookie: cookie)
        #expect(page.hasPrefix("HTTP/1.1 303") && page.lowercased().contains("location: /?w="))
        // A client that expects another certificate (a man in the middle's, say) does not talk to this one.
        await #expect(throws: (any Error).self) {
            _ = try await tlsGet(port: launch.port, path: "/", pinned: String(repeating: "00:", count: 31) + "00")
        }
        // Plain HTTP on the TLS port gets nothing.
        await #expect(throws: (any Error).self) {
            let url = URL(string: "http://127.0.0.1:\(launch.port)/?token=\(policy.token)")!
            let reply = try await offCooperativePool { try httpExchange("GET", url, timeout: 3) }
            if reply.status == 0 || reply.status >= 400 { throw SocketError("refused: \(reply.status)") }
        }
        // The next launch presents the same certificate (the fingerprint a person checked stays true).
        task.cancel()
        _ = await task.result
        let relaunched = LaunchBox()
        let again = Task {
            try await AppServer(host: host, access: AccessPolicy(tls: .selfSigned)).run(host: "127.0.0.1", port: 0) {
                await relaunched.set($0)
            }
        }
        defer { again.cancel() }
        #expect(try await relaunched.wait().fingerprint == fingerprint)
    }
}

/// A launch handed over by a server task once it listens.
actor LaunchBox {
    private var launch: AppServer.Launch?
    func set(_ value: AppServer.Launch) { launch = value }
    func wait() async throws -> AppServer.Launch {
        for _ in 0..<400 {
            if let launch { return launch }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw SocketError("server did not start")
    }
}

/// `GET path` over TLS to 127.0.0.1:`port`, trusting only a server certificate whose SHA-256 fingerprint is
/// `pinned` (as a person checks the one the app printed); the whole response as text.
func tlsGet(port: Int, path: String, pinned: String, cookie: String? = nil) async throws -> String {
    var configuration = TLSConfiguration.makeClientConfiguration()
    // Chain and name checks are replaced by the pin below (a self-signed certificate has no chain to check).
    configuration.certificateVerification = .noHostnameVerification
    let context = try NIOSSLContext(configuration: configuration)
    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                let handler = try NIOSSLClientHandler(context: context, serverHostname: nil) { certificates, promise in
                    let der = certificates.first.flatMap { try? $0.toDERBytes() } ?? []
                    let seen = SHA256.hash(data: der).map { byte in
                        let hex = String(byte, radix: 16, uppercase: true)
                        return hex.count == 1 ? "0" + hex : hex
                    }.joined(separator: ":")
                    promise.succeed(seen == pinned ? .certificateVerified : .failed)
                }
                try channel.pipeline.syncOperations.addHandler(handler)
                return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
    return try await channel.executeThenClose { inbound, outbound in
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if let cookie { request += "Cookie: \(cookie)\r\n" }
        try await outbound.write(ByteBuffer(string: request + "\r\n"))
        var text = ""
        for try await var chunk in inbound { text += chunk.readString(length: chunk.readableBytes) ?? "" }
        guard !text.isEmpty else { throw SocketError("the TLS server closed without answering") }
        return text
    }
}
