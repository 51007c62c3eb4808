import Foundation
import Testing
@testable import SwiftUIWeb

enum Pane: String { case library, settings }          // not Codable: stored by raw value, like Apple's
enum Level: Int { case low = 1, high = 3 }
struct Placement: Codable, Equatable { var x = 0, y = 0 }

struct AllStorageTypes: View {
    @SceneStorage("bool") private var bool = false
    @SceneStorage("int") private var int = 0
    @SceneStorage("double") private var double = 0.5
    @SceneStorage("string") private var string = "a"
    @SceneStorage("url") private var url = URL(string: "https://example.com/a")!
    @SceneStorage("data") private var data = Data([1])
    @SceneStorage("pane") private var pane = Pane.library
    @SceneStorage("level") private var level = Level.low
    @SceneStorage("optionalPane") private var optionalPane: Pane?
    @SceneStorage("optionalInt") private var optionalInt: Int?
    @SceneStorage("window") private var window = Placement()

    var body: some View {
        VStack {
            // A Double in a Text's interpolation shows six decimals, as in SwiftUI.
            Text("\(bool) \(int) \(double) \(string) \(url.absoluteString) \(data.count) \(pane.rawValue) \(level.rawValue) \(optionalPane?.rawValue ?? "nil") \(optionalInt.map(String.init) ?? "nil") \(window.x),\(window.y)")
            Button("Change") {
                bool = true; int = 7; double = 2.25; string = "b"; url = URL(string: "https://example.com/b")!
                data = Data([1, 2, 3]); pane = .settings; level = .high; optionalPane = .settings; optionalInt = 42
                window = Placement(x: 3, y: 4)
            }
        }
    }
}

struct StorageTypesApp: App {
    var body: some Scene { WindowGroup { AllStorageTypes() } }
}

@Suite @MainActor struct SceneStorageTypeTests {
    @Test func appleTypesRawRepresentablesOptionalsAndCodableSurviveARestart() {
        let dir = tempDir()
        let host = AppHost(app: StorageTypesApp(), storageDirectory: dir)
        let scene = host.newScene()
        #expect(scene.document().contains("false 0 0.500000 a https://example.com/a 1 library 1 nil nil 0,0"))
        scene.click("Change")
        let changed = "true 7 2.250000 b https://example.com/b 3 settings 3 settings 42 3,4"
        #expect(scene.text(changed))
        host.saveStorage()
        let restarted = AppHost(app: StorageTypesApp(), storageDirectory: dir)
        #expect(restarted.scene(id: scene.id)?.document().contains(changed) == true)
    }
}
