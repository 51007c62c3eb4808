import Foundation
import Hummingbird
import HummingbirdWebSocket


/// Serves an app's windows: HTML on `/`, the client script, and the event WebSocket.
public struct AppServer: Sendable {
    /// Largest accepted event message, in bytes.
    public static let maxEventSize = 16 * 1024
    let host: AppHost

    /// Creates a server for a host.
    public init(host: AppHost) { self.host = host }

    /// Runs until cancelled.
    public func run(host address: String, port: Int, onStarted: (@Sendable (Int) async -> Void)? = nil) async throws {
        let app = try await makeApplication(host: address, port: port, onStarted: onStarted)
        let host = self.host
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.runService() }
            // Free the scenes of windows that have been gone longer than the retention time.
            group.addTask {
                while !Task.isCancelled {
                    try await Task.sleep(for: .seconds(30))
                    await MainActor.run { host.sweep() }
                }
            }
            try await group.next()
            group.cancelAll()
        }
        await MainActor.run { host.saveStorage() }
    }

    /// Builds the Hummingbird application.
    public func makeApplication(host address: String, port: Int, onStarted: (@Sendable (Int) async -> Void)? = nil) async throws -> some ApplicationProtocol {
        let host = self.host
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.get("/") { request, _ -> Response in
            let requested = request.uri.queryParameters.get("w")
            let html: String? = await MainActor.run {
                guard let requested, let scene = host.scene(id: requested) else { return nil }
                return scene.document()
            }
            guard let html else {
                let group = request.uri.queryParameters.get("g").map { String($0) }
                let id = await MainActor.run { host.newScene(group: group.flatMap { host.hasGroup($0) ? $0 : nil }).id }
                return Response(status: .seeOther, headers: [.location: "/?w=" + id])
            }
            return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                            body: .init(byteBuffer: ByteBuffer(string: html)))
        }
        router.get("/_swiftuiweb/client.js") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/javascript"], body: .init(byteBuffer: ByteBuffer(string: ClientAssets.script)))
        }
        router.ws("/_swiftuiweb/ws") { request, _ in
            request.uri.queryParameters.get("w") == nil ? .dontUpgrade : .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            let id = context.request.uri.queryParameters.get("w") ?? ""
            let (stream, continuation) = AsyncStream<String>.makeStream()
            let bound: String? = await MainActor.run {
                guard let scene = host.scene(id: id) else { return nil }
                if scene.sink != nil {
                    // A second window (e.g. a duplicated tab) on the same scene: give it its own scene.
                    let copy = host.newScene()
                    copy.sceneStorage = scene.sceneStorage
                    return "rebind:" + copy.id
                }
                scene.sink = { continuation.yield($0) }
                scene.lastTree = nil
                scene.flush()
                return "ok"
            }
            guard let bound else {
                // Unknown (freed, or never saved before a restart): the page reloads into a fresh scene.
                context.logger.info("WebSocket for unknown scene: asking the page to reload")
                try await outbound.write(.text("{\"reload\":true}"))
                return
            }
            if bound.hasPrefix("rebind:") {
                try await outbound.write(.text("{\"rebind\":\(JSON.quote(String(bound.dropFirst(7))))}"))
                return
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await message in stream { try await outbound.write(.text(message)) }
                }
                defer { continuation.finish() }
                for try await message in inbound.messages(maxSize: AppServer.maxEventSize) {
                    guard case .text(let text) = message,
                          let event = try? JSONDecoder().decode(ClientEvent.self, from: Data(text.utf8)) else {
                        context.logger.warning("malformed event message refused")
                        continue
                    }
                    await MainActor.run { _ = host.scene(id: id)?.handle(event: event) }
                }
                await MainActor.run { if let s = host.scenes[id] { s.sink = nil; s.lastSeen = Date() } }
                continuation.finish()
                try await group.waitForAll()
            }
        }
        let app = Application(
            router: router,
            server: .http1WebSocketUpgrade(webSocketRouter: router),
            configuration: .init(address: .hostname(address, port: port)),
            onServerRunning: { channel in await onStarted?(channel.localAddress?.port ?? port) }
        )
        return app
    }
}
