import Foundation

// Sending changes: scheduling a pass, diffing it against the page's tree, and the first document.

extension SceneInstance {
    /// Invalidates a scene from any thread (hopping to the main actor).
    nonisolated static func invalidate(_ scene: SceneInstance?) {
        guard let scene else { return }
        Task { @MainActor in scene.invalidate() }
    }

    /// Marks the whole scene for re-rendering and schedules a flush.
    func invalidate() {
        needsFull = true
        schedule()
    }

    func schedule() {
        if dirty || id == "app" { return }
        dirty = true
        Task { @MainActor in if self.dirty { self.flush() } }
    }

    /// Re-renders and returns the patches against the last rendering (and sends them if connected).
    /// `echo` is the value an input event just set: a `value`/`checked` patch repeating it to its own
    /// element is left out, so a fast typist's field is never reset to an older value.
    @discardableResult
    public func flush() -> [Patch] { flush(echo: nil) }

    @discardableResult
    func flush(echo: (id: String, value: String)?) -> [Patch] {
        var patches: [Patch] = []
        // Life-cycle hooks may change state again: settle in a few passes.
        for _ in 0..<4 {
            applyMarks()
            dirty = false
            let oldTitle = title
            let new = render()
            if let old = lastTree {
                Differ.diff(old, new, into: &patches)
            } else {
                patches.append(.replace(id: "root", html: new.html))
            }
            if title != oldTitle { patches.append(.title(title)) }
            lastTree = new
            if !dirty { break }
        }
        if let echo {
            patches.removeAll {
                if case .attribute(echo.id, let name, let value) = $0, name == "value" || name == "checked" {
                    return value == echo.value
                }
                return false
            }
        }
        patches += pending
        pending = []
        if let animation = pendingAnimation, !patches.isEmpty {
            patches.insert(.animate(seconds: animation.duration + animation.delayTime, curve: animation.curve), at: 0)
        }
        pendingAnimation = nil
        if !patches.isEmpty {
            if let sink { sink("[" + patches.map(\.json).joined(separator: ",") + "]") } else { pageInSync = false }
        }
        return patches
    }

    /// Full HTML document for the first response.
    public func document() -> String {
        String(decoding: documentUTF8(), as: UTF8.self)
    }

    /// The page as UTF-8, as the server sends it (a `String` of a large page would cost a validation of every
    /// byte just to be turned back into bytes).
    package func documentUTF8() -> [UInt8] {
        applyMarks()
        needsFull = true
        var tree = render()
        if dirty {
            dirty = false
            tree = render()
        }
        lastTree = tree
        pageInSync = true
        var page: [UInt8] = []
        page.reserveCapacity(max(ClientAssets.css.utf8.count + 4_096, host.documentSizes[group ?? "", default: 0]))
        page +=
            """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">\
            <title>
            """.utf8
        HTML.escape(title, into: &page)
        page += "</title><style>".utf8
        page += ClientAssets.css.utf8
        page += "</style></head><body data-scene=\"".utf8
        HTML.escape(id, into: &page)
        page += "\">".utf8
        tree.html(into: &page)
        page += "<script src=\"/_swiftuiweb/client.js\"></script></body></html>".utf8
        host.documentSizes[group ?? ""] = page.count
        return page
    }
}
