import Foundation
import SwiftUIWeb
import UniformTypeIdentifiers

/// The app-owned rows of the List workload.
final class Rows: ObservableObject {
    @Published var titles = (0..<1000).map { "Row \($0)" }
}

/// The app-owned rows of the long List workloads: 100,000 of them, made once for every window.
final class LongRows: ObservableObject {
    @Published var rows = (0..<100_000).map { LongRow(id: $0) }
}

/// One row of the long list.
struct LongRow: Identifiable, Hashable {
    let id: Int
    var title: String { "Row \(id)" }
}

/// A window with a selectable 100,000-row List owned by the app (rendered a window of rows at a time).
struct LongListWindow: View {
    @EnvironmentObject var model: LongRows
    @State private var selection: Int?
    var body: some View {
        VStack {
            Text(selection.map { "Selected \($0)" } ?? "Nothing selected")
            List(model.rows, selection: $selection) { row in
                HStack {
                    Text(row.title)
                    Spacer()
                    Text(row.id.isMultiple(of: 2) ? "even" : "odd")
                }
            }
        }
    }
}

/// The same rows in a plain (not lazy) stack: every row rendered, what a list without windowing costs.
struct WholeListWindow: View {
    @EnvironmentObject var model: LongRows
    var body: some View {
        VStack {
            ForEach(model.rows) { row in
                HStack {
                    Text(row.title)
                    Spacer()
                    Text(row.id.isMultiple(of: 2) ? "even" : "odd")
                }
            }
        }
    }
}

/// A small window: a counter, a text field echoed in a text, a toggle.
struct CounterWindow: View {
    @State private var count = 0
    @State private var name = ""
    var body: some View {
        NavigationStack {
            Form {
                Section("Counter") {
                    Text("Count \(count)")
                    Button("Increment") { count += 1 }
                    TextField("Name", text: $name)
                    Text("Hello \(name)")
                    Toggle("Enabled", isOn: .constant(true))
                }
            }
            .navigationTitle("Counter \(count)")
        }
    }
}

/// A window with a 1,000-row List owned by the app.
struct ListWindow: View {
    @EnvironmentObject var rows: Rows
    @State private var count = 0
    var body: some View {
        VStack {
            Button("Increment") { count += 1 }
            Text("Count \(count)")
            List(rows.titles.indices, id: \.self) { i in Text(rows.titles[i]) }
        }
    }
}

/// A typical idle window: a split view with a 20-row sidebar and a small form.
struct TypicalWindow: View {
    @State private var selection: Int?
    @State private var note = ""
    @State private var flag = false
    @SceneStorage("selected") private var stored: Int?
    var body: some View {
        NavigationSplitView {
            List(0..<20, id: \.self, selection: $selection) { i in Label("Item \(i)", systemImage: "doc") }
                .navigationTitle("Library")
        } detail: {
            Form {
                TextField("Note", text: $note)
                Toggle("Flag", isOn: $flag)
                Text(selection.map { "Item \($0)" } ?? "Nothing selected")
            }
        }
    }
}

struct BenchApp: App {
    @StateObject private var rows = Rows()
    @StateObject private var longRows = LongRows()
    var body: some Scene {
        WindowGroup { CounterWindow() }
        WindowGroup(id: "list") { ListWindow().environmentObject(rows) }
        WindowGroup(id: "longlist") { LongListWindow().environmentObject(longRows) }
        WindowGroup(id: "wholelist") { WholeListWindow().environmentObject(longRows) }
        WindowGroup(id: "typical") { TypicalWindow() }
    }
}

/// The id of the first `<tag>` element whose content shows `text` (or of the first `<tag>` when `text` is
/// nil), found in a window's HTML.
func elementID(in html: String, tag: String, text: String? = nil) -> String? {
    var rest = html[...]
    while let open = rest.range(of: "<\(tag) ") {
        guard let close = rest[open.upperBound...].firstIndex(of: ">") else { return nil }
        let attributes = rest[open.upperBound..<close]
        let after = rest[rest.index(after: close)...]
        let content = after.range(of: "</\(tag)>").map { after[..<$0.lowerBound] } ?? after
        if text == nil || content.hasPrefix(text!) || content.contains(">\(text!)<") {
            guard let idStart = attributes.range(of: "id=\"") else { return nil }
            return String(attributes[idStart.upperBound...].prefix { $0 != "\"" })
        }
        rest = after
    }
    return nil
}

/// The document workloads' app: a plain-text document editor whose window also shows the text's size
/// (so every keystroke has a patch to wait for).
struct BenchDocumentApp: App {
    var body: some Scene {
        DocumentGroup(newDocument: BenchText()) { file in
            VStack {
                TextEditor(text: file.$document.text)
                Text("\(file.document.text.utf8.count) bytes")
            }
        }
    }
}

struct BenchText: FileDocument {
    static var readableContentTypes: [UTType] { [.plainText] }
    var text = ""
    init() {}
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
