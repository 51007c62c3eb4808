import Foundation
import SwiftUIWebDriver
import Testing

@testable import SwiftUIWeb

/// A window that lists the URLs it was opened with, and prefers the ones under links://book/pinned.
struct LinkList: View {
    @State private var opened: [String] = []
    var body: some View {
        VStack {
            Text("Opened: " + (opened.isEmpty ? "nothing" : opened.joined(separator: " ")))
        }
        .onOpenURL { opened.append($0.absoluteString) }
        .handlesExternalEvents(preferring: ["links://book/pinned"], allowing: ["*"])
    }
}

struct LinksApp: App {
    var body: some Scene {
        WindowGroup { LinkList() }.handlesExternalEvents(matching: ["links://book"])
        WindowGroup("Authors", id: "authors") { Text("Authors window") }
            .handlesExternalEvents(matching: ["links://author"])
    }
}

/// `handlesExternalEvents` and `onOpenURL`: an external URL (`/_swiftuiweb/open?url=…`) opens a window of the
/// scene whose conditions match, or goes to a live window that prefers it; bad or unhandled URLs get a clear
/// answer; a window without a handler says so.
@Suite(.serialized, .timeLimit(.minutes(1))) struct ExternalEventsTests {
    func get(_ server: TestServer, _ path: String, signedIn: Bool = true) async throws -> HTTPReply {
        let target = URL(string: server.base + path)!
        let headers = signedIn ? server.signedIn : [:]
        return try await offCooperativePool { try httpExchange("GET", target, headers: headers) }
    }

    func open(_ server: TestServer, _ url: String) async throws -> HTTPReply {
        try await get(
            server, "/_swiftuiweb/open?url=" + url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
    }

    @Test func aURLOpensAWindowOfTheSceneThatHandlesIt() async throws {
        let server = await TestServer(AppHost(app: LinksApp(), storageDirectory: tempDir()))
        try await server.start()
        let book = try await open(server, "links://book/7")
        #expect(book.status == 303)
        let location = try #require(book.header("location") as String?)
        #expect(location.hasPrefix("/?w="))
        let page = try await get(server, location)
        #expect(page.text.contains("Opened: links://book/7"))
        let author = try await open(server, "links://author/ada")
        let authorPage = try await get(server, try #require(author.header("location")))
        #expect(authorPage.text.contains("Authors window"))
        // No scene names it: refused with the reason, and no window is made.
        let before = await MainActor.run { server.host.scenes.count }
        let stray = try await open(server, "https://example.com/")
        #expect(stray.status == 404 && stray.text.contains("none matches"))
        #expect(await MainActor.run { server.host.scenes.count } == before)
        let missing = try await get(server, "/_swiftuiweb/open")
        #expect(missing.status == 400)
        let relative = try await open(server, "not a url")
        #expect(relative.status == 400 && relative.text.contains("not an absolute URL"))
        // Without the sign-in cookie, nothing is opened (another site's link cannot drive the app).
        let foreign = try await get(server, "/_swiftuiweb/open?url=links%3A%2F%2Fbook%2F1", signedIn: false)
        #expect(foreign.status == 401)
        #expect(await MainActor.run { server.host.scenes.count } == before)
        await server.stop()
    }

    @Test func aLiveWindowThatPrefersTheURLReceivesIt() async throws {
        let server = await TestServer(AppHost(app: LinksApp(), storageDirectory: tempDir()))
        try await server.start()
        let host = server.host
        let id = await MainActor.run {
            let scene = host.newScene()
            _ = scene.document()
            return scene.id
        }
        let seen = Box<[String]>([])
        try await withSocket(server.socketURL(id), origin: server.base) { peer in
            _ = try await peer.drain()
            let reply = try await self.open(server, "links://book/pinned/3")
            #expect(reply.status == 200 && reply.text.contains("already showing"))
            // The window renders the URL on its next flush, which may come after a first ping's answer.
            for _ in 0..<50 where !seen.value.joined().contains("Opened: links://book/pinned/3") {
                seen.value += try await peer.drain()
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        #expect(seen.value.joined().contains("Opened: links://book/pinned/3"))
        // A URL the live window does not prefer opens a window of its own.
        let other = try await open(server, "links://book/8")
        #expect(other.status == 303 && other.header("location") != "/?w=" + id)
        await server.stop()
    }

    @Test func aWindowWithoutAHandlerSaysSo() async throws {
        let host = await AppHost(app: LinksApp(), storageDirectory: tempDir())
        let notice = try await MainActor.run {
            let (scene, isNew) = try host.openExternalURL(URL(string: "links://author/x")!)
            #expect(isNew)
            _ = scene.document()
            return scene.notice
        }
        #expect(notice?.contains("no onOpenURL handler") == true)
        #expect(ExternalEvents.matches(["*"], URL(string: "x://y")!))
        #expect(!ExternalEvents.matches([""], URL(string: "x://y")!))
    }
}
