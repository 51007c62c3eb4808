import Foundation

// What a window asks of the browser: other windows opened or closed, URLs opened, notices shown.

extension SceneInstance {
    /// Asks the browser to open a new window of a window group (a `Window` or `Settings` scene's one
    /// window is reused: the browser window is named after it).
    func openWindow(group: String?) {
        let url = group.map { "/?g=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") } ?? "/"
        let kind = SceneCatalog(app: host.app).entry(for: group)?.kind
        if let group, kind == .window || kind == .settings || kind == .previews {
            pending.append(.openNamed(url: url, name: "swiftuiweb-" + group))
        } else {
            pending.append(.open(url: url))
        }
        schedule()
    }

    /// The reserved @SceneStorage key of the value a window presents.
    static let valueKey = "_swiftuiweb.value"

    /// A binding to the value the window presents (`WindowGroup(for:)`), kept in its @SceneStorage.
    func presentedValue<D: Codable & Hashable>(_ type: D.Type) -> Binding<D?> {
        Binding(
            get: { [weak self] in
                guard let data = self?.sceneStorage[SceneInstance.valueKey] else { return nil }
                do { return try PresentedValueCoding.decode(D.self, data) } catch {
                    self?.host.logger.error(
                        "window \(self?.id ?? "?"): its presented \(D.self) no longer decodes (\(error)); it presents none"
                    )
                    return nil
                }
            },
            set: { [weak self] value in
                guard let self else { return }
                self.sceneStorage[SceneInstance.valueKey] = value.flatMap { PresentedValueCoding.encode($0) }
                self.invalidate()
            })
    }

    /// Opens a window presenting a value: the group with this id (or the first for the value's type); the
    /// window already presenting the value is shown again instead of a second one.
    func openWindow(group: String?, type: ObjectIdentifier, value: Data) {
        let catalog = SceneCatalog(app: host.app)
        guard
            let entry = group.flatMap({ catalog.entry(for: $0) })
                ?? catalog.entries.first(where: { $0.valueType == type }),
            entry.valueType == type
        else {
            report("openWindow(value:): no window group presents this type of value")
            return
        }
        if let existing = host.scenes.values.first(where: {
            $0.group == entry.id && $0.sink != nil && $0.sceneStorage[SceneInstance.valueKey] == value
        }) {
            pending.append(.openNamed(url: "/?w=" + existing.id, name: "swiftuiweb-" + existing.id))
        } else {
            let scene = host.newScene(group: entry.id)
            scene.sceneStorage[SceneInstance.valueKey] = value
            pending.append(.open(url: "/?w=" + scene.id))
        }
        schedule()
    }

    /// Closes this window, or the windows of a group and/or presenting a value.
    func dismissWindows(own: Bool, group: String?, type: ObjectIdentifier?, value: Data?) {
        if own {
            pending.append(.close)
            schedule()
            return
        }
        for scene in host.scenes.values where scene.sink != nil {
            if let group, scene.group != group { continue }
            if let value, scene.sceneStorage[SceneInstance.valueKey] != value { continue }
            scene.pending.append(.close)
            scene.schedule()
        }
    }

    /// Opens a URL of this server in a new browser window.
    func openURL(_ url: String) {
        pending.append(.open(url: url))
        schedule()
    }

    /// Loads a URL of this server in this window.
    func navigate(_ url: String) {
        pending.append(.navigate(url: url))
        schedule()
    }

    /// Shows a message at the top of the window (a command that failed), until dismissed.
    func report(_ message: String) {
        notice = message
        invalidate()
    }
}
