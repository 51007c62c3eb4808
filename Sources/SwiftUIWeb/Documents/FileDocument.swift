import Foundation
import UniformTypeIdentifiers

/// A document stored as a value: read from a file into a value, written back from it. `DocumentGroup`
/// hands its editor a binding to the value, and registers an undo step for every change made through it.
public protocol FileDocument {
    /// The types the document can read (the first is the type new documents get).
    static var readableContentTypes: [UTType] { get }
    /// The types the document can write (by default the readable ones).
    static var writableContentTypes: [UTType] { get }
    /// Reads a document from a file.
    init(configuration: ReadConfiguration) throws
    /// Writes the document to a file wrapper.
    func fileWrapper(configuration: WriteConfiguration) throws -> FileWrapper
    /// What a document reads from.
    typealias ReadConfiguration = FileDocumentReadConfiguration
    /// What a document writes to.
    typealias WriteConfiguration = FileDocumentWriteConfiguration
}

extension FileDocument {
    /// The readable types.
    public static var writableContentTypes: [UTType] { readableContentTypes }
}

/// A document stored as an observable object: views change the object, and saving takes a snapshot of it
/// that is written to a file. Changes are announced to the document through its undo manager.
public protocol ReferenceFileDocument: ObservableObject {
    /// A value capturing the document's contents at one moment.
    associatedtype Snapshot
    /// The types the document can read (the first is the type new documents get).
    static var readableContentTypes: [UTType] { get }
    /// The types the document can write (by default the readable ones).
    static var writableContentTypes: [UTType] { get }
    /// Reads a document from a file.
    init(configuration: ReadConfiguration) throws
    /// Captures the contents to save.
    func snapshot(contentType: UTType) throws -> Snapshot
    /// Writes a snapshot to a file wrapper.
    func fileWrapper(snapshot: Snapshot, configuration: WriteConfiguration) throws -> FileWrapper
    /// What a document reads from.
    typealias ReadConfiguration = FileDocumentReadConfiguration
    /// What a document writes to.
    typealias WriteConfiguration = FileDocumentWriteConfiguration
}

extension ReferenceFileDocument {
    /// The readable types.
    public static var writableContentTypes: [UTType] { readableContentTypes }
}

/// What a document reads from: the file and its type.
public struct FileDocumentReadConfiguration {
    /// The type of the file.
    public let contentType: UTType
    /// The file.
    public let file: FileWrapper
}

/// What a document writes to: the type to write and the file as it is on disk now (if any).
public struct FileDocumentWriteConfiguration {
    /// The type to write.
    public let contentType: UTType
    /// The file as last read or saved (`nil` for a document never saved).
    public let existingFile: FileWrapper?
}

/// What a `DocumentGroup` editor is given for a value document: a binding to it, its file and whether it
/// can be edited.
@MainActor
public struct FileDocumentConfiguration<Document: FileDocument> {
    /// The document; setting it changes the document (and registers an undo step).
    @Binding public var document: Document
    /// Where the document is stored.
    public var fileURL: URL?
    /// Whether the document can be changed (`false` in a viewer group, or for a read-only file).
    public var isEditable: Bool
}

/// What a `DocumentGroup` editor is given for an object document: the object, its file and whether it can
/// be edited.
@MainActor
public struct ReferenceFileDocumentConfiguration<Document: ReferenceFileDocument> {
    /// The document object.
    @ObservedObject public var document: Document
    /// Where the document is stored.
    public var fileURL: URL?
    /// Whether the document can be changed.
    public var isEditable: Bool
}
