import Foundation
import NIOCore
import SwiftUIWebDriver
import Testing
@testable import SwiftUIWeb

/// Scene ids, socket binding, isolation between windows, escaping, and refused messages.
@Suite(.serialized, .timeLimit(.minutes(1))) struct SecurityTests {
    @Test func sceneIDsAreRandomAndNeverChosenByTheClient() async throws {
        let server = await TestServer(AppHost(app: NotepadApp(), storageDirectory: tempDir()))
        try await server.start()
        let host = server.host
        let ids = await MainActor.run { (0..<200).map { _ in host.newScene().id } }
        #expect(Set(ids).count == 200)
        #expect(ids.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
        // 128 bits from the system's random source: no two share even a long prefix.
        #expect(Set(ids.map { $0.prefix(8) }).count == 200)

        // Asking for an id that does not exist opens a fresh scene under a new random id.
        let made = "0123456789abcdef0123456789abcdef"
        let url = URL(string: server.base + "/?w=" + made)!
        let cookie = server.signedIn
        let status = try await offCooperativePool { try httpRequest("GET", url, headers: cookie).status }
        #expect(status == 303)
        // A socket naming an unknown id is told to reload, and binds nothing.
        let message = Box("")
        try await withSocket(server.socketURL(made)) { peer in message.value = try await peer.next() ?? "" }
        #expect(message.value == "{\"reload\":true}")
        await MainActor.run {
            #expect(host.scenes[made] == nil)
            #expect(host.scenes.count == 201)
        }
        await server.stop()
    }

    @Test func oneWindowCanNeitherReadNorDriveAnothersScene() async throws {
        let server = await TestServer(AppHost(app: NotepadApp(), storageDirectory: tempDir()))
        try await server.start()
        let host = server.host
        let (a, b, increment, field) = await MainActor.run {
            let a = host.newScene(), b = host.newScene()
            _ = a.document(); _ = b.document()
            return (a.id, b.id, buttonID(a, "Increment"), a.fieldID)
        }
        // Element ids are structural, so both windows use the same ones: only the socket decides.
        await MainActor.run { #expect(buttonID(host.scenes[b]!, "Increment") == increment) }
        try await withSocket(server.socketURL(a)) { pa in
            _ = try await pa.drain()
            try await withSocket(server.socketURL(b)) { pb in
                _ = try await pb.drain()
                try await pa.send(ClientEvent(t: "click", id: increment))
                try await pa.send(ClientEvent(t: "input", id: field, v: "secret of A"))
                // An event naming the other scene: the extra field means nothing.
                try await pa.send(#"{"t":"click","id":"\#(increment)","w":"\#(b)"}"#)
                let seenByA = try await pa.drain().joined()
                #expect(seenByA.contains("Count 2") && seenByA.contains("secret of A"))
                // B received nothing of A's.
                #expect(try await pb.drain().isEmpty)
            }
        }
        await MainActor.run {
            #expect(host.scenes[b]!.lastTree!.textContent.contains("Count 0"))
            #expect(!host.scenes[b]!.lastTree!.html.contains("secret of A"))
        }
        await server.stop()
    }

    @Test func aSocketThatLostItsSceneDrivesNothing() async throws {
        let server = await TestServer(AppHost(app: NotepadApp(), storageDirectory: tempDir()))
        try await server.start()
        let host = server.host
        let (id, increment) = await MainActor.run { let s = host.newScene(); _ = s.document(); return (s.id, buttonID(s, "Increment")) }
        try await withSocket(server.socketURL(id)) { stale in
            _ = try await stale.drain()
            // The scene is taken over by another binding (as after a reconnect the server had not yet
            // noticed): the old socket's events are ignored.
            await MainActor.run { host.scenes[id]!.connection = host.nextConnection() }
            try await stale.send(ClientEvent(t: "click", id: increment))
            _ = try await stale.drain()
        }
        await MainActor.run { #expect(host.scenes[id]!.lastTree!.textContent.contains("Count 0")) }
        await server.stop()
    }

    @Test func malformedOversizedAndCrossOriginRequestsAreRefusedAndLogged() async throws {
        let server = await TestServer(AppHost(app: NotepadApp(), storageDirectory: tempDir()))
        try await server.start()
        let host = server.host
        let (id, increment) = await MainActor.run { let s = host.newScene(); _ = s.document(); return (s.id, buttonID(s, "Increment")) }
        let close = try await withSocket(server.socketURL(id)) { peer in
            _ = try await peer.drain()
            try await peer.send("{not json")
            try await peer.send(#"{"t":"eval","id":"x"}"#)
            try await peer.send(#"{"t":"click"}"#)
            try await peer.send(ClientEvent(t: "click", id: String(repeating: "x", count: 2000)))
            try await peer.sendBinary(Array(#"{"t":"click","id":"\#(increment)"}"#.utf8))
            // The socket survives malformed messages: a good event still works.
            try await peer.send(ClientEvent(t: "click", id: increment))
            #expect(try await peer.drain().joined().contains("Count 1"))
            // An oversized message closes it.
            try await peer.send(ClientEvent(t: "input", id: increment, v: String(repeating: "a", count: AppServer.maxEventSize)))
            while try await peer.next() != nil {}
        }
        #expect(close?.closeCode == .messageTooLarge)
        let log = server.log
        #expect(log.contains("event message refused: not an event object"))
        #expect(log.contains("event message refused: unknown event type \"eval\""))
        #expect(log.contains("event message refused: element id over"))
        #expect(log.contains("event message refused: binary message"))
        #expect(log.contains("event message refused: over \(AppServer.maxEventSize) bytes"))
        #expect(log.lines.filter { $0.contains("event message refused") }.count == 6)
        await MainActor.run { #expect(host.scenes[id]!.lastTree!.textContent.contains("Count 1")) }
        // The refused socket let go of its scene: the page's reconnection binds again (no duplicate).
        try await waitUntil("the scene to be unbound") { await MainActor.run { !host.isConnected(sceneID: id) } }
        let again = Box("")
        try await withSocket(server.socketURL(id)) { peer in again.value = try await peer.next() ?? "" }
        #expect(again.value.contains("Count 1"))

        // A page of another site cannot open a window's socket.
        await #expect(throws: (any Error).self) {
            try await withSocket(server.socketURL(id), origin: "http://evil.example") { _ in }
        }
        #expect(log.contains("event socket refused: cross-origin request"))
        try await withSocket(server.socketURL(id), origin: server.base) { peer in _ = try await peer.drain() }
        await server.stop()
    }
}

extension SecurityTests {
    /// Frames over the decoder's limit never reach the app (so this refusal is not in the app's log).
    @Test func framesOverTheFrameLimitAreCutOff() async throws {
        let server = await TestServer(AppHost(app: NotepadApp(), storageDirectory: tempDir()))
        try await server.start()
        let host = server.host
        let id = await MainActor.run { let s = host.newScene(); _ = s.document(); return s.id }
        let close = try await withSocket(server.socketURL(id)) { peer in
            _ = try await peer.drain()
            try await peer.send(String(repeating: "x", count: AppServer.maxFrameSize + 1))
            while try await peer.next() != nil {}
        }
        #expect(close?.closeCode == .messageTooLarge)
        try await waitUntil("the scene to be unbound") { await MainActor.run { !host.isConnected(sceneID: id) } }
        await MainActor.run { #expect(host.scenes[id]!.lastTree!.textContent.contains("Count 0")) }
        await server.stop()
    }
}

struct Hostile: View {
    @State private var text = "\"><script>alert(1)</script>"
    var body: some View {
        VStack {
            Text(text)
            TextField("\" onfocus=\"alert(2)", text: $text)
            Label(text, systemImage: "\"><script>")
        }
        .navigationTitle("</title><script>alert(3)</script>")
    }
}

@Suite @MainActor struct EscapingTests {
    @Test func allTextIsEscapedInHTMLAndPatches() throws {
        let w = window { Hostile() }
        let html = w.document()
        #expect(!html.contains("<script>"))
        #expect(html.contains("<title>&lt;/title&gt;&lt;script&gt;alert(3)&lt;/script&gt;</title>"))
        #expect(html.contains("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("placeholder=\"&quot; onfocus=&quot;alert(2)\""))
        #expect(html.components(separatedBy: "<script").count == 2)   // only the client script's tag
        // Typed text comes back in patches as JSON strings, with `<` escaped too.
        let patches = w.input(w.fieldID, "</script><img src=x onerror=alert(4)>\"\n\\")
        #expect(!patches.isEmpty)
        for p in patches {
            let json = p.json
            #expect(!json.contains("<"))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            if let text = object["text"] as? String { #expect(text == "</script><img src=x onerror=alert(4)>\"\n\\") }
            if let html = object["html"] as? String { #expect(!html.contains("<img") && !html.contains("<script")) }
        }
    }
}

struct LongRows: View {
    @State private var picked = ""
    let names = [String(repeating: "long name ", count: 300) + "A", String(repeating: "long name ", count: 300) + "B"]
    var body: some View {
        VStack {
            Text("Picked: \(picked.suffix(1))")
            List(names, id: \.self) { name in Button("Pick " + name.suffix(1)) { picked = name } }
        }
    }
}

@Suite @MainActor struct LongIdentityTests {
    @Test func rowsIdentifiedByLongTextsKeepShortDistinctElementIDs() {
        let w = window { LongRows() }
        let a = w.clickable("Pick A"), b = w.clickable("Pick B")
        #expect(a != b && a.utf8.count < 200 && b.utf8.count < 200)
        w.click("Pick B")
        #expect(w.text("Picked: B"))
    }
}
