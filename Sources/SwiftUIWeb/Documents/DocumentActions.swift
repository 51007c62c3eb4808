import Foundation
import UniformTypeIdentifiers

/// Creates a new document and opens it in a new window (`@Environment(\.newDocument)`).
@MainActor
public struct NewDocumentAction {
    let create: @MainActor (Int?) -> Void
    let groups: @MainActor () -> [DocumentGroupSpec]

    /// Opens a new window on a new value document (saved at once as "Untitled" in the documents folder).
    public func callAsFunction<D: FileDocument>(_ newDocument: @autoclosure @escaping () -> D) {
        create(groups().firstIndex { $0.readableTypes == D.readableContentTypes })
    }

    /// Opens a new window on a new object document.
    public func callAsFunction<D: ReferenceFileDocument>(_ newDocument: @escaping () -> D) {
        create(groups().firstIndex { $0.readableTypes == D.readableContentTypes })
    }
}

/// Opens a document of the documents folder in a new window (`@Environment(\.openDocument)`).
@MainActor
public struct OpenDocumentAction {
    let open: @MainActor (URL) throws -> Void

    /// Opens the document at `url`. Documents live in the app's documents folder; a URL elsewhere, or a
    /// file no document group reads, is an error that names it.
    public func callAsFunction(at url: URL) async throws { try open(url) }
}

private struct UndoManagerKey: EnvironmentKey { static var defaultValue: UndoManager? { nil } }
private struct NewDocumentKey: EnvironmentKey {
    static var defaultValue: NewDocumentAction { NewDocumentAction(create: { _ in }, groups: { [] }) }
}
private struct OpenDocumentKey: EnvironmentKey {
    static var defaultValue: OpenDocumentAction {
        OpenDocumentAction { url in
            throw DocumentLibrary.Failure("\(url.path) cannot be opened: this app has no document group")
        }
    }
}

extension EnvironmentValues {
    /// The undo manager of the window's document (`nil` outside document windows).
    public var undoManager: UndoManager? {
        get { self[UndoManagerKey.self] }
        set { self[UndoManagerKey.self] = newValue }
    }
    /// Creates documents.
    public var newDocument: NewDocumentAction {
        get { self[NewDocumentKey.self] }
        set { self[NewDocumentKey.self] = newValue }
    }
    /// Opens documents.
    public var openDocument: OpenDocumentAction {
        get { self[OpenDocumentKey.self] }
        set { self[OpenDocumentKey.self] = newValue }
    }
}

extension SceneInstance {
    /// The document actions of this window's environment.
    func installDocumentActions(in environment: inout EnvironmentValues) {
        let host = self.host
        environment.newDocument = NewDocumentAction(
            create: { [weak self] index in
                guard let self else { return }
                do {
                    let scene = try host.createDocument(groupIndex: index ?? 0)
                    self.openURL("/?w=" + scene.id)
                } catch {
                    self.report(DocumentController.describe(error))
                }
            },
            groups: { SceneCatalog(app: host.app).documentGroups })
        environment.openDocument = OpenDocumentAction { [weak self] url in
            let library = try host.documentLibrary()
            guard url.deletingLastPathComponent().standardizedFileURL.path == library.folder.path else {
                throw DocumentLibrary.Failure("\(url.path) is not in the documents folder (\(library.folder.path))")
            }
            let scene = try host.newDocumentScene(named: url.lastPathComponent)
            self?.openURL("/?w=" + scene.id)
        }
    }
}
