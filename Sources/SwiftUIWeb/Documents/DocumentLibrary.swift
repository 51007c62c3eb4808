import Foundation
import UniformTypeIdentifiers

/// The folder a document app keeps its documents in, and the rules for the names in it: a document is a
/// file (or a package folder) directly in the folder, named by the person, never by a path a page sends.
struct DocumentLibrary: Sendable {
    /// The folder.
    let folder: URL

    /// One document in the folder.
    struct Entry: Sendable, Hashable {
        let name: String
        let modified: Date
        let size: Int
        var displayName: String { DocumentLibrary.displayName(name) }
    }

    /// Why a name or a file was refused.
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    init(folder: URL) throws {
        self.folder = folder.standardizedFileURL
        do {
            try FileManager.default.createDirectory(at: self.folder, withIntermediateDirectories: true)
        } catch {
            throw Failure("could not create the documents folder \(self.folder.path): \(error.localizedDescription)")
        }
    }

    /// The documents, most recently changed first. Hidden files (temporary saves) are left out.
    func entries() throws -> [Entry] {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder.path) } catch {
            throw Failure("could not list the documents folder \(folder.path): \(error.localizedDescription)")
        }
        return names.filter { !$0.hasPrefix(".") }.compactMap { name -> Entry? in
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)
            // A file removed between the listing and this look is simply gone.
            guard let attributes else { return nil }
            return Entry(
                name: name, modified: attributes[.modificationDate] as? Date ?? .distantPast,
                size: (attributes[.size] as? NSNumber)?.intValue ?? 0)
        }
        .sorted { ($0.modified, $1.name) > ($1.modified, $0.name) }
    }

    /// The URL of a document named `name`, after checking the name stays in the folder.
    func url(for name: String) throws -> URL {
        try DocumentLibrary.check(name)
        let url = folder.appendingPathComponent(name)
        // A symbolic link placed in the folder must not lead a page to a file elsewhere.
        let resolved = url.resolvingSymlinksInPath().standardizedFileURL
        guard resolved.deletingLastPathComponent().path == folder.resolvingSymlinksInPath().path else {
            throw Failure("“\(name)” leads outside the documents folder")
        }
        return url
    }

    /// Checks a document name: not empty, no `/`, not hidden, at most 255 bytes.
    static func check(_ name: String) throws {
        if name.isEmpty { throw Failure("a document name cannot be empty") }
        if name.contains("/") || name.contains("\0") { throw Failure("“\(name)” contains a “/”") }
        if name.hasPrefix(".") { throw Failure("“\(name)” starts with a “.”") }
        if name.utf8.count > 255 { throw Failure("a document name is at most 255 bytes") }
    }

    /// A name not yet used: `base.ext`, then `base 2.ext`, `base 3.ext`…
    func unusedName(_ base: String, extension ext: String?) -> String {
        let first = ext.map { "\(base).\($0)" } ?? base
        var name = first
        var n = 2
        while FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) {
            name = FileWrapper.numbered(first, n)
            n += 1
        }
        return name
    }

    /// The name without its extension ("Shopping.txt" → "Shopping").
    static func displayName(_ name: String) -> String {
        let stem = (name as NSString).deletingPathExtension
        return stem.isEmpty ? name : stem
    }

    /// The type of a document file, from its extension.
    static func contentType(of name: String, isDirectory: Bool) -> UTType {
        let ext = (name as NSString).pathExtension
        if !ext.isEmpty, let type = UTType(filenameExtension: ext, conformingTo: isDirectory ? .directory : .data) {
            return type
        }
        return isDirectory ? .folder : .data
    }
}
