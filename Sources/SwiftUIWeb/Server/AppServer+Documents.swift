import Foundation
import Hummingbird
import Logging

extension AppServer {
    /// Largest file a page may upload into the documents folder.
    public static let maxUploadSize = 64 * 1024 * 1024

    /// `POST /_swiftuiweb/upload?w=<start page scene>` with the file as the body and its name in
    /// `X-SwiftUIWeb-Filename` (percent-encoded): stores the file in the documents folder and answers with
    /// the scene of a new window on it (`{"w":"…"}`), or with the reason it was refused (`{"error":"…"}`).
    /// Only a page of this server, on a live start page, can upload.
    static func upload(_ request: Request, host: AppHost, logger: Logger) async throws -> Response {
        guard AppServer.sameOrigin(request), request.headers[values: .origin].count == 1 else {
            logger.warning("upload refused: not from a page of this server")
            return json(.forbidden, ["error": "uploads come from this app's pages only"])
        }
        let sceneID = request.uri.queryParameters.get("w").map { String($0) } ?? ""
        let onStartPage = await MainActor.run {
            host.scenes[sceneID].map { SceneCatalog(app: host.app).entry(for: $0.group)?.kind == .documentBrowser }
                ?? false
        }
        guard onStartPage else {
            return json(.forbidden, ["error": "uploads go to the documents start page of an open window"])
        }
        guard let encodedName = request.headers[.init("X-SwiftUIWeb-Filename")!],
            let name = encodedName.removingPercentEncoding
        else {
            return json(.badRequest, ["error": "the file name is missing"])
        }
        let body: ByteBuffer
        do { body = try await request.body.collect(upTo: maxUploadSize) } catch {
            return json(.contentTooLarge, ["error": "the file is larger than \(maxUploadSize / 1024 / 1024) MB"])
        }
        let data = Data(body.readableBytesView)
        let result: Result<String, Error> = await MainActor.run {
            Result {
                let stored = try host.importDocument(named: name, contents: data)
                return try host.newDocumentScene(named: stored).id
            }
        }
        switch result {
        case .success(let id): return json(.ok, ["w": id])
        case .failure(let error):
            let message = DocumentController.describe(error)
            await MainActor.run { host.scenes[sceneID]?.report(message) }
            return json(.unprocessableContent, ["error": message])
        }
    }

    /// `GET /_swiftuiweb/download?w=<document window scene>`: the document as it is now (with unsaved
    /// changes), as an attachment named after it.
    static func download(_ request: Request, host: AppHost) async -> Response {
        let result: Result<(String, Data), Error>? = await MainActor.run {
            guard let id = request.uri.queryParameters.get("w"), let scene = host.scenes[String(id)] else { return nil }
            return Result {
                let controller = try host.documentController(for: scene)
                let wrapper = try controller.makeFileWrapper()
                guard let data = wrapper.regularFileContents else {
                    throw DocumentLibrary.Failure(
                        "“\(controller.name)” is a package (a folder of files); only single-file documents download")
                }
                return (controller.name, data)
            }
        }
        switch result {
        case nil:
            return Response(
                status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: "no such document window")))
        case .failure(let error)?:
            return Response(
                status: .unprocessableContent, headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: DocumentController.describe(error))))
        case .success(let (name, data))?:
            return attachment(name: name, data: data, mimeType: "application/octet-stream")
        }
    }

    /// `GET /_swiftuiweb/export?w=<window>&e=<export>`: a file a `fileExporter` made in that window, once (it is
    /// forgotten when served).
    static func export(_ request: Request, host: AppHost) async -> Response {
        let found: FileExport? = await MainActor.run {
            guard let w = request.uri.queryParameters.get("w"), let e = request.uri.queryParameters.get("e"),
                let scene = host.scenes[String(w)], let index = scene.exports.firstIndex(where: { $0.id == String(e) })
            else { return nil }
            return scene.exports.remove(at: index)
        }
        guard let found else {
            return Response(
                status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: "no such export (each is served once)")))
        }
        return attachment(name: found.filename, data: found.data, mimeType: found.mimeType)
    }

    /// A file as an attachment with its name (ASCII, and UTF-8 per RFC 5987).
    static func attachment(name: String, data: Data, mimeType: String) -> Response {
        let ascii = name.unicodeScalars.map {
            $0.isASCII && $0 != "\"" && $0 != "\\" && $0.value >= 32 ? String($0) : "_"
        }.joined()
        let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ascii
        return Response(
            status: .ok,
            headers: [
                .contentType: mimeType, .cacheControl: "no-store",
                .contentDisposition: "attachment; filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    private static func json(_ status: HTTPResponse.Status, _ object: [String: String]) -> Response {
        let text = "{" + object.map { "\(JSON.quote($0.key)):\(JSON.quote($0.value))" }.joined(separator: ",") + "}"
        return Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

extension AppHost {
    /// The scene a request for `/?g=<group>` gets: the one window of a `Window` or `Settings` scene, or a
    /// new window of a group (the first when the group is unknown; a document window is never made this way).
    func sceneForRequest(group: String?) -> SceneInstance {
        let catalog = SceneCatalog(app: app)
        guard let group, let entry = catalog.entry(for: group), entry.kind != .document else {
            return newScene(group: nil)
        }
        switch entry.kind {
        case .window, .settings, .previews: return singleScene(group: group)
        default: return newScene(group: group)
        }
    }
}
