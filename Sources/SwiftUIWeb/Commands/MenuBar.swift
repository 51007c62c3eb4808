import Foundation

private struct InMenuKey: EnvironmentKey { static var defaultValue: Bool { false } }
extension EnvironmentValues {
    /// Views are being rendered as menu items (buttons become `menuitem`s, dividers separators).
    var isInMenu: Bool {
        get { self[InMenuKey.self] }
        set { self[InMenuKey.self] = newValue }
    }
}

/// Builds a window's menu bar: the app menu, File, Edit, View, the app's own menus, Window and Help, with
/// the standard items for what the app has (window groups, documents, settings) and the app's commands.
/// Menus are ARIA menus: a `menubar` of `menuitem` buttons, each opening a `menu` of items.
@MainActor
struct MenuBar {
    let scene: SceneInstance
    let context: RenderContext
    let catalog: SceneCatalog

    /// One item the menu bar adds itself.
    struct Item {
        var title: String
        var shortcut: KeyboardShortcut?
        var enabled = true
        /// Runs on the server when clicked.
        var action: (() -> Void)?
        /// Runs in the page when clicked (copy, print, toggle sidebar…), with optional data.
        var client: String?
        var clientData: String?
    }

    func build() -> Node? {
        let savedEnvironment = context.environment
        context.environment.isInMenu = true
        defer { context.environment = savedEnvironment }
        var collector = CommandsCollector(context: context)
        for commands in catalog.commands { collector.add(commands) }

        var sections: [CommandGroupPlacement.StandardMenu: [[Node]]] = [:]
        for placement in CommandGroupPlacement.order {
            let group = collector.groups[placement] ?? .init()
            let base = "mb." + placement.name
            var nodes: [Node] = []
            for (i, view) in group.before.enumerated() { nodes += context.render(view, path: "\(base).b\(i)") }
            if let replacement = group.replacement {
                for (i, view) in replacement.enumerated() { nodes += context.render(view, path: "\(base).r\(i)") }
            } else {
                for (i, item) in standardItems(placement, builtIns: collector.builtIns).enumerated() {
                    nodes.append(node(item, id: "\(base).s\(i)"))
                }
            }
            for (i, view) in group.after.enumerated() { nodes += context.render(view, path: "\(base).a\(i)") }
            if !nodes.isEmpty { sections[placement.menu, default: []].append(nodes) }
        }

        var menus: [(String, [[Node]])] = []
        menus.append((scene.host.appName, sections[.app] ?? []))
        menus.append(("File", sections[.file] ?? []))
        menus.append(("Edit", sections[.edit] ?? []))
        menus.append(("View", sections[.view] ?? []))
        for (i, (name, view)) in collector.customMenus.enumerated() {
            menus.append((name, [context.render(view, path: "mb.custom\(i)")]))
        }
        menus.append(("Window", sections[.window] ?? []))
        menus.append(("Help", sections[.help] ?? []))

        var menuNodes: [Node] = []
        for (index, (title, groups)) in menus.enumerated() where groups.contains(where: { !$0.isEmpty }) {
            let id = "mb.\(index)"
            var items: [Node] = []
            for (g, group) in groups.enumerated() where !group.isEmpty {
                if !items.isEmpty {
                    items.append(
                        Node("div", id: "\(id).sep\(g)", attributes: [("role", "separator"), ("class", "sw-menu-sep")]))
                }
                items += group
            }
            menuNodes.append(
                Node(
                    "div", id: id, attributes: [("class", "sw-menu")],
                    children: [
                        Node(
                            "button", id: id + ".t",
                            attributes: [
                                ("class", "sw-menu-title"), ("role", "menuitem"), ("aria-haspopup", "menu"),
                                ("aria-expanded", "false"), ("aria-controls", id + ".m"), ("data-menu", "1"),
                            ], text: title),
                        Node(
                            "div", id: id + ".m",
                            attributes: [("class", "sw-menu-items"), ("role", "menu"), ("aria-label", title)],
                            children: items),
                    ]))
        }
        guard !menuNodes.isEmpty else { return nil }
        return Node(
            "nav", id: "mb", attributes: [("class", "sw-menubar"), ("role", "menubar"), ("aria-label", "Menu bar")],
            children: menuNodes)
    }

    /// A menu item node for an item the menu bar adds.
    private func node(_ item: Item, id: String) -> Node {
        var attributes: [(String, String)] = [("class", "sw-menuitem"), ("role", "menuitem")]
        if let action = item.action, item.enabled {
            context.addAction(id, action)
            attributes.append(("data-click", "1"))
        }
        if let client = item.client, item.enabled {
            attributes.append(("data-client", client))
            if let data = item.clientData { attributes.append(("data-arg", data)) }
        }
        attributes.append(("disabled", item.enabled ? "false" : "true"))
        if let shortcut = item.shortcut { attributes.append(("data-shortcut", shortcut.code)) }
        var children = [Node("span", id: id + ".l", attributes: [("class", "sw-menuitem-label")], text: item.title)]
        if let shortcut = item.shortcut {
            children.append(Node("span", id: id + ".k", attributes: [("class", "sw-shortcut")], text: shortcut.label))
        }
        return Node("button", id: id, attributes: attributes, children: children)
    }

    /// The items the system puts at a placement, for what this app and window have.
    private func standardItems(_ placement: CommandGroupPlacement, builtIns: Set<CommandsCollector.BuiltIn>) -> [Item] {
        let host = scene.host
        let kind = catalog.entry(for: scene.group)?.kind
        let document = kind == .document ? (try? host.documentController(for: scene)) : nil  // A window whose document failed to open has no document items.
        switch placement {
        case .appSettings:
            guard catalog.hasSettings else { return [] }
            return [
                Item(
                    title: "Settings…", shortcut: KeyboardShortcut(","), client: "window",
                    clientData: "/?g=" + SceneCatalog.settingsID)
            ]
        case .newItem:
            if catalog.removesDefaultCommands { return [] }
            var items: [Item] = []
            if !catalog.documentGroups.isEmpty {
                if let index = catalog.documentGroups.firstIndex(where: { $0.canCreate }) {
                    items.append(
                        Item(
                            title: "New", shortcut: KeyboardShortcut("n"),
                            action: { [weak scene] in
                                guard let scene else { return }
                                do { scene.openURL("/?w=" + (try host.createDocument(groupIndex: index)).id) } catch {
                                    scene.report(DocumentController.describe(error))
                                }
                            }))
                }
                items.append(
                    Item(
                        title: "Open…", shortcut: KeyboardShortcut("o"), client: "navigate",
                        clientData: "/?g=" + SceneCatalog.browserID))
            } else if let group = catalog.entries.first(where: { $0.kind == .windowGroup }) {
                let url =
                    group.id.map { "/?g=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") }
                    ?? "/"
                items.append(
                    Item(title: "New Window", shortcut: KeyboardShortcut("n"), client: "open", clientData: url))
            }
            return items
        case .saveItem:
            guard let document else { return [] }
            return [
                Item(
                    title: "Save", shortcut: KeyboardShortcut("s"), enabled: document.isEditable,
                    action: { Task { @MainActor in await document.save() } }),
                Item(
                    title: "Duplicate", shortcut: KeyboardShortcut("s", modifiers: [.command, .shift]),
                    action: { [weak scene] in
                        guard let scene else { return }
                        do {
                            let copy = try host.duplicateDocument(document.name)
                            scene.openURL("/?w=" + (try host.newDocumentScene(named: copy)).id)
                        } catch { scene.report(DocumentController.describe(error)) }
                    }),
                Item(
                    title: "Rename…",
                    action: { [weak scene] in
                        scene?.renaming = true
                        scene?.invalidate()
                    }),
                Item(
                    title: "Revert to Saved", enabled: document.isEdited && document.isEditable,
                    action: { document.revert() }),
            ]
        case .importExport:
            guard document != nil else { return [] }
            return [Item(title: "Download", client: "download", clientData: "/_swiftuiweb/download?w=" + scene.id)]
        case .printItem:
            return [Item(title: "Print…", shortcut: KeyboardShortcut("p"), client: "print")]
        case .undoRedo:
            guard let undo = document?.undoManager else { return [] }
            return [
                Item(
                    title: undo.undoMenuItemTitle, shortcut: KeyboardShortcut("z"), enabled: undo.canUndo,
                    action: { undo.undo() }),
                Item(
                    title: undo.redoMenuItemTitle, shortcut: KeyboardShortcut("z", modifiers: [.command, .shift]),
                    enabled: undo.canRedo, action: { undo.redo() }),
            ]
        case .pasteboard:
            return [
                Item(title: "Cut", shortcut: KeyboardShortcut("x"), client: "cut"),
                Item(title: "Copy", shortcut: KeyboardShortcut("c"), client: "copy"),
                Item(title: "Paste", shortcut: KeyboardShortcut("v"), client: "paste"),
                Item(title: "Select All", shortcut: KeyboardShortcut("a"), client: "selectAll"),
            ]
        case .textEditing:
            guard builtIns.contains(.textEditing) else { return [] }
            return [
                Item(title: "Make Upper Case", client: "upper"),
                Item(title: "Make Lower Case", client: "lower"),
                Item(title: "Capitalize", client: "capitalize"),
            ]
        case .toolbar:
            guard builtIns.contains(.toolbar) else { return [] }
            return [
                Item(
                    title: "Show or Hide Toolbar", shortcut: KeyboardShortcut("t", modifiers: [.command, .option]),
                    client: "toggleToolbar")
            ]
        case .sidebar:
            guard builtIns.contains(.sidebar) else { return [] }
            return [
                Item(
                    title: "Toggle Sidebar", shortcut: KeyboardShortcut("s", modifiers: [.command, .control]),
                    client: "toggleSidebar")
            ]
        case .windowSize:
            return [
                Item(
                    title: "Enter Full Screen", shortcut: KeyboardShortcut("f", modifiers: [.command, .control]),
                    client: "fullscreen")
            ]
        case .singleWindowList:
            return catalog.entries.filter { $0.kind == .window }.map { entry in
                Item(
                    title: entry.title ?? entry.id ?? "Window", client: "window", clientData: "/?g=" + (entry.id ?? ""))
            }
        default:
            return []
        }
    }
}
