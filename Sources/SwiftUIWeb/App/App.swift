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
    /// Starts the app: serves its windows over HTTP on `SWIFTUIWEB_HOST`:`SWIFTUIWEB_PORT` (default 127.0.0.1:8080).
    public static func main() async throws {
        let env = ProcessInfo.processInfo.environment
        let host = env["SWIFTUIWEB_HOST"] ?? "127.0.0.1"
        let port = Int(env["SWIFTUIWEB_PORT"] ?? "") ?? 8080
        let dir = env["SWIFTUIWEB_STATE_DIR"] ?? FileManager.default.currentDirectoryPath + "/.swiftuiweb-\(String(describing: Self.self))"
        let host_ = AppHost(app: Self(), storageDirectory: dir)
        try await AppServer(host: host_).run(host: host, port: port)
    }
}
