import Foundation
import MedsKit
import SwiftUIWeb
import UniformTypeIdentifiers

/// A finished export: bytes of a type, as a document `fileExporter` can hand to the browser.
struct ExportDocument: FileDocument {
    static var readableContentTypes: [UTType] { [.commaSeparatedText, .json] }
    let data: Data

    init(data: Data) { self.data = data }

    init(configuration: ReadConfiguration) throws {
        guard let data = configuration.file.regularFileContents else {
            throw MedsError("An export is a single file, not a folder.")
        }
        self.data = data
    }

    func fileWrapper(configuration: WriteConfiguration) throws -> FileWrapper {
        FileWrapper(regularFileWithContents: data)
    }
}

/// Export for a doctor: the medication list and dose history as CSV, or a FHIR R4 Bundle; the browser downloads it.
struct ExportView: View {
    @Environment(MedsModel.self) private var model
    @State private var document: ExportDocument?
    @State private var type = UTType.commaSeparatedText
    @State private var filename = ""
    @State private var exporting = false
    @State private var result = ""

    var body: some View {
        VStack(alignment: .leading, spacing: 10) {
            Text("Export").font(.title)
            Text("For a doctor: \(model.profile.name)'s medications and every dose logged.")
                .foregroundStyle(.secondary)
            // One under another, so they fit a phone-width window.
            VStack(alignment: .leading, spacing: 8) {
                Button("Medication List (CSV)") { start(.medicationsCSV, .commaSeparatedText) }
                Button("Dose History (CSV)") { start(.dosesCSV, .commaSeparatedText) }
                Button("FHIR Bundle (JSON)") { start(.fhir, .json) }
            }
            if !result.isEmpty { Text(result) }
        }
        .fileExporter(isPresented: $exporting, document: document, contentType: type, defaultFilename: filename) {
            switch $0 {
            case .success(let url): result = "Downloaded \(url.lastPathComponent)."
            case .failure(let error): result = "The export failed: \(error.localizedDescription)"
            }
        }
    }

    func start(_ kind: MedsModel.ExportKind, _ contentType: UTType) {
        Task {
            guard let made = await model.export(kind) else { return }
            document = ExportDocument(data: made.data)
            type = contentType
            filename = made.filename
            exporting = true
        }
    }
}
