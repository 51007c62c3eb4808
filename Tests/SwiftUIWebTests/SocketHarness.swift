import Foundation
import Logging
import SwiftUIWebDriver
import Testing

@testable import SwiftUIWeb

/// A window with its own @State counter and a @SceneStorage note typed into a text field.
struct Notepad: View {
    @State private var count = 0
    @SceneStorage("note") private var note = ""
    var body: some View {
        VStack {
            Text("Count \(count)")
            Button("Increment") { count += 1 }
            TextField("Note", text: $note)
            Text("Note: \(note)")
        }
        .navigationTitle(note.isEmpty ? "Notepad" : note)
    }
}

struct NotepadApp: App {
    var body: some Scene { WindowGroup { Notepad() } }
}

/// Log lines kept for a test to read.
final class LogCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
    func append(_ line: String) {
        lock.lock()
        stored.append(line)
        lock.unlock()
    }
    func contains(_ fragment: String) -> Bool { lines.contains { $0.contains(fragment) } }

    /// A logger writing into this capture.
    var logger: Logger {
        Logger(label: "test") { _ in CaptureHandler(capture: self) }
    }

    struct CaptureHandler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { capture.append("\(event.level) \(event.message)") }
    }
}

/// An app server running in the test process on a free loopback port, and a browser's sign-in to it: after
/// `start`, `cookie` is what the server set when the test followed the launch's link, as a browser would.
final class TestServer: @unchecked Sendable {
    let host: AppHost
    let log = LogCapture()
    let access: AccessPolicy
    private(set) var port = 0
    /// The `Cookie` header of a signed-in browser.
    private(set) var cookie = ""
    private var task: Task<Void, Error>?

    @MainActor init(_ host: AppHost, access: AccessPolicy = AccessPolicy()) {
        self.host = host
        self.access = access
    }

    /// Starts serving (on `port` when given, to come back on the same address after a restart) and signs in.
    func start(port wanted: Int = 0) async throws {
        let box = PortBox()
        let server = AppServer(host: host, logger: log.logger, access: access)
        task = Task { try await server.run(host: "127.0.0.1", port: wanted) { await box.set($0) } }
        port = try await box.wait()
        if access.authentication == .token {
            let link = URL(string: base + "/?token=" + access.token)!
            let reply = try await offCooperativePool { try httpExchange("GET", link) }
            guard reply.status == 303, let set = reply.header("set-cookie"), let pair = set.split(separator: ";").first
            else { throw SocketError("the launch's link did not sign in: \(reply.status)") }
            cookie = String(pair)
        }
    }

    /// Headers of a signed-in browser's request.
    var signedIn: [String: String] { cookie.isEmpty ? [:] : ["Cookie": cookie] }

    /// Stops serving and waits (at most 10 s) until the port is free.
    func stop() async {
        guard let task else { return }
        task.cancel()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { _ = try? await task.value }
            group.addTask { try? await Task.sleep(for: .seconds(10)) }
            await group.next()
            group.cancelAll()
        }
        self.task = nil
    }

    var base: String { "http://127.0.0.1:\(port)" }
    /// A window's event socket, opened as the signed-in browser.
    func socketURL(_ id: String) -> SocketTarget {
        SocketTarget(url: "ws://127.0.0.1:\(port)/_swiftuiweb/ws?w=\(id)", cookie: cookie)
    }
}

/// An event socket's address and the cookie sent with its upgrade request (none when empty).
struct SocketTarget {
    let url: String
    let cookie: String
}

actor PortBox {
    var port: Int?
    func set(_ p: Int) { port = p }
    func wait() async throws -> Int {
        for _ in 0..<400 {
            if let port { return port }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw SocketError("server did not start")
    }
}

struct SocketError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// One page's socket as the test sees it (used from one task at a time).
final class Peer: @unchecked Sendable {  // Unchecked: one task at a time, as a page's script.
    let socket: RawWebSocket
    init(_ socket: RawWebSocket) { self.socket = socket }

    /// The next text message (`nil`: the socket closed).
    func next() async throws -> String? {
        let socket = self.socket
        while let message = try await offCooperativePool({ try socket.next() }) {
            if case .text(let text) = message { return text }
        }
        return nil
    }
    func send(_ text: String) async throws {
        let socket = self.socket
        try await offCooperativePool { try socket.send(opcode: 0x1, Array(text.utf8)) }
    }
    /// Sends a binary message (which the server refuses: events are text).
    func sendBinary(_ bytes: [UInt8]) async throws {
        let socket = self.socket
        try await offCooperativePool { try socket.send(opcode: 0x2, bytes) }
    }
    func send(_ event: ClientEvent) async throws {
        try await send(String(decoding: try JSONEncoder().encode(event), as: UTF8.self))
    }
    /// Sends a ping and returns everything that arrived before its pong.
    func drain() async throws -> [String] {
        try await send(ClientEvent(t: "ping", id: ""))
        var before: [String] = []
        while let m = try await next(), m != "{\"pong\":true}" { before.append(m) }
        return before
    }
}

/// Opens a socket as a page would and runs `body` on it; returns the close frame the server sent. A socket that is
/// still open after `timeout` seconds (a server that never answers, or a body waiting for a message that never
/// comes) fails the test with an error naming the address, instead of hanging the run. The watchdog catches hangs,
/// it does not time anything: 90 s, because on a loaded two-core CI machine (a cold first run, browsers and a
/// gigabyte stream beside it) the main actor every server hop goes through has been seen busy for over 30 s.
@discardableResult
func withSocket(
    _ target: SocketTarget, origin: String? = nil, headers: [String: String] = [:], timeout: Double = 90,
    _ body: @escaping @Sendable (Peer) async throws -> Void
) async throws -> RawWebSocket.Close? {
    var fields: [(String, String)] = []
    if let origin { fields.append(("Origin", origin)) }
    if !target.cookie.isEmpty { fields.append(("Cookie", target.cookie)) }
    fields += headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    let request = fields
    let opened = Box<RawWebSocket?>(nil)
    let work = Task { () -> RawWebSocket.Close? in
        let socket = try await offCooperativePool { try RawWebSocket(url: target.url, headers: request) }
        opened.value = socket
        do {
            try await body(Peer(socket))
        } catch {
            socket.shutdown()
            // The body's error is what the test reports; the closing can only fail on the socket just shut.
            _ = try? await offCooperativePool { try socket.finish() }
            throw error
        }
        return try await offCooperativePool { try socket.finish() }
    }
    do {
        return try await firstOf(work, within: timeout, what: "the socket \(target.url)")
    } catch {
        opened.value?.shutdown()  // a hung read or write ends now
        throw error
    }
}

/// The value of `work`, or an error once `seconds` have passed without one. The late work is cancelled and left
/// to end on its own (not awaited: a hung socket would hang the test that waits for it).
func firstOf<T: Sendable>(_ work: Task<T, Error>, within seconds: Double, what: String) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
        let once = ResumeOnce(continuation)
        let timer = Task {
            try await Task.sleep(for: .seconds(seconds))
            work.cancel()
            once.resume(.failure(SocketError("\(what): nothing within \(Int(seconds)) s")))
        }
        Task {
            let result = await work.result
            timer.cancel()
            once.resume(result)
        }
    }
}

/// Resumes a continuation with the first result it is given, and ignores the others.
final class ResumeOnce<T: Sendable>: @unchecked Sendable {  // Unchecked: `continuation` is read and cleared under `lock`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, Error>?
    init(_ continuation: CheckedContinuation<T, Error>) { self.continuation = continuation }
    func resume(_ result: Result<T, Error>) {
        lock.lock()
        let waiting = continuation
        continuation = nil
        lock.unlock()
        waiting?.resume(with: result)
    }
}

/// A box for values a socket closure hands back to the test.
final class Box<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T
    init(_ v: T) { stored = v }
    var value: T {
        get {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
        set {
            lock.lock()
            stored = newValue
            lock.unlock()
        }
    }
}

extension SceneInstance {
    /// The id of the first text field.
    var fieldID: String { tree.first { $0.tag == "input" }!.id }
}
