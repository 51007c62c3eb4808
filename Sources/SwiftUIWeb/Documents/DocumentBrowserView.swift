import Foundation

/// The start page of a document app: new documents, the documents in the folder (open, duplicate, rename,
/// delete), and upload from the person's machine. Built from SwiftUIWeb's own views.
struct DocumentBrowserView: View {
    let host: AppHost
    let sceneID: String
    @State private var renaming: String?
    @State private var newName = ""
    @State private var error: String?

    var body: some View {
        let groups = SceneCatalog(app: host.app).documentGroups
        let listing = Result { try host.documentLibrary().entries() }
        VStack(alignment: .leading, spacing: 12) {
            HStack {
                Text(host.appName).font(.title)
                Spacer()
                ForEach(Array(groups.enumerated().filter { $0.element.canCreate }), id: \.offset) { index, _ in
                    Button("New Document", systemImage: "doc.badge.plus") { create(index) }
                        .buttonStyle(.borderedProminent)
                }
                UploadButton()
            }
            if let error {
                Text(error).foregroundStyle(.red)
            }
            switch listing {
            case .failure(let failure):
                Text(DocumentController.describe(failure)).foregroundStyle(.red)
            case .success(let entries) where entries.isEmpty:
                Text("No documents yet.").foregroundStyle(.secondary)
            case .success(let entries):
                List {
                    ForEach(entries, id: \.name) { entry in row(entry) }
                }
            }
        }
        .padding()
        .navigationTitle(host.appName)
    }

    @ViewBuilder private func row(_ entry: DocumentLibrary.Entry) -> some View {
        if renaming == entry.name {
            HStack {
                TextField("Name", text: $newName).onSubmit { rename(entry.name) }
                Button("Rename") { rename(entry.name) }.buttonStyle(.borderedProminent)
                Button("Cancel") { renaming = nil }
            }
        } else {
            HStack {
                Button(entry.displayName) { open(entry.name) }.buttonStyle(.plain)
                Spacer()
                Text(entry.modified.formatted(date: .abbreviated, time: .shortened)).foregroundStyle(.secondary).font(
                    .footnote)
                Button("Duplicate") { act { try host.duplicateDocument(entry.name) } }.buttonStyle(.borderless)
                Button("Rename") {
                    newName = entry.displayName
                    renaming = entry.name
                }.buttonStyle(.borderless)
                Button("Delete", role: .destructive) { act { try host.deleteDocument(entry.name) } }.buttonStyle(
                    .borderless)
            }
        }
    }

    private func act(_ work: () throws -> Void) {
        do {
            try work()
            error = nil
        } catch {
            self.error = DocumentController.describe(error)
        }
    }

    private func create(_ index: Int) {
        act {
            let scene = try host.createDocument(groupIndex: index)
            host.scenes[sceneID]?.navigate("/?w=" + scene.id)
        }
    }

    private func open(_ name: String) {
        act {
            let scene = try host.newDocumentScene(named: name)
            host.scenes[sceneID]?.navigate("/?w=" + scene.id)
        }
    }

    private func rename(_ name: String) {
        act {
            try host.renameDocument(name, to: newName)
            renaming = nil
        }
    }
}

/// "Upload…": a file chooser whose file the page posts to `/_swiftuiweb/upload`.
struct UploadButton: View, PrimitiveView {
    var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        [
            Node(
                "label", id: path, attributes: [("class", "sw-button sw-bordered sw-upload")],
                children: [
                    Node("span", id: path + ".t", text: "Upload…"),
                    Node(
                        "input", id: path + ".f",
                        attributes: [("type", "file"), ("data-upload", "1"), ("hidden", "true")]),
                ])
        ]
    }
}
