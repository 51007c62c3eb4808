import Foundation
import Testing

@testable import SwiftUIWeb

// Previews as an app written for Xcode declares them; the gallery finds them in this test binary.

#Preview("Greeting") {
    Text("Hello from a preview")
}

#Preview("Lights", traits: .sizeThatFitsLayout) {
    @Previewable @State var on = true
    Toggle("Lights on", isOn: $on)
    Text(on ? "The lights are on" : "The lights are off")
}

#Preview {
    Text("An unnamed preview")
}

#Preview("Landscape", traits: .fixedLayout(width: 300, height: 120), .landscapeLeft) {
    Text("Sideways")
}

#Preview("Sample data", traits: .modifier(SampleNames())) {
    SampleNameList()
}

/// A preview modifier whose shared context is a list of names, made once for every preview that uses it.
struct SampleNames: PreviewModifier {
    nonisolated(unsafe) static var madeCount = 0
    static func makeSharedContext() async throws -> [String] {
        madeCount += 1
        return ["Alpha", "Beta"]
    }
    func body(content: Content, context: [String]) -> some View {
        content.environment(\.previewSampleNames, context)
    }
}

struct SampleNamesKey: EnvironmentKey { static let defaultValue: [String] = [] }
extension EnvironmentValues {
    var previewSampleNames: [String] {
        get { self[SampleNamesKey.self] }
        set { self[SampleNamesKey.self] = newValue }
    }
}

struct SampleNameList: View {
    @Environment(\.previewSampleNames) var names
    var body: some View { Text("Names: " + names.joined(separator: ", ")) }
}

struct Badge_Previews: PreviewProvider {
    static var previews: some View {
        Text("A provider's preview").previewDisplayName("Badge, named")
    }
}

/// `#Preview`, `@Previewable`, `PreviewProvider` and the gallery window that shows them.
@MainActor
@Suite("Previews")
struct PreviewTests {
    /// The gallery window of an app (this test binary's previews).
    func gallery() -> SceneInstance {
        let host = AppHost(app: Harness { Text("The app's own window") }, storageDirectory: tempDir())
        let scene = host.sceneForRequest(group: SceneCatalog.previewsID)
        _ = scene.document()
        return scene
    }

    /// Opens the preview whose list entry shows `title`.
    func open(_ title: String, in scene: SceneInstance) throws {
        let link = try #require(
            scene.tree.first { $0.attr("data-click") != nil && $0.textContent.hasPrefix(title + "PreviewTests.swift") }
                ?? scene.tree.first { $0.attr("data-click") != nil && $0.textContent.hasPrefix(title) },
            "no preview \(title) in \(scene.html)")
        scene.handle(event: ClientEvent(t: "click", id: link.id))
        _ = scene.document()
    }

    @Test func theGalleryFindsEveryPreviewInTheBinary() throws {
        let titles = PreviewCatalog.items.map(\.title)
        for title in ["Greeting", "Lights", "PreviewTests", "Landscape", "Sample data", "Badge"] {
            #expect(titles.contains(title), "\(title) missing from \(titles)")
        }
        let greeting = try #require(PreviewCatalog.items.first { $0.title == "Greeting" })
        #expect(greeting.location.hasPrefix("SwiftUIWebTests/PreviewTests.swift:"))
        // Declared order within a file.
        let ours = PreviewCatalog.items.filter { $0.location.contains("PreviewTests.swift") }.map(\.title)
        #expect(ours == ["Greeting", "Lights", "PreviewTests", "Landscape", "Sample data"])
        let scene = gallery()
        for title in ["Greeting", "Lights", "Badge", "SwiftUIWebTests.Badge_Previews"] {
            #expect(scene.text(title))
        }
        #expect(scene.text("Choose a preview"))
        // The app's own windows don't list the gallery, and a plain request still opens the app's window.
        let host = scene.host
        let main = host.sceneForRequest(group: nil)
        _ = main.document()
        #expect(main.text("The app's own window") && !main.text("Previews"))
    }

    @Test func aPreviewShowsInItsFrameAndPreviewableStateWorks() throws {
        let scene = gallery()
        try open("Greeting", in: scene)
        #expect(scene.text("Hello from a preview"))
        // The default layout: a device-sized frame.
        #expect(scene.html.contains("width:393px") && scene.html.contains("height:852px"))

        try open("Lights", in: scene)
        #expect(scene.text("The lights are on"))
        let toggle = try #require(scene.tree.first { $0.tag == "input" && $0.attr("type") == "checkbox" })
        scene.handle(event: ClientEvent(t: "input", id: toggle.id, v: "false"))
        _ = scene.document()
        #expect(scene.text("The lights are off"))
        #expect(!scene.html.contains("height:852px"))  // .sizeThatFitsLayout

        try open("Landscape", in: scene)
        #expect(scene.text("Sideways") && scene.html.contains("width:300px") && scene.html.contains("height:120px"))
    }

    @Test func previewModifiersMakeTheirContextOnceAndWrapThePreview() async throws {
        let scene = gallery()
        try open("Sample data", in: scene)
        for _ in 0..<200 where !scene.text("Names: Alpha, Beta") {
            try await Task.sleep(for: .milliseconds(10))
            _ = scene.document()
        }
        #expect(scene.text("Names: Alpha, Beta"))
        // A second gallery window shares the context.
        let other = gallery()
        try open("Sample data", in: other)
        #expect(other.text("Names: Alpha, Beta"))
        #expect(SampleNames.madeCount == 1)
    }

    @Test func providersAndTheirDisplayNames() throws {
        let scene = gallery()
        try open("Badge", in: scene)
        #expect(scene.text("A provider's preview") && scene.text("Badge, named"))
        // Outside the gallery, preview modifiers change nothing.
        let plain = window {
            Text("Plain").previewDisplayName("Not shown").previewLayout(.fixed(width: 10, height: 10))
        }
        #expect(plain.text("Plain") && !plain.text("Not shown") && !plain.html.contains("width:10px"))
    }

    @Test func readingTheRecordsFreesEverySlotItAllocates() {
        let allocated = RuntimeRecords._UnsafeHandle.slotsAllocated.load(ordering: .relaxed)
        let freed = RuntimeRecords._UnsafeHandle.slotsFreed.load(ordering: .relaxed)
        let entries = RuntimeRecords.previewEntries()
        #expect(entries.count >= 5)
        let allocatedNow = RuntimeRecords._UnsafeHandle.slotsAllocated.load(ordering: .relaxed) - allocated
        let freedNow = RuntimeRecords._UnsafeHandle.slotsFreed.load(ordering: .relaxed) - freed
        #expect(allocatedNow == entries.count && freedNow == allocatedNow)
    }
}
