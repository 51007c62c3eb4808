import Foundation

// One pass: the environment a window's views see, its root view and window bar, and the life-cycle hooks after.

extension SceneInstance {
    func makeContext() -> RenderContext {
        let context = RenderContext(scene: self)
        // The window's edit mode: a slot of the window (not of a view), so a change renders the whole window.
        let editMode = slot(for: "_swiftuiweb.editMode", context: context) { EditMode.inactive }
        if let actions = actionEnvironment, actions.editMode === editMode {
            // The same actions as last pass, kept (not made again), so an `EquatableView` sees the same environment.
            context.environment = actions.environment
        } else {
            var open = OpenWindowAction { [weak self] group in self?.openWindow(group: group) }
            open.openValue = { [weak self] group, type, value in
                self?.openWindow(group: group, type: type, value: value)
            }
            context.environment.openWindow = open
            context.environment.dismissWindow = DismissWindowAction { [weak self] own, group, type, value in
                self?.dismissWindows(own: own, group: group, type: type, value: value)
            }
            installDocumentActions(in: &context.environment)
            context.environment.editMode = Binding(
                get: { editMode.value as? EditMode ?? .inactive },
                set: { [weak editMode] mode in
                    guard let editMode else { return }
                    editMode.value = mode
                    editMode.scene?.changed(editMode)
                })
            actionEnvironment = (context.environment, editMode)
        }
        context.environment.scenePhase = phase
        context.environment.colorScheme = preferredColorScheme ?? systemColorScheme
        return context
    }

    /// Renders the scene's root view to a node tree, with the window bar (title, toolbar, New Window).
    func render() -> Node {
        renderCount += 1
        let context = makeContext()
        context.forcing = needsFull
        needsFull = false
        live = []
        let catalog = SceneCatalog(app: host.app)
        var nodes = context.render(
            RootView(content: host.rootView(for: self, catalog: catalog)), path: "v", axis: .vertical)
        let isDocument = catalog.entry(for: group)?.kind == .document
        if renaming, isDocument {
            let sheet = context.render(RenameDocumentView(scene: self), path: "rename", axis: .vertical)
            nodes.append(
                Node(
                    "div", id: "rename~", attributes: [("class", "sw-overlay")],
                    children: [
                        Node(
                            "div", id: "rename~s",
                            attributes: [("class", "sw-sheet"), ("role", "dialog"), ("aria-label", "Rename Document")],
                            children: sheet)
                    ]))
        }
        var values = FocusedValues()
        focusDependent = false
        for entry in context.focused {
            if entry.sceneWide || entry.covers(focusedElement) { entry.apply(&values) }
            if !entry.sceneWide { focusDependent = true }
        }
        focusedValues = values
        focusTargets = context.focusTargets
        // Without commands or documents, a window has the same menu bar every pass (all its items act in
        // the page, none registers an action): it is built once.
        let menuBar: Node?
        if catalog.commands.isEmpty && catalog.documentGroups.isEmpty {
            if staticMenuBar == nil {
                staticMenuBar = .some(MenuBar(scene: self, context: context, catalog: catalog).build())
            }
            menuBar = staticMenuBar ?? nil
        } else {
            menuBar = MenuBar(scene: self, context: context, catalog: catalog).build()
        }
        records = records.filter { live.contains($0.key) }
        for (key, entry) in observed {
            let paths = entry.paths.filter { live.contains($0) }
            if paths.isEmpty {
                entry.subscription.cancel()
                observed[key] = nil
            } else {
                observed[key]?.paths = paths
            }
        }
        actions = context.actions
        inputs = context.inputs
        title = context.title ?? catalog.entry(for: group)?.title ?? ""
        if isDocument, let controller = try? host.documentController(for: self) {  // A document that failed to open keeps the view's title.
            title = DocumentLibrary.displayName(controller.name) + (controller.isEdited ? " — Edited" : "")
        }
        slots = slots.filter { context.usedSlots.contains($0.key) }
        openURLHandlers = context.openURLHandlers
        externalPreferences = context.externalPreferences
        if context.preferredColorScheme != preferredColorScheme {
            // The window's scheme changed: render again, so that every view reads it from the environment.
            preferredColorScheme = context.preferredColorScheme
            invalidate()
        }
        runLifecycle(context)
        deliverPendingURLs()
        let newWindowURL =
            group.map { "/?g=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") } ?? "/"
        // "New Window" belongs to window groups (and the start page); a single window or a document's has none.
        let kind = catalog.entry(for: group)?.kind ?? .windowGroup
        let opensNewWindows = kind == .windowGroup || kind == .documentBrowser
        let bar = Node(
            "header", id: "bar", attributes: [("class", "sw-windowbar")],
            children: (menuBar.map { [$0] } ?? []) + [
                Node(
                    "div", id: "bar.l", attributes: [("class", "sw-toolbar sw-leading")],
                    children: context.toolbar.filter { $0.attributes.first?.1.contains("sw-leading") == true }),
                Node(
                    "div", id: "bar.t", attributes: [("class", "sw-window-title")],
                    text: context.titleShown ? "" : title),
                Node(
                    "div", id: "bar.r", attributes: [("class", "sw-toolbar")],
                    children: context.toolbar.filter { $0.attributes.first?.1.contains("sw-leading") != true }),
            ] + (opensNewWindows ? [newWindowLink(newWindowURL)] : []))
        var noticeNodes: [Node] = []
        if let notice {
            context.addAction("notice.x") { [weak self] in
                self?.notice = nil
                self?.invalidate()
            }
            noticeNodes.append(
                Node(
                    "div", id: "notice", attributes: [("class", "sw-notice"), ("role", "alert")],
                    children: [
                        Node("span", id: "notice.t", text: notice),
                        Node(
                            "button", id: "notice.x",
                            attributes: [("class", "sw-button sw-borderless"), ("data-click", "1")], text: "Dismiss"),
                    ]))
            actions = context.actions
        }
        let scheme = preferredColorScheme.map { $0 == .dark ? "dark" : "light" } ?? ""
        return Node(
            "main", id: "root", attributes: [("class", "sw-window"), ("data-scheme", scheme)],
            children: [bar] + noticeNodes + [
                Node("div", id: "content", attributes: [("class", "sw-content")], children: nodes)
            ])
    }

    /// The window bar's "New Window" link.
    func newWindowLink(_ url: String) -> Node {
        Node(
            "a", id: "bar.new",
            attributes: [("class", "sw-newwindow"), ("href", url), ("target", "_blank"), ("title", "New Window")],
            children: [
                Node(
                    "span", id: "bar.new.i", attributes: [("class", "sw-symbol")],
                    raw: Symbols.svg("macwindow.badge.plus")),
                Node("span", id: "bar.new.t", text: "New Window"),
            ])
    }

    /// Runs onAppear / onDisappear / onChange / task hooks after a pass.
    func runLifecycle(_ context: RenderContext) {
        var fire: [() -> Void] = []
        for (path, f) in context.appear where appeared[path] == nil { fire.append(f) }
        for (path, f) in disappearing where context.disappear[path] == nil { fire.append(f) }
        appeared = context.appear
        disappearing = context.disappear
        var values: [String: (value: Any, equals: (Any) -> Bool)] = [:]
        for hook in context.changes {
            if let old = changeValues[hook.path] {
                if !old.equals(hook.value) {
                    let h = hook
                    fire.append { h.fire(old.value) }
                }
            } else if hook.initial {
                let h = hook
                fire.append { h.fire(nil) }
            }
            values[hook.path] = (hook.value, hook.equals)
        }
        changeValues = values
        for (path, r) in running where context.tasks[path] == nil {
            r.task.cancel()
            running[path] = nil
        }
        for (path, hook) in context.tasks {
            if let r = running[path] {
                if r.hook.equals(hook.id) { continue }
                r.task.cancel()
            }
            let work = hook.work
            running[path] = (hook, Task(priority: hook.priority) { @MainActor in await work() })
        }
        for f in fire { f() }
    }
}
