import Foundation

/// A file, a folder of files, or a symbolic link, held in memory: what a document reads from and writes to.
///
/// Apple's Foundation has `FileWrapper`; the Foundation of Swift on Linux does not, so SwiftUIWeb
/// provides it, with Apple's names and behaviour for the parts documents use (regular files,
/// directories of wrappers, symbolic links, reading and writing them).
///
/// Unlike Apple's, it is marked `Sendable` (unchecked): a save hands the wrapper a document made to the
/// queue that writes it, and nothing touches that wrapper meanwhile. The class has no lock; a wrapper
/// changed from two threads at once is the caller's race, as with Apple's.
open class FileWrapper: @unchecked Sendable {
    /// Options for reading a wrapper from disk.
    public struct ReadingOptions: OptionSet, Sendable {
        /// The raw bits.
        public let rawValue: UInt
        /// Creates options from raw bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Reads every file's contents at once (they always are here).
        public static let immediate = ReadingOptions(rawValue: 1 << 0)
        /// Reads without mapping files into memory (they never are here).
        public static let withoutMapping = ReadingOptions(rawValue: 1 << 1)
    }

    /// Options for writing a wrapper to disk.
    public struct WritingOptions: OptionSet, Sendable {
        /// The raw bits.
        public let rawValue: UInt
        /// Creates options from raw bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Writes to a temporary item beside the destination, then moves it into place.
        public static let atomic = WritingOptions(rawValue: 1 << 0)
        /// Sets the wrappers' file names to the names they were written under.
        public static let withNameUpdating = WritingOptions(rawValue: 1 << 1)
    }

    enum Contents {
        case regular(Data)
        case directory([String: FileWrapper])
        case link(URL)
    }

    var contents: Contents
    /// The name the wrapper would like to be written under.
    open var preferredFilename: String?
    /// The name the wrapper was last read from or written to.
    open var filename: String?
    /// The file's attributes (as `FileManager` gives them) from when it was read.
    open var fileAttributes: [String: Any] = [:]

    /// Creates a regular-file wrapper holding `contents`.
    public init(regularFileWithContents contents: Data) { self.contents = .regular(contents) }

    /// Creates a directory wrapper holding `childrenByPreferredName`, each child named by its key.
    public init(directoryWithFileWrappers childrenByPreferredName: [String: FileWrapper]) {
        for (name, child) in childrenByPreferredName where child.preferredFilename == nil {
            child.preferredFilename = name
        }
        self.contents = .directory(childrenByPreferredName)
    }

    /// Creates a symbolic-link wrapper pointing at `url`.
    public init(symbolicLinkWithDestinationURL url: URL) { self.contents = .link(url) }

    /// Reads the file, folder (recursively) or link at `url`. Errors name the item that could not be read.
    public init(url: URL, options: ReadingOptions = []) throws {
        self.contents = try FileWrapper.read(url)
        self.filename = url.lastPathComponent
        self.preferredFilename = url.lastPathComponent
        self.fileAttributes =
            (try? FileManager.default.attributesOfItem(atPath: url.path))  // Absent attributes mean none are known.
            .map { Dictionary(uniqueKeysWithValues: $0.map { ($0.key.rawValue, $0.value) }) } ?? [:]
    }

    private static func read(_ url: URL) throws -> Contents {
        let path = url.path
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        switch attributes[.type] as? FileAttributeType {
        case .typeSymbolicLink?:
            let destination = try FileManager.default.destinationOfSymbolicLink(atPath: path)
            return .link(URL(fileURLWithPath: destination))
        case .typeDirectory?:
            var children: [String: FileWrapper] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: path) {
                children[name] = try FileWrapper(url: url.appendingPathComponent(name))
            }
            return .directory(children)
        default:
            return .regular(try Data(contentsOf: url))
        }
    }

    /// Whether the wrapper is a regular file.
    open var isRegularFile: Bool { if case .regular = contents { return true } else { return false } }
    /// Whether the wrapper is a directory.
    open var isDirectory: Bool { if case .directory = contents { return true } else { return false } }
    /// Whether the wrapper is a symbolic link.
    open var isSymbolicLink: Bool { if case .link = contents { return true } else { return false } }

    /// The contents of a regular file (`nil` for directories and links).
    open var regularFileContents: Data? { if case .regular(let data) = contents { return data } else { return nil } }
    /// The children of a directory, by file name (`nil` for files and links).
    open var fileWrappers: [String: FileWrapper]? {
        if case .directory(let c) = contents { return c } else { return nil }
    }
    /// The destination of a symbolic link (`nil` for files and directories).
    open var symbolicLinkDestinationURL: URL? { if case .link(let u) = contents { return u } else { return nil } }

    /// Adds a child to a directory wrapper under its preferred name (made unique), and returns the name used.
    @discardableResult
    open func addFileWrapper(_ child: FileWrapper) -> String {
        guard case .directory(var children) = contents else {
            preconditionFailure("addFileWrapper(_:) on a wrapper that is not a directory")
        }
        let base = child.preferredFilename ?? "Untitled"
        var name = base
        var n = 2
        while children[name] != nil {
            name = FileWrapper.numbered(base, n)
            n += 1
        }
        children[name] = child
        child.filename = name
        contents = .directory(children)
        return name
    }

    /// Adds a regular file to a directory wrapper, and returns the name used.
    @discardableResult
    open func addRegularFile(withContents data: Data, preferredFilename fileName: String) -> String {
        let child = FileWrapper(regularFileWithContents: data)
        child.preferredFilename = fileName
        return addFileWrapper(child)
    }

    /// Removes a child from a directory wrapper.
    open func removeFileWrapper(_ child: FileWrapper) {
        guard case .directory(var children) = contents else { return }
        children = children.filter { $0.value !== child }
        contents = .directory(children)
    }

    /// The key a child is stored under in this directory wrapper.
    open func keyForChildFileWrapper(_ child: FileWrapper) -> String? {
        fileWrappers?.first { $0.value === child }?.key
    }

    /// Whether the wrapper's contents match the item at `url` (compares contents, recursively).
    open func matchesContents(of url: URL) -> Bool {
        guard let other = try? FileWrapper(url: url) else { return false }  // An unreadable item matches nothing.
        return FileWrapper.same(self, other)
    }

    private static func same(_ a: FileWrapper, _ b: FileWrapper) -> Bool {
        switch (a.contents, b.contents) {
        case (.regular(let x), .regular(let y)): return x == y
        case (.link(let x), .link(let y)): return x.path == y.path
        case (.directory(let x), .directory(let y)):
            return x.count == y.count && x.allSatisfy { k, v in y[k].map { same(v, $0) } ?? false }
        default: return false
        }
    }

    /// Reads the item at `url` again into this wrapper.
    open func read(from url: URL, options: ReadingOptions = []) throws {
        contents = try FileWrapper.read(url)
        filename = url.lastPathComponent
    }

    /// Writes the wrapper to `url`. With `.atomic` the item appears whole or not at all: it is written
    /// beside `url`, flushed to disk, and renamed into place.
    open func write(to url: URL, options: WritingOptions = [], originalContentsURL: URL?) throws {
        if options.contains(.atomic) {
            try AtomicFileWriter.replace(url) { temporary in try self.writeItem(to: temporary) }
        } else {
            try writeItem(to: url)
        }
        if options.contains(.withNameUpdating) { filename = url.lastPathComponent }
    }

    func writeItem(to url: URL) throws {
        switch contents {
        case .regular(let data):
            try AtomicFileWriter.writeDurably(data, to: url)
        case .link(let destination):
            try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: destination.path)
        case .directory(let children):
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
            for (name, child) in children {
                guard AtomicFileWriter.isPlainName(name) else {
                    throw CocoaError(.fileWriteInvalidFileName, userInfo: [NSFilePathErrorKey: name])
                }
                try child.writeItem(to: url.appendingPathComponent(name))
            }
        }
    }

    static func numbered(_ name: String, _ n: Int) -> String {
        let ext = (name as NSString).pathExtension
        let stem = (name as NSString).deletingPathExtension
        return ext.isEmpty ? "\(stem) \(n)" : "\(stem) \(n).\(ext)"
    }
}
