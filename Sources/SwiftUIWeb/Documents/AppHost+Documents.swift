import Foundation
import UniformTypeIdentifiers

extension AppHost {
    /// The reserved @SceneStorage key recording a document window's file name.
    static let documentKey = "_swiftuiweb.document"

    /// The documents folder, created on first use. Its failure is the page's error, not a crash.
    func documentLibrary() throws -> DocumentLibrary {
        if let library = library { return library }
        let made = try DocumentLibrary(folder: documentsFolder)
        library = made
        return made
    }

    /// The document window's file name.
    func documentName(of scene: SceneInstance) -> String? {
        scene.sceneStorage[AppHost.documentKey].map { String(decoding: $0, as: UTF8.self) }
    }

    /// The open document of a document window, read from its file on first use.
    func documentController(for scene: SceneInstance) throws -> DocumentController {
        guard let name = documentName(of: scene) else { throw DocumentLibrary.Failure("this window has no document") }
        let controller = try openDocument(named: name)
        controller.sceneIDs.insert(scene.id)
        return controller
    }

    /// The file, type and document group of the document named `name`; errors name what is wrong.
    private func locateDocument(named name: String) throws -> (url: URL, type: UTType, spec: DocumentGroupSpec) {
        let library = try documentLibrary()
        let url = try library.url(for: name)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw DocumentLibrary.Failure("“\(name)” is not in the documents folder (\(library.folder.path))")
        }
        let type = DocumentLibrary.contentType(of: name, isDirectory: isDirectory.boolValue)
        let groups = SceneCatalog(app: app).documentGroups
        guard let spec = groups.first(where: { $0.reads(type) }) else {
            let readable = Set(groups.flatMap { $0.readableTypes.map(\.identifier) }).sorted().joined(separator: ", ")
            throw DocumentLibrary.Failure(
                "“\(name)” is of type \(type.identifier), which this app doesn't open (it opens \(readable))")
        }
        return (url, type, spec)
    }

    /// The controller of the document named `name`, shared by every window on it.
    func openDocument(named name: String) throws -> DocumentController {
        if let open = openDocuments[name] { return open }
        let (url, type, spec) = try locateDocument(named: name)
        let file: FileWrapper
        do { file = try FileWrapper(url: url) } catch {
            throw DocumentLibrary.Failure("“\(name)” could not be read: \(DocumentController.describe(error))")
        }
        let controller: DocumentController
        do { controller = try spec.open(url, type, file) } catch {
            throw DocumentLibrary.Failure(
                "“\(name)” could not be opened as \(type.identifier): \(DocumentController.describe(error))")
        }
        controller.host = self
        openDocuments[name] = controller
        return controller
    }

    /// Opens a window on the document named `name` (its scene; the page goes to `/?w=<id>`). A file that
    /// fails to read still gets its window, which shows why (the file is left as it is).
    public func newDocumentScene(named name: String) throws -> SceneInstance {
        let (_, _, spec) = try locateDocument(named: name)
        let scene = newScene(group: spec.groupID)
        scene.sceneStorage[AppHost.documentKey] = Data(name.utf8)
        openDocuments[name]?.sceneIDs.insert(scene.id)
        return scene
    }

    /// Creates a new, empty document with the group's first writable type, saves it as "Untitled.<ext>"
    /// (or "Untitled 2.<ext>"…), and opens a window on it.
    func createDocument(groupIndex: Int = 0) throws -> SceneInstance {
        let groups = SceneCatalog(app: app).documentGroups
        guard groupIndex < groups.count, groups[groupIndex].canCreate, let type = groups[groupIndex].newDocumentType
        else {
            throw DocumentLibrary.Failure("this app has no document group that creates documents")
        }
        let library = try documentLibrary()
        let name = library.unusedName("Untitled", extension: type.preferredFilenameExtension)
        let url = try library.url(for: name)
        let controller = try groups[groupIndex].create(url)
        let wrapper = try controller.makeFileWrapper()
        try wrapper.write(to: url, options: .atomic, originalContentsURL: nil)
        controller.existingFile = wrapper
        controller.host = self
        openDocuments[name] = controller
        return try newDocumentScene(named: name)
    }

    /// Renames a document in the folder (keeping its extension when the new name has none).
    func renameDocument(_ name: String, to requested: String) throws {
        let library = try documentLibrary()
        let trimmed = requested.trimmingCharacters(in: .whitespacesAndNewlines)
        let ext = (name as NSString).pathExtension
        let newName = (trimmed as NSString).pathExtension.isEmpty && !ext.isEmpty ? "\(trimmed).\(ext)" : trimmed
        try DocumentLibrary.check(newName)
        guard newName != name else { return }
        let from = try library.url(for: name)
        let to = try library.url(for: newName)
        guard !FileManager.default.fileExists(atPath: to.path) else {
            throw DocumentLibrary.Failure("a document named “\(newName)” already exists")
        }
        do { try FileManager.default.moveItem(at: from, to: to) } catch {
            throw DocumentLibrary.Failure("“\(name)” could not be renamed: \(DocumentController.describe(error))")
        }
        if let controller = openDocuments.removeValue(forKey: name) {
            openDocuments[newName] = controller
            for id in controller.sceneIDs { scenes[id]?.sceneStorage[AppHost.documentKey] = Data(newName.utf8) }
            controller.moved(to: to)
        }
    }

    /// Duplicates a document (its current contents when open, with unsaved changes) as "<name> copy",
    /// and returns the copy's name.
    @discardableResult
    func duplicateDocument(_ name: String) throws -> String {
        let library = try documentLibrary()
        let ext = (name as NSString).pathExtension
        let copyName = library.unusedName(
            DocumentLibrary.displayName(name) + " copy", extension: ext.isEmpty ? nil : ext)
        let to = try library.url(for: copyName)
        let wrapper = try openDocuments[name]?.makeFileWrapper() ?? FileWrapper(url: library.url(for: name))
        try wrapper.write(to: to, options: .atomic, originalContentsURL: nil)
        return copyName
    }

    /// Deletes a document that no window shows.
    func deleteDocument(_ name: String) throws {
        let library = try documentLibrary()
        if let open = openDocuments[name], open.sceneIDs.contains(where: { scenes[$0]?.sink != nil }) {
            throw DocumentLibrary.Failure("“\(DocumentLibrary.displayName(name))” is open in a window; close it first")
        }
        let url = try library.url(for: name)
        do { try FileManager.default.removeItem(at: url) } catch {
            throw DocumentLibrary.Failure("“\(name)” could not be deleted: \(DocumentController.describe(error))")
        }
        openDocuments[name]?.cancelAutosave()
        openDocuments[name] = nil
    }

    /// Stores a file sent from the person's machine under an unused name, after checking a document group
    /// reads its type, and returns the stored name. The file is written whole or not at all.
    func importDocument(named requested: String, contents: Data) throws -> String {
        let library = try documentLibrary()
        let base = (requested as NSString).lastPathComponent
        try DocumentLibrary.check(base)
        let type = DocumentLibrary.contentType(of: base, isDirectory: false)
        let groups = SceneCatalog(app: app).documentGroups
        guard groups.contains(where: { $0.reads(type) }) else {
            throw DocumentLibrary.Failure("“\(base)” is of type \(type.identifier), which this app doesn't open")
        }
        let ext = (base as NSString).pathExtension
        let name = library.unusedName(DocumentLibrary.displayName(base), extension: ext.isEmpty ? nil : ext)
        try FileWrapper(regularFileWithContents: contents).write(
            to: library.url(for: name), options: .atomic, originalContentsURL: nil)
        return name
    }

    /// A window left its document: the document saves its changes and closes when no window shows it.
    func detachDocument(_ scene: SceneInstance) {
        guard let name = documentName(of: scene), let controller = openDocuments[name] else { return }
        controller.sceneIDs.remove(scene.id)
        guard controller.sceneIDs.isEmpty else { return }
        controller.cancelAutosave()
        openDocuments[name] = nil
        if controller.isEdited {
            let logger = self.logger
            Task { @MainActor in
                // No window is left to show a failure: it goes to the log.
                if await !controller.save() {
                    logger.error("\(controller.lastError ?? "“\(name)” could not be saved")")
                }
            }
        }
    }

    /// How many saves of an open document have finished (0 when it isn't open).
    public func savesCompleted(ofDocument name: String) -> Int { openDocuments[name]?.savesCompleted ?? 0 }

    /// Reads an open document's file again, dropping its unsaved changes (File ▸ Revert to Saved).
    public func revertDocument(named name: String) { openDocuments[name]?.revert() }

    /// Saves every edited document (when the server stops).
    public func saveDocuments() async {
        for (name, controller) in openDocuments where controller.isEdited {
            if await !controller.save() { logger.error("\(controller.lastError ?? "“\(name)” could not be saved")") }
        }
    }

    /// The root view of a document window: the editor, or the reason the file couldn't be opened.
    func documentRoot(for scene: SceneInstance) -> any View {
        do {
            let controller = try documentController(for: scene)
            return DocumentWindowContent(controller: controller, content: controller.makeView())
        } catch {
            return DocumentErrorView(message: DocumentController.describe(error))
        }
    }
}

/// A document window's content: the editor with the document's undo manager in its environment, under
/// the last save's error, if any.
struct DocumentWindowContent: View {
    let controller: DocumentController
    let content: any View
    var body: some View {
        VStack(spacing: 0) {
            if let error = controller.lastError {
                Text(error).font(.callout).foregroundStyle(.red).padding(8)
            }
            AnyView(content)
        }
        .environment(\.undoManager, controller.undoManager)
    }
}

/// Shown in place of a document that couldn't be opened; the file is left as it is.
struct DocumentErrorView: View {
    let message: String
    var body: some View {
        VStack(spacing: 12) {
            Label("The document could not be opened", systemImage: "exclamationmark.triangle")
                .font(.headline)
            Text(message).foregroundStyle(.secondary)
            Text("The file was left unchanged.").font(.footnote).foregroundStyle(.secondary)
        }
        .padding()
    }
}

extension AppHost {
    /// Ends the undo group of the event just handled, for every open document (one event, one undo step).
    func endUndoEventGroups() {
        for controller in openDocuments.values { controller.undoManager.endEventGroup() }
    }
}

/// The Rename sheet of a document window (File ▸ Rename…).
struct RenameDocumentView: View {
    let scene: SceneInstance
    @State private var name: String?
    @State private var error: String?

    var body: some View {
        let current = scene.host.documentName(of: scene) ?? ""
        let binding = Binding<String>(get: { name ?? DocumentLibrary.displayName(current) }, set: { name = $0 })
        VStack(alignment: .leading, spacing: 10) {
            Text("Rename Document").font(.headline)
            TextField("Name", text: binding).onSubmit { rename(current, to: binding.wrappedValue) }
            if let error { Text(error).foregroundStyle(.red) }
            HStack {
                Spacer()
                Button("Cancel") { close() }
                Button("Rename") { rename(current, to: binding.wrappedValue) }.buttonStyle(.borderedProminent)
            }
        }
        .padding()
    }

    private func rename(_ current: String, to newName: String) {
        do {
            try scene.host.renameDocument(current, to: newName)
            close()
        } catch {
            self.error = DocumentController.describe(error)
        }
    }

    private func close() {
        scene.renaming = false
        scene.invalidate()
    }
}
