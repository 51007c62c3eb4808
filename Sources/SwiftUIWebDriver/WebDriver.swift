import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Errors from the WebDriver helpers.
public struct BrowserError: Error, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
}

/// Where headless Chromium and its driver are (Debian's `chromium` and `chromium-driver`).
public enum BrowserEnvironment {
    public static let chromium = ProcessInfo.processInfo.environment["CHROMIUM"] ?? "/usr/bin/chromium"
    public static let driver = ProcessInfo.processInfo.environment["CHROMEDRIVER"] ?? "/usr/bin/chromedriver"
    public static var available: Bool {
        FileManager.default.isExecutableFile(atPath: chromium) && FileManager.default.isExecutableFile(atPath: driver)
    }
    /// Run browser tests where the browser is installed, and always on CI (where a missing browser is a failure).
    public static var shouldRun: Bool { available || ProcessInfo.processInfo.environment["CI"] != nil }
}

/// A free TCP port on the loopback interface (bound, read, released).
public func freePort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = 0
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) }
    }
    _ = withUnsafeMutablePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
    }
    return Int(UInt16(bigEndian: addr.sin_port))
}

/// Polls until `condition` holds, at most `timeout` seconds.
public func waitUntil(_ what: String, timeout: Double = 8, _ condition: @Sendable () async throws -> Bool) async throws
{
    let deadline = Date().addingTimeInterval(timeout)
    var lastError: Error?
    while Date() < deadline {
        do { if try await condition() { return } } catch { lastError = error }
        try await Task.sleep(for: .milliseconds(50))
    }
    throw BrowserError(
        description: "timed out after \(timeout) s waiting for \(what)"
            + (lastError.map { " (last error: \($0))" } ?? ""))
}

/// One HTTP/1.1 exchange over a plain loopback socket. (chromedriver writes headers without the space
/// after the colon, which FoundationNetworking's parser refuses, so the tests speak HTTP themselves.)
public func httpRequest(
    _ method: String, _ url: URL, body: Data? = nil, headers: [String: String] = [:], timeout: Double = 30
) throws
    -> (status: Int, body: Data)
{
    let reply = try httpExchange(method, url, body: body, headers: headers, timeout: timeout)
    return (reply.status, reply.body)
}

/// A response as ``httpExchange(_:_:body:headers:timeout:)`` reads it.
public struct HTTPReply: Sendable {
    /// The status code.
    public let status: Int
    /// The header fields, names lowercased, in the order received.
    public let headers: [(name: String, value: String)]
    /// The body.
    public let body: Data
    /// The first value of the header `name` (any case).
    public func header(_ name: String) -> String? { headers.first { $0.name == name.lowercased() }?.value }
    /// Every value of the header `name` (any case).
    public func headers(_ name: String) -> [String] { headers.filter { $0.name == name.lowercased() }.map(\.value) }
    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// One HTTP/1.1 exchange over a plain loopback socket, with the response's headers. A `Host` in `headers`
/// replaces the one the URL gives (to send what another site's page would), a `Connection` the default
/// `close`. The response ends at its `Content-Length`, or when the server closes the connection.
public func httpExchange(
    _ method: String, _ url: URL, body: Data? = nil, headers: [String: String] = [:], timeout: Double = 30
) throws -> HTTPReply {
    guard let host = url.host, let port = url.port else { throw BrowserError(description: "bad url \(url)") }
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw BrowserError(description: "socket failed") }
    defer { close(fd) }
    var tv = timeval(tv_sec: Int(timeout), tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = in_port_t(UInt16(port).bigEndian)
    addr.sin_addr.s_addr = inet_addr(host == "localhost" ? "127.0.0.1" : host)
    let connected = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else { throw BrowserError(description: "connection to \(url) refused") }
    var path = url.path.isEmpty ? "/" : url.path
    if let q = url.query { path += "?" + q }
    var head = "\(method) \(path) HTTP/1.1\r\nHost: \(headers["Host"] ?? "\(host):\(port)")\r\n"
    if headers["Connection"] == nil { head += "Connection: close\r\n" }
    if let body {
        head += "Content-Type: \(headers["Content-Type"] ?? "application/json")\r\nContent-Length: \(body.count)\r\n"
    }
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) where name != "Content-Type" && name != "Host" {
        head += "\(name): \(value)\r\n"
    }
    var request = Data((head + "\r\n").utf8)
    if let body { request += body }
    try request.withUnsafeBytes { raw in
        var sent = 0
        while sent < raw.count {
            let n = send(fd, raw.baseAddress! + sent, raw.count - sent, 0)
            guard n > 0 else { throw BrowserError(description: "send failed") }
            sent += n
        }
    }
    var response = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    var headerEnd: Int?
    var contentLength: Int?
    while true {
        let n = recv(fd, &buffer, buffer.count, 0)
        if n < 0 { throw BrowserError(description: "timed out reading \(url)") }
        if n == 0 { break }
        response.append(buffer, count: n)
        if headerEnd == nil, let r = response.range(of: Data("\r\n\r\n".utf8)) {
            headerEnd = r.upperBound
            let header = String(decoding: response[..<r.lowerBound], as: UTF8.self).lowercased()
            for line in header.split(separator: "\r\n") where line.hasPrefix("content-length:") {
                contentLength = Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces))
            }
        }
        if let headerEnd, let contentLength, response.count - headerEnd >= contentLength { break }
        // Switching protocols: what follows is no longer HTTP.
        if headerEnd != nil, response.starts(with: Data("HTTP/1.1 101".utf8)) { break }
    }
    guard let headerEnd else { throw BrowserError(description: "no response from \(url)") }
    let received = String(decoding: response[..<headerEnd], as: UTF8.self)
    var lines = received.components(separatedBy: "\r\n").filter { !$0.isEmpty }
    let statusLine = lines.isEmpty ? "" : lines.removeFirst()
    let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0
    let fields = lines.compactMap { line -> (name: String, value: String)? in
        guard let colon = line.firstIndex(of: ":") else { return nil }
        return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
    return HTTPReply(status: status, headers: fields, body: Data(response[headerEnd...]))
}

/// Runs blocking work on a Dispatch thread, so that it never holds one of the few threads Swift
/// concurrency runs tasks on (a server in the same process needs them to answer).
public func offCooperativePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}

/// One HTTP exchange with a JSON body and a JSON reply.
public func httpJSON(_ method: String, _ url: URL, _ body: Any? = nil, timeout: Double = 30) async throws -> Any {
    let data = try body.map { try JSONSerialization.data(withJSONObject: $0) }
    let reply = try await offCooperativePool { try httpRequest(method, url, body: data, timeout: timeout) }
    return try JSONSerialization.jsonObject(with: reply.body, options: [.fragmentsAllowed])
}

/// A process started by a test, stopped by its pid (never by name).
public final class ChildProcess: @unchecked Sendable {
    public let process = Process()
    /// Starts `path` with `arguments` and `environment` added to this process's; its standard output goes to
    /// the file `output` when given (created anew), else nowhere, as its standard error does.
    public init(
        _ path: String, _ arguments: [String], environment: [String: String] = [:], output: String? = nil
    )
        throws
    {
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, b in b }
        process.environment = env
        if let output {
            guard FileManager.default.createFile(atPath: output, contents: nil),
                let handle = FileHandle(forWritingAtPath: output)
            else {
                throw BrowserError(description: "could not open \(output) for the output of \(path)")
            }
            process.standardOutput = handle
            process.standardError = handle
        } else {
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
    }
    /// Terminates, then kills if it has not exited within a second.
    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(1)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
    deinit { stop() }
}

/// chromedriver on a free port, speaking W3C WebDriver.
public final class ChromeDriver: @unchecked Sendable {
    let child: ChildProcess
    public let base: URL
    /// The sessions opened, each closed by `stop()`: chromedriver does not end its browsers when it is stopped,
    /// and a Chromium left behind keeps running after the test.
    private var sessions: [URL] = []
    private let lock = NSLock()

    public init() async throws {
        guard BrowserEnvironment.available else {
            throw BrowserError(
                description: "chromium/chromedriver not installed (scripts/install-test-deps installs them)")
        }
        let port = freePort()
        child = try ChildProcess(BrowserEnvironment.driver, ["--port=\(port)"])
        base = URL(string: "http://127.0.0.1:\(port)")!
        try await waitUntil("chromedriver to start", timeout: 15) {
            let status =
                try await httpJSON("GET", self.base.appendingPathComponent("status"), timeout: 2) as? [String: Any]
            return (status?["value"] as? [String: Any])?["ready"] as? Bool == true
        }
    }

    /// Opens a headless Chromium session (with `arguments` added to its command line).
    public func session(width: Int = 1100, height: Int = 720, arguments: [String] = []) async throws -> WebSession {
        let caps: [String: Any] = [
            "capabilities": [
                "alwaysMatch": [
                    "browserName": "chrome",
                    "goog:chromeOptions": [
                        "binary": BrowserEnvironment.chromium,
                        "args": [
                            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                            "--hide-scrollbars", "--window-size=\(width),\(height)", "--no-first-run",
                            "--disable-popup-blocking",
                        ] + arguments,
                    ],
                ] as [String: Any]
            ]
        ]
        let reply =
            try await httpJSON("POST", base.appendingPathComponent("session"), caps, timeout: 60) as? [String: Any]
        guard let value = reply?["value"] as? [String: Any], let id = value["sessionId"] as? String else {
            throw BrowserError(description: "no session: \(String(describing: reply))")
        }
        let session = base.appendingPathComponent("session").appendingPathComponent(id)
        lock.withLock { sessions.append(session) }
        return WebSession(base: session)
    }

    /// Ends every session's browser, then chromedriver.
    public func stop() {
        let open = lock.withLock {
            defer { sessions = [] }
            return sessions
        }
        for session in open {
            // Absence is the meaning: a session the test already quit answers with an error (its browser is gone),
            // and a chromedriver that cannot answer leaves nothing to do but stop it, below.
            _ = try? httpExchange("DELETE", session, timeout: 10)
        }
        child.stop()
    }

    deinit { stop() }
}

/// One browser session: windows, navigation, scripts, clicks, typing, screenshots.
public struct WebSession: Sendable {
    public let base: URL

    @discardableResult
    public func command(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> Any? {
        let url = path.isEmpty ? base : base.appendingPathComponent(path)
        let reply = try await httpJSON(method, url, body ?? (method == "POST" ? [:] : nil)) as? [String: Any]
        let value = reply?["value"]
        if let error = value as? [String: Any], let kind = error["error"] as? String {
            throw BrowserError(description: "\(kind): \(error["message"] as? String ?? "")")
        }
        return value
    }

    public func open(_ url: String) async throws { try await command("POST", "url", ["url": url]) }
    public func url() async throws -> String { try await command("GET", "url") as? String ?? "" }
    public func title() async throws -> String { try await command("GET", "title") as? String ?? "" }
    public func refresh() async throws { try await command("POST", "refresh") }
    public func quit() async { _ = try? await command("DELETE", "") }

    /// Runs a script in the page (its `return` value comes back).
    public func run(_ script: String, _ args: [Any] = []) async throws -> Any? {
        try await command("POST", "execute/sync", ["script": script, "args": args])
    }
    /// Runs an asynchronous script: it calls `arguments[arguments.length-1]` with its result.
    public func runAsync(_ script: String, _ args: [Any] = []) async throws -> Any? {
        try await command("POST", "execute/async", ["script": script, "args": args])
    }

    /// The element reference for a CSS selector or XPath.
    public func find(css: String) async throws -> String { try await find("css selector", css) }
    public func find(xpath: String) async throws -> String { try await find("xpath", xpath) }
    private func find(_ using: String, _ value: String) async throws -> String {
        let v = try await command("POST", "element", ["using": using, "value": value]) as? [String: Any]
        guard let ref = v?.values.first as? String else { throw BrowserError(description: "no element \(value)") }
        return ref
    }
    public func click(_ element: String) async throws { try await command("POST", "element/\(element)/click") }
    public func type(_ element: String, _ text: String) async throws {
        try await command("POST", "element/\(element)/value", ["text": text])
    }

    /// WebDriver's code for the Tab key, for ``press(_:)``.
    public static let tabKey = "\u{E004}"
    /// WebDriver's code for the Enter key, for ``press(_:)``.
    public static let enterKey = "\u{E007}"

    /// Presses keys one after another as a keyboard does (WebDriver actions: each goes to the focused element).
    public func press(_ keys: [String]) async throws {
        let actions = keys.flatMap { [["type": "keyDown", "value": $0], ["type": "keyUp", "value": $0]] }
        try await command("POST", "actions", ["actions": [["type": "key", "id": "keyboard", "actions": actions]]])
    }

    /// The visible text of the element matching a CSS selector ("" when absent).
    public func text(_ css: String) async throws -> String {
        try await run("var e=document.querySelector(arguments[0]);return e?e.textContent:''", [css]) as? String ?? ""
    }
    /// Whether the page's socket is connected.
    public func connected() async throws -> Bool {
        try await run("return !!(window.__swiftuiweb&&window.__swiftuiweb.open)") as? Bool ?? false
    }

    public func windowHandle() async throws -> String { try await command("GET", "window") as? String ?? "" }
    /// The handles of every open window, a window the page opened (`window.open`) among them.
    public func windowHandles() async throws -> [String] {
        try await command("GET", "window/handles") as? [String] ?? []
    }
    /// Opens a new top-level window and switches to it; returns its handle.
    public func newWindow() async throws -> String {
        let v = try await command("POST", "window/new", ["type": "window"]) as? [String: Any]
        let handle = v?["handle"] as? String ?? ""
        try await switchTo(handle)
        return handle
    }
    public func switchTo(_ handle: String) async throws { try await command("POST", "window", ["handle": handle]) }

    /// The current page printed to PDF by the browser (WebDriver's Print Page), as the person's File ▸ Print would.
    public func printPDF() async throws -> Data {
        guard let b64 = try await command("POST", "print", ["orientation": "portrait", "background": true]) as? String,
            let data = Data(base64Encoded: b64)
        else { throw BrowserError(description: "no PDF") }
        return data
    }

    /// A PNG of the current window.
    public func screenshot() async throws -> Data {
        guard let b64 = try await command("GET", "screenshot") as? String, let data = Data(base64Encoded: b64) else {
            throw BrowserError(description: "no screenshot")
        }
        return data
    }
}

/// An example app run as its own server process on a free port (so it can be restarted). Like a person, a
/// test signs in with the link the app prints when it starts (``signInURL``), which carries the launch's token;
/// the token is also read from the file the app writes for tools (``tokenFile``).
public final class ExampleServer: @unchecked Sendable {
    public let name: String
    /// The port the app listens on (chosen free at the first start; a restart keeps it).
    public private(set) var port: Int
    public let stateDirectory: String
    private var started = false
    private var child: ChildProcess?
    /// The link the app printed at its last start (with the launch's token).
    public private(set) var signInURL = ""
    /// The token of the app's last start, read from its token file.
    public private(set) var token = ""

    public init(_ name: String) throws {
        self.name = name
        port = freePort()
        stateDirectory = NSTemporaryDirectory() + "swiftuiweb-browser-" + UUID().uuidString
    }

    /// The app's address, without a token.
    public var url: String { "http://127.0.0.1:\(port)/" }
    /// Where a document app keeps its documents (inside the state directory).
    public var documentsDirectory: String { stateDirectory + "/Documents" }
    /// The data folder the app is given (`XDG_DATA_HOME`), so a test never writes to the user's own.
    public var dataDirectory: String { stateDirectory + "/data" }
    /// The runtime folder the app is given (`XDG_RUNTIME_DIR`).
    public var runtimeDirectory: String { stateDirectory + "/run" }
    /// The folder where the app writes its link and token, as `<App>-<port>.json`.
    public var tokenFolder: String { runtimeDirectory + "/swiftuiweb" }
    /// The app's token file (named after its `App` type, found by the port), once written.
    public var tokenFile: String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: tokenFolder)) ?? []  // none yet: nil
        return names.first { $0.hasSuffix("-\(port).json") }.map { tokenFolder + "/" + $0 }
    }
    /// What the app printed (standard output and error).
    public var output: String {
        (try? String(contentsOfFile: stateDirectory + "/output.txt", encoding: .utf8)) ?? ""
    }

    public static func executable(_ name: String) throws -> String {
        // The test bundle sits in the build products directory next to the example executables.
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        let fallback = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent(".build/debug/\(name)").path
        guard FileManager.default.isExecutableFile(atPath: fallback) else {
            throw BrowserError(description: "\(name) executable not built")
        }
        return fallback
    }

    /// Starts the app (with `arguments`) and waits until it has printed its link and written its token file.
    /// At the first start a port another process took between ``freePort()`` and the app's bind is replaced by a
    /// new one (twice at most); a restart keeps its port, as a person's bookmarked link does.
    public func start(arguments: [String] = []) async throws {
        var attempt = 0
        while true {
            do {
                try await launch(arguments: arguments)
                started = true
                return
            } catch let error as AppExited where !started && attempt < 2 && error.output.contains("in use") {
                attempt += 1
                port = freePort()
            }
        }
    }

    /// The app ended before it printed its link.
    struct AppExited: Error, CustomStringConvertible {
        let name: String
        let status: Int32
        let output: String
        var description: String { "\(name) exited (status \(status)) before printing its link; it printed:\n\(output)" }
    }

    private func launch(arguments: [String]) async throws {
        try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
        if let old = tokenFile { try FileManager.default.removeItem(atPath: old) }  // a killed run's
        child = try ChildProcess(
            try ExampleServer.executable(name), arguments,
            environment: [
                "SWIFTUIWEB_PORT": String(port), "SWIFTUIWEB_STATE_DIR": stateDirectory,
                "SWIFTUIWEB_DOCUMENTS": documentsDirectory,
                "XDG_CONFIG_HOME": stateDirectory + "/config", "XDG_DATA_HOME": dataDirectory,
                "XDG_RUNTIME_DIR": runtimeDirectory,
                // Empty: the app finds neither a data folder nor a health daemon of the person running the tests.
                "MEDS_DATA_DIR": "", "ORCHARD_HEALTHD_SOCKET": "",
            ],
            output: stateDirectory + "/output.txt")
        let printed = try await waitForLink()
        guard let tokenFile, let data = FileManager.default.contents(atPath: tokenFile),
            let record = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let token = record["token"] as? String
        else { throw BrowserError(description: "\(name) printed its link but wrote no token file in \(tokenFolder)") }
        signInURL = printed
        self.token = token
    }

    /// Waits for the link the app prints once it listens: 60 s at most while it runs (a cold start on a loaded
    /// two-core machine took longer than 15 s), and not at all once it has exited (then its output is the error).
    private func waitForLink() async throws -> String {
        let found = Box<String?>(nil)
        let prefix = "http://127.0.0.1:\(port)/?token="
        let exited = Box<Int32?>(nil)
        let process = child?.process
        do {
            try await waitUntil("\(name) to print its link", timeout: 60) { [self] in
                let line = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                    .first { $0.hasPrefix(prefix) }
                found.value = line
                if line == nil, let process, !process.isRunning {
                    exited.value = process.terminationStatus
                    return true
                }
                return line != nil && tokenFile != nil
            }
        } catch let error as BrowserError {
            throw BrowserError(description: "\(error.description); it printed:\n\(output)")
        }
        if let status = exited.value { throw AppExited(name: name, status: status, output: output) }
        return found.value!
    }

    public func stop() {
        child?.stop()
        child = nil
    }
    deinit { stop() }
}

/// A value shared with a `@Sendable` closure.
final class Box<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T
    init(_ value: T) { stored = value }
    /// The value (read and written under the lock).
    var value: T {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
