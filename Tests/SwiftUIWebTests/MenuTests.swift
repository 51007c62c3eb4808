import Foundation
import Testing

@testable import SwiftUIWeb

/// `Menu` in a window and `contextMenu` on a view: ARIA menus whose items run their actions.
@MainActor
@Suite("Menus in windows")
struct MenuTests {
    struct Editor: View {
        @State private var log: [String] = []
        @State private var bold = false
        var body: some View {
            VStack {
                Menu("Actions") {
                    Button("Duplicate") { log.append("duplicate") }
                    Toggle("Bold", isOn: $bold)
                    Divider()
                    Menu("Share") {
                        Button("Copy link") { log.append("copy") }
                    }
                    Button("Delete", role: .destructive) { log.append("delete") }.disabled(true)
                }
                Menu("Save") {
                    Button("Save as…") { log.append("save as") }
                } primaryAction: {
                    log.append("save")
                }
                Text("Dose").contextMenu {
                    Button("Mark taken") { log.append("taken") }
                    Button("Skip") { log.append("skipped") }
                }
                Text("Log: " + log.joined(separator: ","))
                Text(bold ? "Bold on" : "Bold off")
            }
        }
    }

    private func click(_ scene: SceneInstance, _ label: String) throws {
        let found = try #require(item(scene, label))
        scene.handle(event: ClientEvent(t: "click", id: found.id))
    }

    private func item(_ scene: SceneInstance, _ label: String) -> Node? {
        scene.tree.first { ($0.attr("role") ?? "").hasPrefix("menuitem") && $0.textContent.contains(label) }
    }

    @Test func aMenuButtonWithItemsAndASubmenu() throws {
        let scene = window { Editor() }
        let button = try #require(
            scene.tree.first { $0.attr("aria-haspopup") == "menu" && $0.textContent == "Actions" })
        #expect(button.attr("data-menu") == "1" && button.attr("aria-expanded") == "false")
        let controls = try #require(button.attr("aria-controls"))
        let menu = try #require(scene.tree.find(id: controls))
        #expect(menu.attr("role") == "menu")
        // Items: a button, a checkable toggle, a separator, a submenu group, a disabled destructive button.
        #expect(menu.first { $0.attr("role") == "menuitemcheckbox" }?.attr("aria-checked") == "false")
        #expect(menu.first { $0.attr("role") == "separator" } != nil)
        #expect(menu.first { $0.attr("role") == "group" }?.textContent.hasPrefix("Share") == true)
        try click(scene, "Duplicate")
        #expect(scene.text("Log: duplicate"))
        try click(scene, "Copy link")
        #expect(scene.text("Log: duplicate,copy"))
        try click(scene, "Bold")
        #expect(scene.text("Bold on"))
        // The disabled item is not registered: a forged click does nothing.
        let delete = try #require(item(scene, "Delete"))
        #expect(delete.attr("disabled") == "true")
        scene.handle(event: ClientEvent(t: "click", id: delete.id))
        #expect(!scene.text("delete"))
    }

    @Test func aSplitMenuRunsItsPrimaryAction() throws {
        let scene = window { Editor() }
        let primary = try #require(scene.tree.first { $0.attr("class")?.contains("sw-menu-primary") == true })
        #expect(primary.attr("data-menu") == nil)
        scene.handle(event: ClientEvent(t: "click", id: primary.id))
        #expect(scene.text("Log: save"))
        let arrow = String(primary.id.dropLast(2)) + ".t"
        #expect(scene.tree.find(id: arrow)?.attr("aria-label") == "More")
        try click(scene, "Save as")
        #expect(scene.text("Log: save,save as"))
    }

    @Test func aContextMenuBelongsToItsView() throws {
        let scene = window { Editor() }
        let dose = try #require(scene.tree.first { $0.attr("data-context") != nil })
        #expect(dose.textContent == "Dose")
        let menuID = try #require(dose.attr("data-context"))
        let menu = try #require(scene.tree.find(id: menuID))
        #expect(menu.attr("class")?.contains("sw-context") == true)
        #expect(menu.first { $0.attr("role") == "menu" }?.textContent == "Mark takenSkip")
        try click(scene, "Skip")
        #expect(scene.text("Log: skipped"))
    }
}
