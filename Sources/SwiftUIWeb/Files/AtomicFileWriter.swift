import Foundation
import Glibc

/// Writes files so that a crash leaves either the old item or the new one, whole: the new item is written
/// beside the old under a temporary name, flushed to disk (`fsync`), renamed over the old, and the folder
/// is flushed so the rename itself survives a power cut.
enum AtomicFileWriter {
    /// Replaces (or creates) the item at `url` with what `write` puts at the temporary URL it is given.
    static func replace(_ url: URL, write: (URL) throws -> Void) throws {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try write(temporary)
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
            if exists && isDirectory.boolValue {
                // rename(2) cannot replace a non-empty folder: move the old aside, move the new in, then
                // remove the old. A crash between the two moves leaves the old folder under the aside name.
                let aside = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).old")
                try FileManager.default.moveItem(at: url, to: aside)
                try rename(temporary, to: url)
                try FileManager.default.removeItem(at: aside)
            } else {
                try rename(temporary, to: url)
            }
            try syncFolder(folder)
        } catch {
            // The temporary item may be missing (the write failed before creating it): absence is fine.
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    /// Writes `data` to a new file at `url`, created with `permissions` (less the umask), and flushes it to
    /// disk before returning.
    static func writeDurably(_ data: Data, to url: URL, permissions: mode_t = 0o644) throws {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard fd >= 0 else { throw posixError("create", url) }
        defer { close(fd) }
        var offset = 0
        while offset < data.count {
            let written = data[data.startIndex + offset..<data.endIndex].withUnsafeBytes { buffer in
                // Safe because the buffer is valid for the duration of this closure and write(2) reads at most its count.
                Glibc.write(fd, buffer.baseAddress, buffer.count)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw posixError("write", url)
            }
            offset += written
        }
        guard fsync(fd) == 0 else { throw posixError("flush", url) }
    }

    private static func rename(_ from: URL, to: URL) throws {
        guard Glibc.rename(from.path, to.path) == 0 else { throw posixError("rename into place", to) }
    }

    private static func syncFolder(_ folder: URL) throws {
        let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw posixError("open folder", folder) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw posixError("flush folder", folder) }
    }

    private static func posixError(_ what: String, _ url: URL) -> Error {
        let code = errno
        return CocoaError(
            .fileWriteUnknown,
            userInfo: [
                NSFilePathErrorKey: url.path,
                NSLocalizedDescriptionKey: "could not \(what) \(url.path): \(String(cString: strerror(code)))",
                NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(code)),
            ])
    }

    /// A name that stays inside its folder: not empty, not `.` or `..`, without `/` or NUL.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
    }
}
