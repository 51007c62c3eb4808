import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging

/// The transport floor: a plain Hummingbird app that serves one page and echoes WebSocket text messages.
/// Its page opens a socket to `/echo` and exposes `window.__echo` (`open`, `ping()`, `onpong`), as
/// SwiftUIWeb's client exposes `window.__swiftuiweb`.
enum PlainServer {
    /// The page: `padding` bytes of text (as many bytes as a SwiftUIWeb window's page, in one element: the
    /// transfer without the DOM work), then the socket script.
    static func page(padding: Int) -> String {
        """
        <!doctype html><html><head><meta charset="utf-8"><title>echo</title></head><body>\
        <main><p>\(String(repeating: "x", count: padding))</p></main>\
        <script>var e=window.__echo={open:false};var ws=new WebSocket('ws://'+location.host+'/echo');\
        ws.onopen=function(){e.open=true};ws.onmessage=function(){if(e.onpong)e.onpong()};\
        e.ping=function(){ws.send('{"t":"ping","id":""}')};</script></body></html>
        """
    }

    /// Runs the server until the task is cancelled; `started` gets its port.
    static func run(padding: Int, started: @escaping @Sendable (Int) async -> Void) async throws {
        let html = page(padding: padding)
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.get("/") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: html)))
        }
        router.ws("/echo") { inbound, outbound, _ in
            for try await message in inbound.messages(maxSize: 1 << 16) {
                if case .text(let text) = message { try await outbound.write(.text(text)) }
            }
        }
        var logger = Logger(label: "plain")
        logger.logLevel = .warning
        let app = Application(
            router: router,
            server: .http1WebSocketUpgrade(webSocketRouter: router),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in await started(channel.localAddress?.port ?? 0) },
            logger: logger)
        try await app.runService()
    }
}
