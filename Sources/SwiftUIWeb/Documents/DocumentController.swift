import Foundation
import UniformTypeIdentifiers

/// One open document, shared by every window showing it: its contents, its undo manager, whether it has
/// unsaved changes, and its saves. Windows on the same file share one controller, so an edit in one shows
/// in the others.
@MainActor
class DocumentController {
    /// Where the document is stored (changes on rename).
    private(set) var fileURL: URL
    /// The type the document is saved as.
    let contentType: UTType
    /// Whether the document can be changed.
    let isEditable: Bool
    /// The undo manager of the document's windows.
    let undoManager = UndoManager()
    /// Changes done minus changes undone, as NSDocument counts them; the document is edited while this
    /// differs from the count at the last save.
    private(set) var changeCount = 0
    private var savedChangeCount = 0
    /// The file as last read or saved.
    var existingFile: FileWrapper?
    /// The last save's or revert's failure, shown in the document's windows until the next success.
    var lastError: String?
    /// The windows showing the document.
    var sceneIDs: Set<String> = []
    weak var host: AppHost?
    /// Saving now / another save asked for while one is running.
    private(set) var saving = false
    private var saveAgain = false
    private var autosaveTask: Task<Void, Never>?
    /// How many saves finished (for tests).
    private(set) var savesCompleted = 0

    init(fileURL: URL, contentType: UTType, isEditable: Bool, existingFile: FileWrapper?) {
        self.fileURL = fileURL
        self.contentType = contentType
        self.isEditable = isEditable
        self.existingFile = existingFile
        undoManager.onChange = { [weak self] change in self?.undoChanged(change) }
    }

    /// Whether there are unsaved changes.
    var isEdited: Bool { changeCount != savedChangeCount }
    /// The file name.
    var name: String { fileURL.lastPathComponent }

    /// The editor view for the document (made by the document group).
    func makeView() -> any View { EmptyView() }
    /// The document's contents as a file wrapper, made on the main actor (value documents write their value;
    /// object documents take a snapshot and write it).
    func makeFileWrapper() throws -> FileWrapper { preconditionFailure("subclass") }
    /// Replaces the contents with the file's.
    func reload(from file: FileWrapper) throws { preconditionFailure("subclass") }

    private func undoChanged(_ change: UndoManager.Change) {
        switch change {
        case .done, .redone: changeCount += 1
        case .undone: changeCount -= 1
        case .cleared: break
        }
        contentsChanged()
    }

    /// The contents changed: every window showing the document renders again, and an autosave is due.
    func contentsChanged() {
        for id in sceneIDs { host?.scenes[id]?.invalidate() }
        scheduleAutosave()
    }

    func scheduleAutosave() {
        guard isEditable, let host, host.autosaveDelay != nil else { return }
        autosaveTask?.cancel()
        autosaveTask = Task { @MainActor [weak self] in
            guard let delay = self?.host?.autosaveDelay else { return }
            do { try await Task.sleep(for: .seconds(delay)) } catch { return }  // Cancelled: a later change rescheduled it.
            guard let self, self.isEdited else { return }
            await self.save()
        }
    }

    /// Saves: makes the file wrapper here, then writes it atomically away from the main actor, so a large
    /// document never stalls the event loop. A failure is kept in `lastError` (and shown), and the
    /// document stays edited; the file on disk is left as it was.
    @discardableResult
    func save() async -> Bool {
        guard isEditable else { return false }
        if saving {
            saveAgain = true
            return false
        }
        saving = true
        defer { saving = false }
        var ok = false
        let wasEdited = isEdited
        let oldError = lastError
        repeat {
            saveAgain = false
            let countAtSnapshot = changeCount
            let url = fileURL
            do {
                let wrapper = try makeFileWrapper()
                try await DocumentController.writeOffTheEventLoop(wrapper, to: url)
                existingFile = wrapper
                savedChangeCount = countAtSnapshot
                lastError = nil
                savesCompleted += 1
                ok = true
            } catch {
                lastError =
                    "“\(DocumentLibrary.displayName(url.lastPathComponent))” could not be saved: \(DocumentController.describe(error))"
                ok = false
            }
        } while saveAgain
        // The windows show the edited state and the last error: they render again only when those changed
        // (an autosave during typing leaves the document edited, and the windows as they are).
        if isEdited != wasEdited || lastError != oldError {
            for id in sceneIDs { host?.scenes[id]?.invalidate() }
        }
        return ok
    }

    /// The queue saves are written on: a thread of its own, because `fsync` blocks, and a blocked thread of
    /// Swift's cooperative pool (two on a two-core machine) would stall every task the server runs.
    nonisolated private static let saveQueue = DispatchQueue(label: "SwiftUIWeb.document-saves", qos: .utility)

    nonisolated static func writeOffTheEventLoop(_ wrapper: FileWrapper, to url: URL) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            saveQueue.async {
                do {
                    try wrapper.write(to: url, options: .atomic, originalContentsURL: url)
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Reads the file again, dropping unsaved changes and the undo steps.
    func revert() {
        do {
            let file = try FileWrapper(url: fileURL)
            try reload(from: file)
            existingFile = file
            undoManager.removeAllActions()
            changeCount = 0
            savedChangeCount = 0
            lastError = nil
        } catch {
            lastError =
                "“\(DocumentLibrary.displayName(name))” could not be read again: \(DocumentController.describe(error))"
        }
        for id in sceneIDs { host?.scenes[id]?.invalidate() }
    }

    /// Moves the document to a new URL in the same folder (the caller checked the name).
    func moved(to url: URL) {
        fileURL = url
        for id in sceneIDs { host?.scenes[id]?.invalidate() }
    }

    /// Stops the pending autosave (the document is closing; the caller saved it if it had to).
    func cancelAutosave() { autosaveTask?.cancel() }

    nonisolated static func describe(_ error: Error) -> String {
        if let failure = error as? DocumentLibrary.Failure { return failure.description }
        if let cocoa = error as? CocoaError, let text = cocoa.userInfo[NSLocalizedDescriptionKey] as? String {
            return text
        }
        if let decoding = error as? DecodingError {
            switch decoding {
            case .dataCorrupted(let c), .keyNotFound(_, let c), .typeMismatch(_, let c), .valueNotFound(_, let c):
                return c.debugDescription + (c.underlyingError.map { " (\($0.localizedDescription))" } ?? "")
            @unknown default: return "\(decoding)"
            }
        }
        let text = "\(error)"
        return text.isEmpty ? error.localizedDescription : text
    }
}

/// A value document (`FileDocument`): changes through the editor's binding register undo steps.
@MainActor
final class ValueDocumentController<Document: FileDocument>: DocumentController {
    private(set) var document: Document
    let editor: @MainActor (FileDocumentConfiguration<Document>) -> any View

    init(
        document: Document, fileURL: URL, contentType: UTType, isEditable: Bool, existingFile: FileWrapper?,
        editor: @escaping @MainActor (FileDocumentConfiguration<Document>) -> any View
    ) {
        self.document = document
        self.editor = editor
        super.init(fileURL: fileURL, contentType: contentType, isEditable: isEditable, existingFile: existingFile)
    }

    /// The run of typing into one field that the last undo step covers: typing goes on in it without
    /// new steps, so Undo takes back the whole run ("Undo Typing"), as a Mac text view does.
    private var typing: (field: String, at: Date, count: Int)?
    /// How long a pause in typing ends its undo step.
    static var typingPause: TimeInterval { 2 }

    /// Sets the document, registering the undo step that sets it back.
    func set(_ newValue: Document) {
        guard isEditable else { return }
        let old = document
        document = newValue
        let field = host?.currentInput
        // A save in flight must see the next keystroke as a new change (its snapshot doesn't have it), so
        // typing is only folded into the last step while no save runs.
        if let field, let run = typing, run.field == field, run.count == changeCount, isEdited, !saving,
            !undoManager.isUndoing, !undoManager.isRedoing, Date().timeIntervalSince(run.at) < Self.typingPause
        {
            typing?.at = Date()
            scheduleAutosave()
        } else {
            undoManager.registerUndo(withTarget: self) { controller in controller.set(old) }
            if let field, !undoManager.isUndoing, !undoManager.isRedoing {
                undoManager.setActionName("Typing")
                typing = (field, Date(), changeCount + 1)
            } else {
                typing = nil
            }
        }
        // Registration counts the change when its event ends; the windows must show it now.
        for id in sceneIDs { host?.scenes[id]?.invalidate() }
    }

    override func makeView() -> any View {
        let binding = Binding<Document>(
            get: { [unowned self] in self.document }, set: { [unowned self] in self.set($0) })
        return editor(FileDocumentConfiguration(document: binding, fileURL: fileURL, isEditable: isEditable))
    }

    override func makeFileWrapper() throws -> FileWrapper {
        try document.fileWrapper(configuration: .init(contentType: contentType, existingFile: existingFile))
    }

    override func reload(from file: FileWrapper) throws {
        document = try Document(configuration: .init(contentType: contentType, file: file))
    }
}

/// An object document (`ReferenceFileDocument`): the app registers its own undo steps, which mark the
/// document edited.
@MainActor
final class ObjectDocumentController<Document: ReferenceFileDocument>: DocumentController {
    private(set) var document: Document
    let editor: @MainActor (ReferenceFileDocumentConfiguration<Document>) -> any View

    init(
        document: Document, fileURL: URL, contentType: UTType, isEditable: Bool, existingFile: FileWrapper?,
        editor: @escaping @MainActor (ReferenceFileDocumentConfiguration<Document>) -> any View
    ) {
        self.document = document
        self.editor = editor
        super.init(fileURL: fileURL, contentType: contentType, isEditable: isEditable, existingFile: existingFile)
    }

    override func makeView() -> any View {
        editor(ReferenceFileDocumentConfiguration(document: document, fileURL: fileURL, isEditable: isEditable))
    }

    override func makeFileWrapper() throws -> FileWrapper {
        let snapshot = try document.snapshot(contentType: contentType)
        return try document.fileWrapper(
            snapshot: snapshot, configuration: .init(contentType: contentType, existingFile: existingFile))
    }

    override func reload(from file: FileWrapper) throws {
        document = try Document(configuration: .init(contentType: contentType, file: file))
    }
}
