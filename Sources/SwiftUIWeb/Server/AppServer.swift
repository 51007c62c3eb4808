import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
import Logging

/// Serves an app's windows: HTML on `/`, the client script, and the event WebSocket.
public struct AppServer: Sendable {
    /// Largest accepted event message, in bytes. Larger messages are refused and logged, and their
    /// socket is closed with code 1009 (the page reconnects and gets its scene back).
    public static let maxEventSize = 16 * 1024
    /// Largest WebSocket frame the frame decoder reads at all (anything larger is cut off before it
    /// reaches the app, closing the socket with code 1009).
    public static let maxFrameSize = 4 * maxEventSize
    let host: AppHost
    /// Where the server logs refused requests and messages.
    public let logger: Logger
    /// Who may use the server (by default: whoever has this launch's token).
    public let access: AccessPolicy

    /// Creates a server for a host, logging to `logger`, letting in whom `access` says.
    public init(host: AppHost, logger: Logger = Logger(label: "SwiftUIWeb"), access: AccessPolicy = AccessPolicy()) {
        self.host = host
        self.logger = logger
        self.access = access
    }

    /// Runs until cancelled; `onStarted` gets the port it listens on.
    public func run(host address: String, port: Int, onStarted: (@Sendable (Int) async -> Void)? = nil) async throws {
        try await run(host: address, port: port) { launch in await onStarted?(launch.port) }
    }

    /// Runs until cancelled; `onLaunch` gets the port, the link that signs a browser in, and the token file
    /// (written when the policy names a token folder, removed when the server stops).
    public func run(host address: String, port: Int, onLaunch: @escaping @Sendable (Launch) async -> Void) async throws
    {
        let security = try await prepareSecurity(address: address)
        let tokenFile = TokenFileBox()
        let access = self.access
        let appName = await MainActor.run { [host] in host.appName }
        let app = try await makeApplication(address: address, port: port, security: security) { bound in
            var path: String?
            if let folder = access.tokenDirectory {
                let record = LaunchRecord(
                    app: appName, url: launchURL(security, port: bound), token: access.token, port: bound,
                    pid: getpid(), fingerprint: security.certificate?.fingerprint)
                do {
                    path = try record.write(in: folder)
                    tokenFile.path = path
                } catch {
                    logger.error("could not write the token file in \(folder): \(error)")
                }
            }
            await onLaunch(
                Launch(
                    port: bound, url: launchURL(security, port: bound), tokenFile: path,
                    fingerprint: security.certificate?.fingerprint))
        }
        let host = self.host
        defer {
            // The token of a stopped server opens nothing; its file goes with it (already gone: nothing to do).
            if let path = tokenFile.path { try? FileManager.default.removeItem(atPath: path) }
        }
        do {
            try await runServices(app)
        } catch {
            // Stopped (cancelled) or failed: @SceneStorage and edited documents are written either way.
            await host.saveDocuments()
            await MainActor.run { host.saveStorage() }
            throw error
        }
        await host.saveDocuments()
        await MainActor.run { host.saveStorage() }
    }

    private func runServices(_ app: some ApplicationProtocol) async throws {
        let host = self.host
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.runService() }
            // Free the scenes of windows that have been gone longer than the retention time.
            group.addTask {
                while !Task.isCancelled {
                    let period = await MainActor.run { min(30, max(1, host.retention / 4)) }
                    try await Task.sleep(for: .seconds(period))
                    await MainActor.run { host.sweep() }
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    /// Builds the Hummingbird application (after checking the access policy against the address).
    public func makeApplication(
        host address: String, port: Int, onStarted: (@Sendable (Int) async -> Void)? = nil
    ) async throws -> some ApplicationProtocol {
        let security = try await prepareSecurity(address: address)
        return try await makeApplication(address: address, port: port, security: security) { await onStarted?($0) }
    }

    func makeApplication(
        address: String, port: Int, security: Security, onStarted: @escaping @Sendable (Int) async -> Void
    ) async throws -> some ApplicationProtocol {
        let host = self.host
        let logger = self.logger
        let appName = await MainActor.run { host.appName }
        let gate = security.gate
        let router = Router(context: BasicWebSocketRequestContext.self)
        // Every request passes the gate first: the Host allowlist, then the cookie (or the token that sets it).
        router.add(middleware: AccessMiddleware(gate: gate, appName: appName, logger: logger))
        router.get("/_swiftuiweb/sign-in") { request, _ -> Response in  // AccessGate.signInPath
            AppServer.signInPage(request, gate: gate, appName: appName)
        }
        router.post("/_swiftuiweb/sign-in") { request, _ -> Response in
            try await AppServer.signIn(
                request, gate: gate, passwords: security.passwords, appName: appName, logger: logger)
        }
        router.get("/") { request, _ -> Response in
            let requested = request.uri.queryParameters.get("w")
            let html: [UInt8]? = await MainActor.run {
                guard let requested, let scene = host.scene(id: requested) else { return nil }
                return scene.documentUTF8()
            }
            guard let html else {
                // No such scene: a fresh one under a new random id (a client never picks its scene's id).
                // A single window (`Window`, `Settings`) is found again rather than made twice.
                let group = request.uri.queryParameters.get("g").map { String($0) }
                let id = await MainActor.run { host.sceneForRequest(group: group).id }
                return Response(status: .seeOther, headers: [.location: "/?w=" + id, .cacheControl: "no-store"])
            }
            return Response(
                status: .ok,
                headers: [
                    .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                    .contentSecurityPolicy: AppServer.contentSecurityPolicy,
                ],
                body: .init(byteBuffer: ByteBuffer(bytes: html)))
        }
        router.get("/_swiftuiweb/open") { request, _ -> Response in
            try await AppServer.openExternalURL(request, host: host, logger: logger)
        }
        router.post("/_swiftuiweb/upload") { request, _ -> Response in
            try await AppServer.upload(request, host: host, logger: logger)
        }
        router.get("/_swiftuiweb/download") { request, _ -> Response in
            await AppServer.download(request, host: host)
        }
        router.get("/_swiftuiweb/export") { request, _ -> Response in
            await AppServer.export(request, host: host)
        }
        let assets = AppAssets.standard()
        router.get("/_swiftuiweb/images/:name") { _, context -> Response in
            guard let name = context.parameters.get("name")?.removingPercentEncoding,
                let image = assets.image(named: name),
                let data = FileManager.default.contents(atPath: image.url.path)
            else {
                return Response(
                    status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                    body: .init(byteBuffer: ByteBuffer(string: "no image with that name in the app's assets")))
            }
            return Response(
                status: .ok,
                headers: [
                    .contentType: image.mimeType, .cacheControl: "no-cache",
                    .init("X-Content-Type-Options")!: "nosniff",
                ],
                body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        router.get("/_swiftuiweb/client.js") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/javascript"],
                body: .init(byteBuffer: ByteBuffer(string: ClientAssets.script)))
        }
        router.ws("/_swiftuiweb/ws") { request, _ in
            guard request.uri.queryParameters.get("w") != nil else { return .dontUpgrade }
            guard AppServer.sameOrigin(request) else {
                logger.warning(
                    "event socket refused: cross-origin request",
                    metadata: ["origin": "\(request.headers[.origin] ?? "")"])
                return .dontUpgrade
            }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            let id = context.request.uri.queryParameters.get("w") ?? ""
            try await AppServer.serve(sceneID: id, host: host, inbound: inbound, outbound: outbound, logger: logger)
        }
        var ws = WebSocketServerConfiguration()
        ws.maxFrameSize = AppServer.maxFrameSize
        var server: HTTPServerBuilder = .http1WebSocketUpgrade(webSocketRouter: router, configuration: .init(ws: ws))
        if let certificate = security.certificate {
            server = try .tls(server, tlsConfiguration: certificate.configuration)
        }
        let app = Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname(address, port: port)),
            onServerRunning: { channel in await onStarted(channel.localAddress?.port ?? port) },
            logger: logger
        )
        return app
    }

    /// Where the token file of a running server is, once written.
    final class TokenFileBox: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: String?
        /// The file's path (read and written under the lock).
        var path: String? {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }

    /// The page's policy: scripts, styles, images and sockets from this server only (inline styles
    /// allowed for the default look), no framing by other sites.
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'"

    /// A browser's socket must come from a page of this server. Browsers send an `http(s)` (or `null`)
    /// `Origin`; other clients (which could send anything) are not what this check is for.
    static func sameOrigin(_ request: Request) -> Bool {
        let authority = request.head.authority ?? ""
        for origin in request.headers[values: .origin] {
            let lower = origin.lowercased()
            let fromBrowser = lower == "null" || lower.hasPrefix("http://") || lower.hasPrefix("https://")
            if fromBrowser && lower != "http://" + authority.lowercased()
                && lower != "https://" + authority.lowercased()
            {
                return false
            }
        }
        return true
    }

    /// Outgoing traffic of one socket.
    enum Outgoing: Sendable {
        case text(String)
        case hangUp
    }

    /// One window's socket: binds it to its scene (or sends the page elsewhere), then reads events.
    static func serve(
        sceneID id: String, host: AppHost, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter,
        logger: Logger
    ) async throws {
        let (stream, continuation) = AsyncStream<Outgoing>.makeStream()
        enum Binding {
            case bound(SceneInstance, UInt64)
            case unknown
            case rebind(String)
        }
        let binding: Binding = await MainActor.run {
            guard let scene = host.scene(id: id) else { return .unknown }
            if scene.sink != nil {
                // A second page on a scene whose window is still connected (a duplicated tab): it gets
                // a scene of its own, starting from a copy of the original's @SceneStorage.
                let copy = host.newScene(group: scene.group)
                copy.sceneStorage = scene.sceneStorage
                return .rebind(copy.id)
            }
            let connection = host.nextConnection()
            scene.connection = connection
            scene.sink = { continuation.yield(.text($0)) }
            scene.hangUp = { continuation.yield(.hangUp) }
            // A page just served has the last rendering: it gets only what changed since. Any other
            // page (a reconnection) gets the whole window again.
            if !scene.pageInSync { scene.lastTree = nil }
            // A connected page is active until it says otherwise (its first message reports its phase).
            if scene.phase == .background {
                scene.phase = .active
                scene.needsFull = true
            }
            scene.pageInSync = false
            scene.flush()
            return .bound(scene, connection)
        }
        let scene: SceneInstance
        let connection: UInt64
        switch binding {
        case .unknown:
            // Unknown (freed, or never saved before a restart): the page reloads into a fresh scene.
            logger.info("event socket for an unknown scene: asking the page to reload")
            try await outbound.write(.text("{\"reload\":true}"))
            return
        case .rebind(let newID):
            logger.info("second socket on a connected scene: moving the page to a scene of its own")
            try await outbound.write(.text("{\"rebind\":\(JSON.quote(newID))}"))
            return
        case .bound(let s, let c):
            scene = s
            connection = c
        }
        defer { continuation.finish() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    for await item in stream {
                        switch item {
                        case .text(let message): try await outbound.write(.text(message))
                        case .hangUp:
                            try await outbound.close(.goingAway, reason: "disconnected by the server")
                            return
                        }
                    }
                } catch {
                    logger.debug("event socket write failed: \(error)")
                }
            }
            do {
                try await readEvents(inbound: inbound, outbound: outbound, logger: logger) { event in
                    // A ping reads nothing: answered in order with the patches of earlier events.
                    if event.t == "ping" {
                        continuation.yield(.text("{\"pong\":true}"))
                        return
                    }
                    await MainActor.run {
                        // Bound to this socket: once another socket owns the scene, this one drives nothing.
                        guard scene.connection == connection else { return }
                        scene.handle(event: event)
                    }
                }
            } catch {
                logger.debug("event socket ended: \(error)")
            }
            await MainActor.run {
                if scene.connection == connection {
                    scene.sink = nil
                    scene.hangUp = nil
                    scene.connection = 0
                    scene.lastSeen = Date()
                    // No page shows the window: it is in the background (onChange(of: scenePhase) runs now).
                    if scene.phase != .background {
                        scene.phase = .background
                        scene.invalidate()
                    }
                }
            }
            continuation.finish()
            group.cancelAll()
        }
    }

    /// Reads event messages, assembling frames; refuses (and logs) malformed messages, and closes the
    /// socket with 1009 on a message over ``maxEventSize``.
    static func readEvents(
        inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, logger: Logger,
        _ handle: (ClientEvent) async -> Void
    ) async throws {
        var message = ByteBuffer()
        var isText = true
        for try await frame in inbound {
            switch frame.opcode {
            case .text, .binary:
                message.clear()
                isText = frame.opcode == .text
            case .continuation:
                break
            }
            var data = frame.data
            message.writeBuffer(&data)
            if message.readableBytes > maxEventSize {
                logger.warning("event message refused: over \(maxEventSize) bytes; closing the socket")
                try await outbound.close(.messageTooLarge, reason: "event message over \(maxEventSize) bytes")
                return
            }
            guard frame.fin else { continue }
            let bytes = Data(message.readableBytesView)
            message.clear()
            do {
                guard isText else { throw EventError("binary message") }
                let event = try ClientEvent.decode(bytes)
                await handle(event)
            } catch {
                logger.warning("event message refused: \(error)")
            }
        }
    }
}

/// Why an event message was refused.
struct EventError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
