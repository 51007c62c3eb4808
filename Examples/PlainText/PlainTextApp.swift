// A plain-text editor: a value document (FileDocument) with undo for free, a Settings window whose
// @AppStorage survives restarts, and a Text menu whose commands act on the focused window's document.
// Run `swift run PlainText`, open http://127.0.0.1:8080/ and choose "New Document".
import SwiftUIWeb
import UniformTypeIdentifiers

@main
struct PlainTextApp: App {
    var body: some Scene {
        DocumentGroup(newDocument: TextDocument()) { file in
            TextDocumentView(document: file.$document)
        }
        .commands {
            TextCommands()
            TextEditingCommands()
        }
        Settings {
            EditorSettings()
        }
    }
}

struct TextDocument: FileDocument {
    static var readableContentTypes: [UTType] { [.plainText] }
    var text: String

    init(text: String = "") { self.text = text }

    init(configuration: ReadConfiguration) throws {
        guard let data = configuration.file.regularFileContents, let text = String(data: data, encoding: .utf8) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        self.text = text
    }

    func fileWrapper(configuration: WriteConfiguration) throws -> FileWrapper {
        FileWrapper(regularFileWithContents: Data(text.utf8))
    }
}

struct TextDocumentView: View {
    @Binding var document: TextDocument
    @AppStorage("showsWordCount") private var showsWordCount = true

    var body: some View {
        VStack(spacing: 0) {
            TextEditor(text: $document.text)
            if showsWordCount {
                Text("\(document.text.split(whereSeparator: \.isWhitespace).count) words")
                    .font(.footnote)
                    .foregroundStyle(.secondary)
                    .padding(6)
            }
        }
        .focusedSceneValue(\.textDocument, $document)
    }
}

struct TextDocumentKey: FocusedValueKey {
    typealias Value = Binding<TextDocument>
}

extension FocusedValues {
    var textDocument: Binding<TextDocument>? {
        get { self[TextDocumentKey.self] }
        set { self[TextDocumentKey.self] = newValue }
    }
}

struct TextCommands: Commands {
    @FocusedBinding(\.textDocument) private var document: TextDocument?

    var body: some Commands {
        CommandMenu("Text") {
            Button("Trim Whitespace") {
                document?.text = document?.text.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            }
            .keyboardShortcut("k")
            Button("Append Date") { document?.text += "\n" + Date().formatted(date: .abbreviated, time: .omitted) }
                .keyboardShortcut("d", modifiers: [.command, .shift])
        }
    }
}

struct EditorSettings: View {
    @AppStorage("showsWordCount") private var showsWordCount = true

    var body: some View {
        Form {
            Toggle("Show word count", isOn: $showsWordCount)
        }
        .padding()
    }
}
