import Foundation
import UniformTypeIdentifiers

/// A scene of document windows: the app's start page lists the documents in its folder (new, open,
/// upload, duplicate, rename, delete), and each document opens in a window of its own whose title shows
/// its name and whether it has unsaved changes.
public struct DocumentGroup<Document, Content: View>: Scene, PrimitiveScene {
    let spec: DocumentGroupSpec
    /// Primitive scene.
    public var body: Never { fatalError("primitive scene") }

    func collect(into catalog: inout SceneCatalog) {
        let index = catalog.documentGroups.count
        let spec = self.spec.numbered(index)
        catalog.documentGroups.append(spec)
        if !catalog.entries.contains(where: { $0.kind == .documentBrowser }) {
            catalog.entries.append(
                .init(kind: .documentBrowser, id: SceneCatalog.browserID, title: nil) { scene in
                    DocumentBrowserView(host: scene.host, sceneID: scene.id)
                })
        }
        catalog.entries.append(
            .init(kind: .document, id: spec.groupID, title: nil) { scene in
                scene.host.documentRoot(for: scene)
            })
    }
}

extension DocumentGroup where Document: FileDocument {
    /// A group that creates, opens, edits and saves value documents.
    public init(
        newDocument: @autoclosure @escaping @MainActor () -> Document,
        @ViewBuilder editor: @escaping @MainActor (FileDocumentConfiguration<Document>) -> Content
    ) {
        spec = DocumentGroupSpec.value(Document.self, newDocument: newDocument, isEditable: true, editor: editor)
    }

    /// A group that opens value documents to view them (no new documents, no changes).
    public init(
        viewing documentType: Document.Type,
        @ViewBuilder viewer: @escaping @MainActor (FileDocumentConfiguration<Document>) -> Content
    ) {
        spec = DocumentGroupSpec.value(Document.self, newDocument: nil, isEditable: false, editor: viewer)
    }
}

extension DocumentGroup where Document: ReferenceFileDocument {
    /// A group that creates, opens, edits and saves object documents.
    public init(
        newDocument: @escaping @MainActor () -> Document,
        @ViewBuilder editor: @escaping @MainActor (ReferenceFileDocumentConfiguration<Document>) -> Content
    ) {
        spec = DocumentGroupSpec.object(Document.self, newDocument: newDocument, isEditable: true, editor: editor)
    }

    /// A group that opens object documents to view them.
    public init(
        viewing documentType: Document.Type,
        @ViewBuilder viewer: @escaping @MainActor (ReferenceFileDocumentConfiguration<Document>) -> Content
    ) {
        spec = DocumentGroupSpec.object(Document.self, newDocument: nil, isEditable: false, editor: viewer)
    }
}

/// A document group with its types erased: what the host needs to create and open its documents.
@MainActor
struct DocumentGroupSpec {
    /// The window group id of the group's document windows.
    var groupID = "_doc0"
    let readableTypes: [UTType]
    let writableTypes: [UTType]
    /// Whether the group makes new documents (`false` for a viewer).
    let canCreate: Bool
    let isEditable: Bool
    /// Makes a new document's controller at a URL (the file is written by the caller).
    let create: @MainActor (URL) throws -> DocumentController
    /// Reads a document's controller from a file.
    let open: @MainActor (URL, UTType, FileWrapper) throws -> DocumentController

    func numbered(_ index: Int) -> DocumentGroupSpec {
        var copy = self
        copy.groupID = "_doc\(index)"
        return copy
    }

    /// The type new documents get.
    var newDocumentType: UTType? { writableTypes.first ?? readableTypes.first }

    /// Whether the group reads files of a type.
    func reads(_ type: UTType) -> Bool { readableTypes.contains { type.conforms(to: $0) } }

    static func value<D: FileDocument, V: View>(
        _: D.Type, newDocument: (@MainActor () -> D)?, isEditable: Bool,
        editor: @escaping @MainActor (FileDocumentConfiguration<D>) -> V
    ) -> DocumentGroupSpec {
        let type = D.writableContentTypes.first ?? D.readableContentTypes.first ?? .data
        return DocumentGroupSpec(
            readableTypes: D.readableContentTypes, writableTypes: D.writableContentTypes,
            canCreate: newDocument != nil, isEditable: isEditable,
            create: { url in
                guard let newDocument else { throw DocumentLibrary.Failure("this document group only views documents") }
                return ValueDocumentController(
                    document: newDocument(), fileURL: url, contentType: type, isEditable: true,
                    existingFile: nil, editor: editor)
            },
            open: { url, contentType, file in
                let document = try D(configuration: .init(contentType: contentType, file: file))
                return ValueDocumentController(
                    document: document, fileURL: url, contentType: contentType,
                    isEditable: isEditable && writable(contentType, D.writableContentTypes),
                    existingFile: file, editor: editor)
            })
    }

    static func object<D: ReferenceFileDocument, V: View>(
        _: D.Type, newDocument: (@MainActor () -> D)?, isEditable: Bool,
        editor: @escaping @MainActor (ReferenceFileDocumentConfiguration<D>) -> V
    ) -> DocumentGroupSpec {
        let type = D.writableContentTypes.first ?? D.readableContentTypes.first ?? .data
        return DocumentGroupSpec(
            readableTypes: D.readableContentTypes, writableTypes: D.writableContentTypes,
            canCreate: newDocument != nil, isEditable: isEditable,
            create: { url in
                guard let newDocument else { throw DocumentLibrary.Failure("this document group only views documents") }
                return ObjectDocumentController(
                    document: newDocument(), fileURL: url, contentType: type, isEditable: true,
                    existingFile: nil, editor: editor)
            },
            open: { url, contentType, file in
                let document = try D(configuration: .init(contentType: contentType, file: file))
                return ObjectDocumentController(
                    document: document, fileURL: url, contentType: contentType,
                    isEditable: isEditable && writable(contentType, D.writableContentTypes),
                    existingFile: file, editor: editor)
            })
    }

    /// A file of a type the document cannot write opens read-only (saving would change its format).
    private static func writable(_ type: UTType, _ writableTypes: [UTType]) -> Bool {
        writableTypes.contains { type.conforms(to: $0) }
    }
}
