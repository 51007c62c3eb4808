import Foundation
import UniformTypeIdentifiers

/// A file a `fileExporter` made, waiting for the page to download it.
struct FileExport {
    /// How many exports a window keeps waiting at most.
    static let maximumWaiting = 8
    /// A random id, the last part of its URL.
    let id: String
    /// The file name the browser saves it under.
    let filename: String
    /// Its bytes.
    let data: Data
    /// Its MIME type.
    let mimeType: String
}

extension View {
    /// Exports a document as a file when `isPresented` becomes true: the browser downloads it (Apple's systems
    /// show a save panel; a browser saves into its downloads folder, or asks, as the person set it up), then
    /// `isPresented` is set back to false and `onCompletion` gets the file's name as a URL, or the error that the
    /// document's `fileWrapper` threw. A nil document exports nothing and completes with an error.
    public func fileExporter<D: FileDocument>(
        isPresented: Binding<Bool>, document: D?, contentType: UTType, defaultFilename: String? = nil,
        onCompletion: @escaping (Result<URL, Error>) -> Void
    ) -> some View {
        FileExporterView(
            content: self, isPresented: isPresented, contentType: contentType, defaultFilename: defaultFilename,
            make: document.map { document in
                { try document.fileWrapper(configuration: .init(contentType: contentType, existingFile: nil)) }
            },
            onCompletion: onCompletion)
    }
}

/// `fileExporter`: once `isPresented` is true after a pass, the document's file is made, kept for the page to
/// fetch, and a download patch sent.
struct FileExporterView<Content: View>: View, PrimitiveView {
    let content: Content
    let isPresented: Binding<Bool>
    let contentType: UTType
    let defaultFilename: String?
    let make: (() throws -> FileWrapper)?
    let onCompletion: (Result<URL, Error>) -> Void
    var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let presented = isPresented.wrappedValue
        let binding = isPresented
        let scene = context.scene
        let make = self.make
        let onCompletion = self.onCompletion
        let filename = Self.filename(defaultFilename, contentType)
        let mimeType = contentType.preferredMIMEType ?? "application/octet-stream"
        context.addChange(
            ChangeHook(
                path: path + ".x", value: presented, initial: true, equals: { ($0 as? Bool) == presented },
                fire: { _ in
                    guard presented else { return }
                    binding.wrappedValue = false
                    guard let make else {
                        onCompletion(
                            .failure(
                                CocoaError(
                                    .fileWriteUnknown,
                                    userInfo: [NSLocalizedDescriptionKey: "there is no document to export"])))
                        return
                    }
                    do {
                        let wrapper = try make()
                        guard let data = wrapper.regularFileContents else {
                            throw CocoaError(
                                .fileWriteUnknown,
                                userInfo: [NSLocalizedDescriptionKey: "only single-file documents can be exported"])
                        }
                        let export = FileExport(
                            id: AppHost.randomID(), filename: filename, data: data, mimeType: mimeType)
                        scene.exports.append(export)
                        if scene.exports.count > FileExport.maximumWaiting { scene.exports.removeFirst() }
                        scene.pending.append(.download(url: "/_swiftuiweb/export?w=\(scene.id)&e=\(export.id)"))
                        scene.invalidate()
                        onCompletion(.success(URL(fileURLWithPath: filename)))
                    } catch {
                        onCompletion(.failure(error))
                    }
                }))
        return context.render(content, path: path + ".o")
    }

    /// The file's name: the default name given (without folders), with the type's extension when it has none.
    static func filename(_ name: String?, _ type: UTType) -> String {
        var base = (name ?? "Untitled").split(separator: "/").last.map(String.init) ?? "Untitled"
        if base.isEmpty || base == "." || base == ".." { base = "Untitled" }
        if let ext = type.preferredFilenameExtension, !base.lowercased().hasSuffix("." + ext) { base += "." + ext }
        return base
    }
}
