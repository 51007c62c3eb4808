import Foundation
import SwiftUIWebDriver
import Testing

@testable import SwiftUIWeb

/// Uploads and downloads as an attacker would try them: from another origin, without a page, into a
/// window that isn't the start page, with a hostile file name.
@Suite(.serialized) struct DocumentSecurityTests {
    func post(
        _ server: TestServer, _ query: String, name: String, origin: String?, body: Data
    ) async throws -> (Int, String) {
        var headers = [
            "X-SwiftUIWeb-Filename": name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name,
            "Content-Type": "application/octet-stream",
        ].merging(server.signedIn) { a, _ in a }
        if let origin { headers["Origin"] = origin }
        let url = URL(string: server.base + "/_swiftuiweb/upload" + query)!
        let sent = headers
        let (status, data) = try await offCooperativePool { try httpRequest("POST", url, body: body, headers: sent) }
        return (status, String(decoding: data, as: UTF8.self))
    }

    @Test func uploadsComeOnlyFromThisServersStartPage() async throws {
        let server = await TestServer(AppHost(app: TextDocumentApp(), storageDirectory: tempDir()))
        try await server.start()
        let host = server.host
        let (start, document, folder) = try await MainActor.run {
            let start = host.newScene()
            _ = start.document()
            let document = try host.createDocument()
            return (start.id, document.id, host.documentsFolder)
        }
        let origin = "http://127.0.0.1:\(server.port)"
        let body = Data("uploaded".utf8)

        #expect(try await post(server, "?w=\(start)", name: "a.txt", origin: nil, body: body).0 == 403)
        #expect(
            try await post(server, "?w=\(start)", name: "a.txt", origin: "http://evil.example", body: body).0 == 403)
        #expect(try await post(server, "?w=\(document)", name: "a.txt", origin: origin, body: body).0 == 403)
        #expect(try await post(server, "?w=0123456789abcdef", name: "a.txt", origin: origin, body: body).0 == 403)
        let refused = try await post(server, "?w=\(start)", name: "photo.png", origin: origin, body: body)
        #expect(refused.0 == 422)
        #expect(refused.1.contains("doesn't open"))

        let (status, reply) = try await post(
            server, "?w=\(start)", name: "../../escape.txt", origin: origin, body: body)
        #expect(status == 200)
        #expect(reply.hasPrefix("{\"w\":"))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == ["Untitled.txt", "escape.txt"])
        #expect(
            !FileManager.default.fileExists(
                atPath: folder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                    "escape.txt"
                ).path))
        #expect(server.log.contains("upload refused"))
        await server.stop()
    }

    @Test func downloadsNeedTheDocumentWindowsUnguessableID() async throws {
        let server = await TestServer(AppHost(app: TextDocumentApp(), storageDirectory: tempDir()))
        try await server.start()
        let host = server.host
        let id = try await MainActor.run {
            let window = try host.createDocument()
            _ = window.document()
            window.input(window.editor!.id, "unsaved text")
            return window.id
        }
        let url = URL(string: server.base + "/_swiftuiweb/download?w=\(id)")!
        let cookie = server.signedIn
        let (status, body) = try await offCooperativePool { try httpRequest("GET", url, headers: cookie) }
        #expect(status == 200)
        #expect(String(decoding: body, as: UTF8.self) == "unsaved text")
        let guess = URL(string: server.base + "/_swiftuiweb/download?w=00000000000000000000000000000000")!
        #expect(try await offCooperativePool { try httpRequest("GET", guess, headers: cookie) }.status == 404)
        // Without the cookie, not even the real id downloads anything.
        #expect(try await offCooperativePool { try httpRequest("GET", url) }.status == 401)
        await server.stop()
    }
}
