import Foundation
import NIOCore

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
    /// Starts the app: serves its windows over HTTP, to the person who started it.
    ///
    /// - Address: `--port N` or `PORT` (or `SWIFTUIWEB_PORT`), default 8080; `--hostname H` (or `--host H`) or
    ///   `SWIFTUIWEB_HOST`, default 127.0.0.1. Beyond loopback only with TLS (`--tls-cert FILE --tls-key FILE`
    ///   or `--tls-self-signed`). `--help` lists every option.
    /// - Access: the app prints a link with this launch's token; opening it signs the browser in. The link is
    ///   also in `$XDG_RUNTIME_DIR/swiftuiweb/<App>-<port>.json` (`$XDG_STATE_HOME/swiftuiweb/run` without a
    ///   runtime folder), readable only by the user. `--no-auth` (loopback only) asks no one.
    /// - @SceneStorage and window state: `SWIFTUIWEB_STATE_DIR`, default `$XDG_STATE_HOME/<App>`
    ///   (`~/.local/state/<App>`).
    /// - Documents of a document app: `SWIFTUIWEB_DOCUMENTS`, default `$XDG_DATA_HOME/<App>/Documents`
    ///   (`~/.local/share/<App>/Documents`).
    ///
    /// A launch that fails (a port another program holds, a bad option, an unreadable certificate) prints what
    /// went wrong on standard error and exits with status 1.
    public static func main() async throws {
        do {
            try await launch()
        } catch {
            FileHandle.standardError.write(
                Data("\(String(describing: Self.self)): \(AppLaunchError.explain(error))\n".utf8))
            exit(1)
        }
    }

    private static func launch() async throws {
        let env = ProcessInfo.processInfo.environment
        let options = try LaunchOptions.parse(arguments: Array(CommandLine.arguments.dropFirst()), environment: env)
        if options.help {
            print(LaunchOptions.usage)
            return
        }
        if options.hashPassword {
            // The password is a line on standard input (typed, or piped), never an argument others could see.
            FileHandle.standardError.write(Data("Password (then Return): ".utf8))
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw AppLaunchError("no password on standard input")
            }
            print(try PasswordHash(hashing: line))
            return
        }
        let name = String(describing: Self.self)
        let home = FileManager.default.homeDirectoryForCurrentUser.path
        let stateHome = env["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/state"
        let dataHome = env["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
        let runtime =
            env["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 + "/swiftuiweb" : nil }
            ?? stateHome + "/swiftuiweb/run"
        let dir = env["SWIFTUIWEB_STATE_DIR"] ?? stateHome + "/" + name
        let documents = URL(fileURLWithPath: env["SWIFTUIWEB_DOCUMENTS"] ?? dataHome + "/" + name + "/Documents")
        let appHost = AppHost(app: Self(), storageDirectory: dir, documentsFolder: documents)
        let policy = try options.policy(tokenDirectory: runtime)
        let address = options.address
        let server = AppServer(host: appHost, access: policy)
        let shownName = appHost.appName
        let previews = await MainActor.run { PreviewCatalog.items.count }
        do {
            try await server.run(host: address, port: options.port) { launch in
                LaunchAnnouncement.print(
                    launch, appName: shownName, policy: policy, address: address, previews: previews)
            }
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw AppLaunchError(
                "cannot listen on \(address):\(options.port): the address is already in use by another program"
                    + " (choose another port with --port or PORT)")
        }
    }
}

/// What an app prints when it starts: the link to open, where its token is, and loud warnings.
enum LaunchAnnouncement {
    /// Prints `launch` on standard output (and a warning on standard error when no one is asked to sign in).
    static func print(
        _ launch: AppServer.Launch, appName: String, policy: AccessPolicy, address: String, previews: Int = 0
    ) {
        var lines = [
            "\(appName) is running. Open this link in your browser to use it:", "", "    \(launch.url)", "",
        ]
        if policy.authentication == .token {
            lines.append("The link carries this launch's token and signs your browser in; keep it to yourself.")
            if let file = launch.tokenFile { lines.append("It is also in \(file) (only you can read that file).") }
        }
        if let fingerprint = launch.fingerprint {
            lines.append("The server's TLS certificate has the SHA-256 fingerprint")
            lines.append("    \(fingerprint)")
        }
        if previews > 0, var gallery = URLComponents(string: launch.url) {
            gallery.query = "g=" + SceneCatalog.previewsID
            gallery.path = "/"
            let count = previews == 1 ? "Its preview is" : "Its \(previews) previews are"
            lines.append("\(count) at \(gallery.string ?? launch.url) (once the link has signed you in).")
        }
        write(lines.joined(separator: "\n") + "\n", to: .standardOutput)
        if policy.authentication == .none {
            let bar = String(repeating: "!", count: 78)
            let warning = [
                bar,
                "!! --no-auth: NOBODY IS ASKED WHO THEY ARE.",
                "!! Every user and every process on this machine that can reach \(address):\(launch.port) can read",
                "!! and drive \(appName)'s windows. Use this for demos only.",
                bar,
            ]
            write(warning.joined(separator: "\n") + "\n", to: .standardError)
        }
    }

    /// Writes straight to the file descriptor (no buffer): standard output may be a pipe that a test or a
    /// supervisor reads the link from.
    private static func write(_ text: String, to handle: FileHandle) {
        handle.write(Data(text.utf8))
    }
}

/// Why an app could not start (a bad option or environment value), naming it.
struct AppLaunchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }

    /// What a person reads when a launch fails.
    static func explain(_ error: any Error) -> String {
        if let error = error as? IOError { return "\(error.description) (errno \(error.errnoCode))" }
        return String(describing: error)
    }
}
