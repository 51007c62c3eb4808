import Foundation
import SwiftUIWebDriver
import Testing
@testable import SwiftUIWeb

/// The event socket over real loopback connections: binding, reconnection, restarts, duplicated tabs.
/// The time limit only stops a run that hangs past every socket's own 90 s watchdog (which names the socket). The hangs
/// this suite once showed under load were the tests' former client losing a frame that arrived with the upgrade's
/// response (see ``RawWebSocket``), not the server.
@Suite(.serialized, .timeLimit(.minutes(3))) struct ConnectionTests {
    @Test func droppedConnectionGetsItsSceneBackAsItWas() async throws {
        let server = await TestServer(AppHost(app: NotepadApp(), storageDirectory: tempDir()))
        try await server.start()
        let host = server.host
        let (id, increment, field) = await MainActor.run {
            let s = host.newScene(); _ = s.document()
            return (s.id, buttonID(s, "Increment"), s.fieldID)
        }
        // The server drops the socket (as a lost connection would).
        let close = try await withSocket(server.socketURL(id)) { peer in
            // The page was just served: binding sends nothing it already has.
            #expect(try await peer.drain().isEmpty)
            try await peer.send(ClientEvent(t: "click", id: increment))
            try await peer.send(ClientEvent(t: "input", id: field, v: "milk"))
            _ = try await peer.drain()
            await MainActor.run { #expect(host.disconnect(sceneID: id)) }
            while try await peer.next() != nil {}
        }
        #expect(close?.closeCode == .goingAway)
        try await waitUntil("the scene to be unbound") { await MainActor.run { !host.isConnected(sceneID: id) } }

        // The page comes back on the same scene: @State and @SceneStorage as they were.
        let content = Box("")
        try await withSocket(server.socketURL(id)) { peer in
            content.value = try await peer.next() ?? ""
        }
        #expect(content.value.contains("Count 1") && content.value.contains("Note: milk"))

        // The page itself drops the socket (it just closed above): back again, same scene.
        try await withSocket(server.socketURL(id)) { peer in
            _ = try await peer.drain()
            try await peer.send(ClientEvent(t: "click", id: increment))
            content.value = try await peer.drain().joined()
        }
        #expect(content.value.contains("Count 2"))
        await MainActor.run { #expect(host.scenes.count == 1) }
        await server.stop()
    }

    @Test func sceneStorageComesBackAfterAServerRestart() async throws {
        let dir = tempDir()
        let first = await TestServer(AppHost(app: NotepadApp(), storageDirectory: dir))
        try await first.start()
        let host = first.host
        let (id, field) = await MainActor.run { let s = host.newScene(); _ = s.document(); return (s.id, s.fieldID) }
        try await withSocket(first.socketURL(id)) { peer in
            _ = try await peer.drain()
            try await peer.send(ClientEvent(t: "input", id: field, v: "eggs & <ham>"))
            _ = try await peer.drain()
        }
        await first.stop()

        let second = await TestServer(AppHost(app: NotepadApp(), storageDirectory: dir))
        try await second.start(port: first.port)
        let content = Box("")
        try await withSocket(second.socketURL(id)) { peer in content.value = try await peer.next() ?? "" }
        #expect(content.value.contains("Note: eggs &amp; &lt;ham&gt;"))
        #expect(content.value.contains("Count 0"))   // @State starts afresh; only @SceneStorage is restored
        await second.stop()
    }

    @Test func aDuplicatedTabGetsASceneOfItsOwn() async throws {
        let server = await TestServer(AppHost(app: NotepadApp(), storageDirectory: tempDir()))
        try await server.start()
        let host = server.host
        let (id, field) = await MainActor.run { let s = host.newScene(); _ = s.document(); return (s.id, s.fieldID) }
        let copyID = Box("")
        try await withSocket(server.socketURL(id)) { peer in
            _ = try await peer.drain()
            try await peer.send(ClientEvent(t: "input", id: field, v: "original"))
            _ = try await peer.drain()
            // The duplicate opens the same URL while the original is connected.
            try await withSocket(server.socketURL(id)) { dup in
                let reply = try await dup.next() ?? ""
                let object = try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: String]
                copyID.value = object?["rebind"] ?? ""
            }
            #expect(copyID.value.count == 32 && copyID.value != id)
            // The copy starts from the original's @SceneStorage and then goes its own way.
            try await withSocket(server.socketURL(copyID.value)) { dup in
                let content = try await dup.next() ?? ""
                #expect(content.contains("Note: original"))
                try await dup.send(ClientEvent(t: "input", id: field, v: "copy"))
                _ = try await dup.drain()
            }
            // The original saw none of it.
            #expect(try await peer.drain().isEmpty)
        }
        await MainActor.run {
            #expect(host.scenes[id]?.lastTree?.textContent.contains("Note: original") == true)
            #expect(host.scenes[copyID.value]?.lastTree?.textContent.contains("Note: copy") == true)
        }
        await server.stop()
    }

    @Test @MainActor func scenesWithoutWindowsAreFreedAfterTheRetentionTime() throws {
        let host = AppHost(app: NotepadApp(), storageDirectory: tempDir())
        host.retention = 60
        let kept = host.newScene(), freed = host.newScene(), saved = host.newScene()
        for s in [kept, freed, saved] { _ = s.document() }
        kept.sink = { _ in }   // its window is connected
        saved.input(saved.fieldID, "keep me")
        host.sweep(now: Date().addingTimeInterval(30))
        #expect(host.scenes.count == 3)   // within the retention time, nothing is freed
        host.sweep(now: Date().addingTimeInterval(61))
        #expect(host.scenes[kept.id] != nil)
        #expect(host.scenes[freed.id] == nil && host.scenes[saved.id] == nil)
        #expect(host.scene(id: freed.id) == nil)   // nothing saved: gone for good
        #expect(host.scene(id: saved.id)?.document().contains("Note: keep me") == true)   // revived from @SceneStorage
    }

    @Test func theServerFreesAClosedWindowsSceneByItself() async throws {
        let server = await TestServer(AppHost(app: NotepadApp(), storageDirectory: tempDir()))
        let host = server.host
        let id = await MainActor.run { host.retention = 0.2; let s = host.newScene(); _ = s.document(); return s.id }
        try await server.start()
        try await withSocket(server.socketURL(id)) { peer in _ = try await peer.drain() }
        try await waitUntil("the server to free the scene", timeout: 10) { await MainActor.run { host.scenes[id] == nil } }
        await server.stop()
    }
}
