// A sketch of shapes: an object document (ReferenceFileDocument) that registers its own undo steps with
// the window's UndoManager, so Edit ▸ Undo and Redo (Ctrl+Z, Ctrl+Shift+Z) walk them back and forth.
// Run `swift run Sketch`, open http://127.0.0.1:8080/ and choose "New Document".
import SwiftUIWeb
import UniformTypeIdentifiers

@main
struct SketchApp: App {
    var body: some Scene {
        DocumentGroup(newDocument: { Sketch() }) { file in
            SketchView(sketch: file.document)
        }
    }
}

extension UTType {
    static let sketch = UTType(exportedAs: "org.orchard.sketch", conformingTo: .json)
}

struct Shape: Codable, Identifiable, Hashable {
    var id = UUID()
    var kind: String
    var color: String
}

final class Sketch: ReferenceFileDocument {
    static var readableContentTypes: [UTType] { [.sketch] }
    @Published var shapes: [Shape] = []

    init() {}

    init(configuration: ReadConfiguration) throws {
        guard let data = configuration.file.regularFileContents else { throw CocoaError(.fileReadCorruptFile) }
        shapes = try JSONDecoder().decode([Shape].self, from: data)
    }

    func snapshot(contentType: UTType) throws -> [Shape] { shapes }

    func fileWrapper(snapshot: [Shape], configuration: WriteConfiguration) throws -> FileWrapper {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return FileWrapper(regularFileWithContents: try encoder.encode(snapshot))
    }

    @MainActor func insert(_ shape: Shape, at index: Int, undoManager: UndoManager?) {
        shapes.insert(shape, at: index)
        undoManager?.registerUndo(withTarget: self) { sketch in sketch.remove(at: index, undoManager: undoManager) }
        undoManager?.setActionName("Add \(shape.kind.capitalized)")
    }

    @MainActor func remove(at index: Int, undoManager: UndoManager?) {
        let shape = shapes.remove(at: index)
        undoManager?.registerUndo(withTarget: self) { sketch in
            sketch.insert(shape, at: index, undoManager: undoManager)
        }
        undoManager?.setActionName("Delete \(shape.kind.capitalized)")
    }
}

struct SketchView: View {
    @ObservedObject var sketch: Sketch
    @Environment(\.undoManager) private var undoManager
    private let colors = ["red", "orange", "green", "blue", "purple"]

    var body: some View {
        VStack(alignment: .leading) {
            HStack {
                Button("Add Circle", systemImage: "circle") { add("circle") }
                Button("Add Square", systemImage: "square") { add("square") }
            }
            List {
                ForEach(Array(sketch.shapes.enumerated()), id: \.element.id) { index, shape in
                    HStack {
                        Text("\(shape.color) \(shape.kind)")
                        Spacer()
                        Button("Delete", role: .destructive) { sketch.remove(at: index, undoManager: undoManager) }
                    }
                }
            }
            Text("\(sketch.shapes.count) shapes").foregroundStyle(.secondary)
        }
        .padding()
    }

    private func add(_ kind: String) {
        let shape = Shape(kind: kind, color: colors[sketch.shapes.count % colors.count])
        sketch.insert(shape, at: sketch.shapes.count, undoManager: undoManager)
    }
}
