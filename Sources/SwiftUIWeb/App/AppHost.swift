import Foundation
import Logging

/// Owns the app value, its App-level state, every live scene, and the @SceneStorage file.
@MainActor
public final class AppHost {
    let app: any App
    var appSlots: [String: StorageSlot] = [:]
    /// Live scenes by id.
    public private(set) var scenes: [String: SceneInstance] = [:]
    let storageFile: URL
    var storedScenes: [String: [String: Data]] = [:]
    /// The scene of each single window (`Window`, `Settings`) by group id.
    var singleWindows: [String: String] = [:]
    /// How long a scene without a window is kept.
    public var retention: TimeInterval = 300
    /// The folder a document app's documents are in.
    public let documentsFolder: URL
    /// How long after a change an edited document saves itself (`nil`: only when asked to).
    public var autosaveDelay: TimeInterval? = 2
    /// The app's name (its type's name), shown in the app menu and the document start page.
    public let appName: String
    var library: DocumentLibrary?
    /// Open documents by file name.
    var openDocuments: [String: DocumentController] = [:]
    /// The field an input event being handled comes from (`scene/element`), for typing's undo steps.
    var currentInput: String?
    /// The size of the last whole page each window group sent, by group id ("" for none): a new window of the group
    /// sizes its page's buffer to it at once (a chart of a year is megabytes, which grown by doubling were copied and
    /// faulted in again at each step).
    var documentSizes: [String: Int] = [:]

    /// How long the @SceneStorage of a window that stopped coming back is kept (a closed browser tab
    /// can't be told apart from one that will reload, so entries expire instead). Default: 30 days.
    public var storageRetention: TimeInterval = 30 * 24 * 3600
    /// When each stored scene was last seen.
    var storedSeen: [String: Date] = [:]
    /// What went wrong with the @SceneStorage file, if anything (also logged).
    public private(set) var storageProblem: String?
    let logger = Logger(label: "SwiftUIWeb")
    /// `ObservableObject` types already reported as impossible to observe (logged once each).
    var unobservableTypes: Set<ObjectIdentifier> = []

    /// Creates a host for an app, keeping @SceneStorage in `storageDirectory/scene-storage.json` and
    /// documents in `documentsFolder` (by default `storageDirectory/Documents`).
    public init<A: App>(app: A, storageDirectory: String, documentsFolder: URL? = nil) {
        self.app = app
        self.appName = String(describing: A.self).replacingOccurrences(
            of: "App", with: "", options: [.anchored, .backwards])
        self.documentsFolder =
            documentsFolder ?? URL(fileURLWithPath: storageDirectory).appendingPathComponent("Documents")
        storageFile = URL(fileURLWithPath: storageDirectory).appendingPathComponent("scene-storage.json")
        do {
            try FileManager.default.createDirectory(atPath: storageDirectory, withIntermediateDirectories: true)
        } catch {
            problem(
                "could not create the state folder \(storageDirectory): \(error.localizedDescription); @SceneStorage won't be kept"
            )
        }
        loadStorage()
        installAppState()
        WebNotificationCenter.shared.register(self)
    }

    private func installAppState() {
        for child in Mirror(reflecting: app).children {
            guard let b = child.value as? any SceneBindable else { continue }
            let anchor = SceneInstance(id: "app", host: self)
            let context = RenderContext(scene: anchor)
            b.install(in: anchor, key: "app/" + (child.label ?? "?"), context: context)
            appSlots.merge(anchor.slots) { a, _ in a }
        }
    }

    /// The root view of a window (of its group's scene; the app's first scene when the group is gone).
    func rootView(for scene: SceneInstance, catalog: SceneCatalog) -> any View {
        guard let entry = catalog.entry(for: scene.group) ?? catalog.entry(for: nil) else { return EmptyView() }
        return entry.root(scene)
    }

    /// Whether the app has a window group (or window, or settings scene) with this id.
    public func hasGroup(_ id: String) -> Bool { SceneCatalog(app: app).entry(for: id) != nil }

    /// The single window's scene of a `Window` or `Settings` scene: opening it again finds the same one.
    func singleScene(group: String) -> SceneInstance {
        if let id = singleWindows[group], let scene = scene(id: id) { return scene }
        let scene = newScene(group: group)
        singleWindows[group] = scene.id
        return scene
    }

    /// Creates a new scene with a fresh unguessable id, in a window group (`nil`: the first).
    public func newScene(group: String? = nil) -> SceneInstance {
        let scene = SceneInstance(id: AppHost.randomID(), host: self, group: group)
        scenes[scene.id] = scene
        if let group { scene.sceneStorage[AppHost.groupKey] = Data(group.utf8) }
        return scene
    }

    /// The reserved @SceneStorage key recording a window's group.
    static let groupKey = "_swiftuiweb.group"

    /// Returns the live scene with this id, or revives it from @SceneStorage after a restart.
    public func scene(id: String) -> SceneInstance? {
        if let s = scenes[id] { return s }
        guard let stored = storedScenes[id] else { return nil }
        let s = SceneInstance(
            id: id, host: self, group: stored[AppHost.groupKey].map { String(decoding: $0, as: UTF8.self) })
        s.sceneStorage = stored
        scenes[id] = s
        return s
    }

    private var saveScheduled = false

    func persist(_ scene: SceneInstance) {
        guard scene.id != "app" else { return }
        storedScenes[scene.id] = scene.sceneStorage
        storedSeen[scene.id] = Date()
        // Coalesce writes (typing into a @SceneStorage field changes it on every key).
        guard !saveScheduled else { return }
        saveScheduled = true
        Task { @MainActor in
            try? await Task.sleep(for: .milliseconds(50))
            self.saveStorage()
        }
    }

    /// The file's format: each scene's values and when it was last seen.
    struct StoredFile: Codable {
        var version = 2
        var scenes: [String: StoredScene]
        struct StoredScene: Codable {
            var lastSeen: Date
            var values: [String: Data]
        }
    }

    private func problem(_ message: String) {
        storageProblem = message
        logger.error("\(message)")
    }

    /// Reads the @SceneStorage file. A file that can't be read or decoded is moved aside (kept, not
    /// overwritten) and reported; entries older than `storageRetention` are dropped.
    private func loadStorage() {
        guard FileManager.default.fileExists(atPath: storageFile.path) else { return }
        do {
            let data = try Data(contentsOf: storageFile)
            let decoder = JSONDecoder()
            if let file = try? decoder.decode(StoredFile.self, from: data) {  // Not the current format: tried as the first one below.
                for (id, scene) in file.scenes {
                    storedScenes[id] = scene.values
                    storedSeen[id] = scene.lastSeen
                }
            } else {
                // The first format: values by scene, without dates (every scene counts as seen now).
                storedScenes = try decoder.decode([String: [String: Data]].self, from: data)
                for id in storedScenes.keys { storedSeen[id] = Date() }
            }
            expireStoredScenes()
        } catch {
            let aside = storageFile.deletingLastPathComponent()
                .appendingPathComponent("scene-storage.corrupt-\(Int(Date().timeIntervalSince1970)).json")
            do {
                try FileManager.default.moveItem(at: storageFile, to: aside)
                problem(
                    "the @SceneStorage file \(storageFile.path) could not be read (\(error)); it was moved to \(aside.lastPathComponent) and windows start afresh"
                )
            } catch let moveError {
                problem(
                    "the @SceneStorage file \(storageFile.path) could not be read (\(error)) nor moved aside (\(moveError)); it is left as it is and nothing will be saved over it"
                )
                storageWritable = false
            }
        }
    }

    /// Whether the file may be written (not when a corrupt one couldn't be moved aside).
    private var storageWritable = true

    /// Drops the stored values of scenes not seen for longer than `storageRetention`.
    func expireStoredScenes(now: Date = Date()) {
        for (id, seen) in storedSeen where now.timeIntervalSince(seen) > storageRetention && scenes[id]?.sink == nil {
            storedScenes[id] = nil
            storedSeen[id] = nil
        }
    }

    /// Writes the @SceneStorage file now (also done 50 ms after any change, and when the server stops).
    /// A failure is logged and kept in `storageProblem`.
    public func saveStorage() {
        saveScheduled = false
        guard storageWritable else { return }
        for (id, scene) in scenes where storedScenes[id] != nil {
            storedSeen[id] = max(storedSeen[id] ?? .distantPast, scene.lastSeen)
        }
        var file = StoredFile(scenes: [:])
        for (id, values) in storedScenes {
            file.scenes[id] = .init(lastSeen: storedSeen[id] ?? Date(), values: values)
        }
        do {
            let data = try JSONEncoder().encode(file)
            try data.write(to: storageFile, options: .atomic)
        } catch {
            problem("could not write the @SceneStorage file \(storageFile.path): \(error.localizedDescription)")
        }
    }

    /// Closes a scene and frees it (its @SceneStorage stays saved; its document saves and closes when no
    /// other window shows it).
    public func remove(_ scene: SceneInstance) {
        detachDocument(scene)
        scene.close()
        scenes[scene.id] = nil
    }

    /// The App's own `@StateObject` (or `@State`) object of a type, shared by every window.
    public func appObject<T: AnyObject>(_ type: T.Type) -> T? {
        for slot in appSlots.values { if let o = slot.value as? T { return o } }
        return nil
    }

    /// Frees scenes whose window has been gone longer than `retention`, and forgets the @SceneStorage of
    /// scenes not seen for `storageRetention`.
    public func sweep(now: Date = Date()) {
        expireStoredScenes(now: now)
        for (_, s) in scenes where s.sink == nil && now.timeIntervalSince(s.lastSeen) > retention { remove(s) }
    }

    private var connections: UInt64 = 0
    /// A new socket binding number (never 0).
    func nextConnection() -> UInt64 {
        connections += 1
        return connections
    }

    /// Closes the socket of a scene's window, as a dropped connection would (the page reconnects by
    /// itself and finds its scene as it was). Returns whether the scene had a connected window.
    @discardableResult
    public func disconnect(sceneID: String) -> Bool {
        guard let scene = scenes[sceneID], let hangUp = scene.hangUp else { return false }
        hangUp()
        return true
    }

    /// Whether a scene's window is connected.
    public func isConnected(sceneID: String) -> Bool { scenes[sceneID]?.sink != nil }

    static func randomID() -> String {
        var g = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max, using: &g)) }.joined()
    }
}
