import Foundation
import Testing

@testable import SwiftUIWeb

@Suite @MainActor struct SceneStorageHygieneTests {
    @Test func aCorruptStorageFileIsKeptAsideAndReported() throws {
        let dir = tempDir()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let file = URL(fileURLWithPath: dir).appendingPathComponent("scene-storage.json")
        try Data("{not json".utf8).write(to: file)
        let host = AppHost(app: Shared(), storageDirectory: dir)
        #expect(host.storageProblem?.contains("could not be read") == true)
        let aside = try FileManager.default.contentsOfDirectory(atPath: dir).filter {
            $0.hasPrefix("scene-storage.corrupt-")
        }
        #expect(aside.count == 1)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: dir).appendingPathComponent(aside[0])) == Data("{not json".utf8))
        // The host goes on with fresh windows and a new file.
        let scene = host.newScene()
        _ = scene.document()
        scene.click("Note")
        host.saveStorage()
        #expect(FileManager.default.fileExists(atPath: file.path))
    }

    @Test func storageOfScenesNotSeenForTheRetentionTimeExpires() {
        let dir = tempDir()
        let host = AppHost(app: Shared(), storageDirectory: dir)
        let old = host.newScene()
        let recent = host.newScene()
        _ = old.document()
        _ = recent.document()
        old.click("Note")
        recent.click("Note")
        host.storedSeen[old.id] = Date().addingTimeInterval(-host.storageRetention - 60)
        host.remove(old)
        host.sweep()
        host.saveStorage()
        let restarted = AppHost(app: Shared(), storageDirectory: dir)
        #expect(restarted.scene(id: old.id) == nil)
        #expect(restarted.scene(id: recent.id) != nil)
    }

    @Test func theFirstFileFormatIsStillRead() throws {
        let dir = tempDir()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let v1: [String: [String: Data]] = ["abc": ["note": Data(#"["kept"]"#.utf8)]]
        try JSONEncoder().encode(v1).write(to: URL(fileURLWithPath: dir).appendingPathComponent("scene-storage.json"))
        let host = AppHost(app: Shared(), storageDirectory: dir)
        #expect(host.storageProblem == nil)
        let scene = try #require(host.scene(id: "abc"))
        _ = scene.document()
        #expect(scene.text("kept"))
    }
}

struct PhaseView: View {
    @Environment(\.scenePhase) private var scenePhase
    @State private var log: [String] = []
    var body: some View {
        Text("Phase \(String(describing: scenePhase)) log \(log.joined(separator: ","))")
            .onChange(of: scenePhase) { _, new in log.append(String(describing: new)) }
    }
}

@Suite @MainActor struct ScenePhaseTests {
    @Test func thePhaseFollowsWhatThePageReports() {
        let scene = window { PhaseView() }
        #expect(scene.text("Phase background"))
        scene.handle(event: ClientEvent(t: "phase", id: "active"))
        #expect(scene.text("Phase active log active"))
        scene.handle(event: ClientEvent(t: "phase", id: "inactive"))
        scene.handle(event: ClientEvent(t: "phase", id: "background"))
        #expect(scene.text("Phase background log active,inactive,background"))
        #expect(throws: EventError.self) { try ClientEvent.decode(Data(#"{"t":"phase","id":"sleeping"}"#.utf8)) }
    }
}

@Suite struct AppAssetsTests {
    @Test func namedImagesComeFromAnAssetCatalogOrPlainFiles() throws {
        let folder = URL(fileURLWithPath: tempDir())
        let imageSet = folder.appendingPathComponent("Assets.xcassets/Logo.imageset")
        try FileManager.default.createDirectory(at: imageSet, withIntermediateDirectories: true)
        try Data(
            #"{"images":[{"idiom":"universal","filename":"logo@2x.png"}],"info":{"version":1,"author":"xcode"}}"#.utf8
        )
        .write(to: imageSet.appendingPathComponent("Contents.json"))
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: imageSet.appendingPathComponent("logo@2x.png"))
        try Data("<svg/>".utf8).write(to: folder.appendingPathComponent("Badge.svg"))
        try Data("secret".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let assets = AppAssets(folders: [folder])
        #expect(assets.image(named: "Logo")?.mimeType == "image/png")
        #expect(assets.image(named: "Badge")?.mimeType == "image/svg+xml")
        #expect(assets.image(named: "notes") == nil)  // Not an image: never served.
        #expect(assets.image(named: "../etc/passwd") == nil)
        #expect(assets.image(named: "Missing") == nil)
    }
}
