import Foundation
import Logging

/// The cookie a signed-in browser carries: its name and the secret value, kept in the app's state folder
/// (`session-key.json`, mode 0600) so that windows stay signed in when the app restarts. Deleting the file
/// signs every browser out at the next launch.
struct SessionKey: Codable, Equatable, Sendable {
    /// The cookie's name: `swiftuiweb-<App>-<8 hex digits>`. Cookies are not kept apart by port, so each
    /// app's state folder has a name of its own, and two apps on one host never overwrite each other's.
    let name: String
    /// The cookie's value: 32 random bytes as hex.
    let value: String

    static let fileName = "session-key.json"

    /// A new key for `appName`.
    static func make(appName: String) -> SessionKey {
        let safeName = String(
            appName.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) })
        return SessionKey(name: "swiftuiweb-\(safeName)-\(AccessSecret.make(bytes: 4))", value: AccessSecret.make())
    }

    /// The key kept in `folder`, or a new one written there. A file that others could read, or that does not
    /// hold a key, is replaced (browsers then sign in again with the link), and the log says why.
    static func load(from folder: String, appName: String, logger: Logger) throws -> SessionKey {
        let path = (folder as NSString).appendingPathComponent(fileName)
        do {
            if let data = try PrivateFile.read(path) {
                let key = try JSONDecoder().decode(SessionKey.self, from: data)
                guard key.value.count == 64, key.value.allSatisfy(\.isHexDigit), key.name.hasPrefix("swiftuiweb-")
                else {
                    throw PrivateFile.Failure(description: "\(path) does not hold a session key")
                }
                return key
            }
        } catch {
            logger.warning("replacing the session key (browsers will sign in again with the app's link): \(error)")
        }
        let key = make(appName: appName)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try PrivateFile.write(try JSONEncoder().encode(key), to: path)
        return key
    }
}
