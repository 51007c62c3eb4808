import Foundation
import Testing
import UniformTypeIdentifiers

@testable import SwiftUIWeb

private struct NoteFile: FileDocument {
    static var readableContentTypes: [UTType] { [.plainText] }
    var text: String
    init(text: String) { self.text = text }
    init(configuration: ReadConfiguration) throws { text = "" }
    func fileWrapper(configuration: WriteConfiguration) throws -> FileWrapper {
        FileWrapper(regularFileWithContents: Data(text.utf8))
    }
}

private struct Exporting: View {
    @State var presented = false
    @State var outcome = "none"
    var body: some View {
        VStack {
            Button("Export") { presented = true }
            Text("Outcome: \(outcome)")
        }
        .fileExporter(
            isPresented: $presented, document: NoteFile(text: "hello"), contentType: .plainText,
            defaultFilename: "../../etc/notes"
        ) {
            switch $0 {
            case .success(let url): outcome = url.lastPathComponent
            case .failure(let error): outcome = "failed: \(error.localizedDescription)"
            }
        }
    }
}

/// `fileExporter`: presenting it makes the file once, keeps it for the page and sends a download patch; the
/// binding goes back to false; the name cannot leave the downloads folder.
@MainActor @Suite struct FileExporterTests {
    @Test func presentingDownloadsTheFileOnce() {
        let w = window { Exporting() }
        #expect(w.exports.isEmpty)
        let patches = w.click("Export") + w.flush()
        let downloads = patches.compactMap { if case .download(let url) = $0 { return url } else { return nil } }
        #expect(downloads.count == 1)
        #expect(w.exports.count == 1)
        #expect(w.exports.first?.filename == "notes.txt")
        #expect(String(decoding: w.exports.first?.data ?? Data(), as: UTF8.self) == "hello")
        #expect(downloads.first == "/_swiftuiweb/export?w=\(w.id)&e=\(w.exports.first?.id ?? "")")
        #expect(w.text("Outcome: notes.txt"))
        // Rendering again does not export again.
        _ = w.flush()
        #expect(w.exports.count == 1)
    }

    @Test func namesStayNames() {
        #expect(FileExporterView<EmptyView>.filename("../../etc/passwd", .plainText) == "passwd.txt")
        #expect(FileExporterView<EmptyView>.filename(nil, .json) == "Untitled.json")
        #expect(FileExporterView<EmptyView>.filename("..", .json) == "Untitled.json")
        #expect(FileExporterView<EmptyView>.filename("report.TXT", .plainText) == "report.TXT")
    }
}
