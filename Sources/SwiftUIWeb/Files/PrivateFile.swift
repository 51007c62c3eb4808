import Foundation
import Glibc

/// Files only the user who runs the app can read: the launch token's file, the session key, the TLS key.
///
/// A private file is created with mode 0600 from its first byte (never written first and restricted after),
/// and a private folder is 0700. An existing folder or file that another user owns, or that others could
/// write (or, for a file, read), is refused rather than trusted: another local user could have made it.
enum PrivateFile {
    /// What was wrong with a private file or folder, naming it.
    struct Failure: Error, CustomStringConvertible {
        /// The message, naming the path and what is wrong with it.
        let description: String
    }

    /// Makes `path` (and its missing parents) a folder, the last one only the user can enter (0700); an
    /// existing folder must be the user's and not writable by others.
    static func ensureFolder(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            let parent = (path as NSString).deletingLastPathComponent
            if !parent.isEmpty && parent != path {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            }
            // EEXIST: another process made it meanwhile; the checks below decide whether it can be used.
            if mkdir(path, 0o700) != 0 && errno != EEXIST {
                throw Failure(description: "could not create the folder \(path): \(String(cString: strerror(errno)))")
            }
        } else if !isDirectory.boolValue {
            throw Failure(description: "\(path) should be a folder but is a file")
        }
        let status = try fileStatus(path)
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw Failure(description: "\(path) should be a folder, not a link or another kind of file")
        }
        guard status.st_uid == geteuid() else {
            throw Failure(
                description: "the folder \(path) belongs to another user (uid \(status.st_uid)); refusing to use it")
        }
        guard status.st_mode & 0o022 == 0 else {
            throw Failure(
                description:
                    "the folder \(path) can be written by other users (mode \(String(status.st_mode & 0o777, radix: 8))); "
                    + "refusing to use it")
        }
    }

    /// Writes `data` to `path` atomically as a file only the user can read or write (0600).
    static func write(_ data: Data, to path: String) throws {
        try AtomicFileWriter.replace(URL(fileURLWithPath: path)) { temporary in
            try AtomicFileWriter.writeDurably(data, to: temporary, permissions: 0o600)
        }
    }

    /// The contents of the file at `path` if it exists, is the user's and only the user can read or write it.
    /// `nil` when there is no file; an error naming the problem when it is not private.
    static func read(_ path: String) throws -> Data? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let status = try fileStatus(path)
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw Failure(description: "\(path) should be a plain file, not a link or another kind of file")
        }
        guard status.st_uid == geteuid() else {
            throw Failure(description: "\(path) belongs to another user (uid \(status.st_uid))")
        }
        guard status.st_mode & 0o077 == 0 else {
            throw Failure(
                description:
                    "\(path) can be read or written by other users (mode \(String(status.st_mode & 0o777, radix: 8)))")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "could not read \(path)")
        }
        return data
    }

    private static func fileStatus(_ path: String) throws -> stat {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            throw Failure(description: "could not look at \(path): \(String(cString: strerror(errno)))")
        }
        return status
    }
}
