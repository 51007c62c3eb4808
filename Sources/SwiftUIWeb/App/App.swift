import Foundation

/// A type that represents the structure and behavior of an app. Mark it `@main`.
@MainActor @preconcurrency
public protocol App {
    /// The type of scene representing the content of the app.
    associatedtype Body: Scene
    /// The content of the app.
    @SceneBuilder var body: Body { get }
    /// Creates an instance of the app.
    init()
}

extension App {
    /// Starts the app: serves its windows over HTTP.
    ///
    /// - Address: `--port N` or `PORT` (or `SWIFTUIWEB_PORT`), default 8080; `--hostname H` or
    ///   `SWIFTUIWEB_HOST`, default 127.0.0.1.
    /// - @SceneStorage and window state: `SWIFTUIWEB_STATE_DIR`, default `$XDG_STATE_HOME/<App>`
    ///   (`~/.local/state/<App>`).
    /// - Documents of a document app: `SWIFTUIWEB_DOCUMENTS`, default `$XDG_DATA_HOME/<App>/Documents`
    ///   (`~/.local/share/<App>/Documents`).
    public static func main() async throws {
        let env = ProcessInfo.processInfo.environment
        let arguments = CommandLine.arguments
        func option(_ name: String) -> String? {
            guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
            return arguments[i + 1]
        }
        let host = option("--hostname") ?? env["SWIFTUIWEB_HOST"] ?? "127.0.0.1"
        let portText = option("--port") ?? env["PORT"] ?? env["SWIFTUIWEB_PORT"]
        let port: Int
        if let portText {
            guard let parsed = Int(portText), (0...65535).contains(parsed) else {
                throw AppLaunchError("the port “\(portText)” is not a number from 0 to 65535")
            }
            port = parsed
        } else {
            port = 8080
        }
        let name = String(describing: Self.self)
        let home = FileManager.default.homeDirectoryForCurrentUser.path
        let stateHome = env["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/state"
        let dataHome = env["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
        let dir = env["SWIFTUIWEB_STATE_DIR"] ?? stateHome + "/" + name
        let documents = URL(fileURLWithPath: env["SWIFTUIWEB_DOCUMENTS"] ?? dataHome + "/" + name + "/Documents")
        let appHost = AppHost(app: Self(), storageDirectory: dir, documentsFolder: documents)
        try await AppServer(host: appHost).run(host: host, port: port)
    }
}

/// Why an app could not start (a bad option or environment value), naming it.
struct AppLaunchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
