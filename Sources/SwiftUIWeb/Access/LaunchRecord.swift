import Foundation

/// What a started server writes for tools and tests to find it: `<folder>/<App>-<port>.json`, readable only
/// by the user, removed when the server stops. Anyone who can read it can sign in, which is why it is 0600 in a
/// 0700 folder: the same boundary as the user's own files.
struct LaunchRecord: Codable, Equatable, Sendable {
    /// The app's name.
    let app: String
    /// The link that signs a browser in (with the token).
    let url: String
    /// The launch's token.
    let token: String
    /// The port the server listens on.
    let port: Int
    /// The server's process.
    let pid: Int32
    /// The SHA-256 fingerprint of the server's TLS certificate, when it speaks TLS.
    let fingerprint: String?

    /// Where the record of `app` listening on `port` goes in `folder`.
    static func path(in folder: String, app: String, port: Int) -> String {
        (folder as NSString).appendingPathComponent("\(app)-\(port).json")
    }

    /// Writes the record into `folder` (made private if new; refused if others could write it) and returns
    /// its path.
    func write(in folder: String) throws -> String {
        try PrivateFile.ensureFolder(folder)
        let path = LaunchRecord.path(in: folder, app: app, port: port)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try PrivateFile.write(try encoder.encode(self), to: path)
        return path
    }
}
