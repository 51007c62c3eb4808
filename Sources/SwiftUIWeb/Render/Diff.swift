import Foundation

/// A minimal DOM change sent to the browser.
public enum Patch: Equatable, Sendable {
    /// Replace the element with this id by new HTML.
    case replace(id: String, html: String)
    /// Set the text content of the element with this id.
    case text(id: String, text: String)
    /// Set one attribute.
    case attribute(id: String, name: String, value: String)
    /// Set the window title.
    case title(String)
    /// Open a new browser window on this URL (`openWindow`).
    case open(url: String)
    /// Open a URL of this server in a named browser window (a single window: opening it again reuses the tab).
    case openNamed(url: String, name: String)
    /// Load a URL of this server in the same browser window (a document opened from the start page).
    case navigate(url: String)
    /// Close this browser window (`dismissWindow`).
    case close
    /// Download a file this server made (a `fileExporter`'s document), as an attachment.
    case download(url: String)
    /// Remove the element with this id.
    case remove(id: String)
    /// Insert HTML into a parent, before a child (or at the end).
    case insert(parent: String, before: String?, html: String)
    /// The patches after this one are an animated change (`withAnimation`): style changes animate over `seconds`
    /// with a CSS timing `curve`, and inserted or removed views play their transitions.
    case animate(seconds: Double, curve: String)
    /// Give keyboard focus to the element with this id (`@FocusState` set by the app), or take it from the
    /// focused element when the id is empty.
    case focus(id: String)
    /// Show a system notification (Web Notifications) if the page has the person's permission; `tag` names it, so
    /// the same notification from several windows is shown once.
    case notify(tag: String, title: String, body: String)
    /// Ask the person for permission to show notifications (the page must have had a click moments before), and
    /// report the answer with a `notifications` event.
    case askNotificationPermission

    /// JSON encoding for the wire.
    public var json: String {
        switch self {
        case .replace(let id, let html):
            return "{\"op\":\"replace\",\"id\":\(JSON.quote(id)),\"html\":\(JSON.quote(html))}"
        case .text(let id, let text): return "{\"op\":\"text\",\"id\":\(JSON.quote(id)),\"text\":\(JSON.quote(text))}"
        case .attribute(let id, let name, let value):
            return
                "{\"op\":\"attr\",\"id\":\(JSON.quote(id)),\"name\":\(JSON.quote(name)),\"value\":\(JSON.quote(value))}"
        case .title(let t): return "{\"op\":\"title\",\"text\":\(JSON.quote(t))}"
        case .open(let url): return "{\"op\":\"open\",\"url\":\(JSON.quote(url))}"
        case .openNamed(let url, let name):
            return "{\"op\":\"open\",\"url\":\(JSON.quote(url)),\"name\":\(JSON.quote(name))}"
        case .navigate(let url): return "{\"op\":\"navigate\",\"url\":\(JSON.quote(url))}"
        case .close: return "{\"op\":\"close\"}"
        case .download(let url): return "{\"op\":\"download\",\"url\":\(JSON.quote(url))}"
        case .remove(let id): return "{\"op\":\"remove\",\"id\":\(JSON.quote(id))}"
        case .animate(let seconds, let curve):
            return "{\"op\":\"animate\",\"ms\":\(Int((seconds * 1000).rounded())),\"curve\":\(JSON.quote(curve))}"
        case .focus(let id): return "{\"op\":\"focus\",\"id\":\(JSON.quote(id))}"
        case .notify(let tag, let title, let body):
            return "{\"op\":\"notify\",\"tag\":\(JSON.quote(tag)),\"title\":\(JSON.quote(title)),\"body\":\(JSON.quote(body))}"
        case .askNotificationPermission: return "{\"op\":\"asknotify\"}"
        case .insert(let parent, let before, let html):
            return
                "{\"op\":\"insert\",\"id\":\(JSON.quote(parent)),\"before\":\(before.map(JSON.quote) ?? "null"),\"html\":\(JSON.quote(html))}"
        }
    }
}

/// Computes a small set of patches turning one node tree into another: attribute and text changes in
/// place, keyed insertion and removal of children (list rows), and replacement where the shape changed.
enum Differ {
    static func diff(_ old: Node, _ new: Node, into patches: inout [Patch]) {
        if old == new { return }
        guard old.tag == new.tag, old.id == new.id, old.raw == new.raw, (old.text == nil) == (new.text == nil),
            old.attributes.count == new.attributes.count,
            zip(old.attributes, new.attributes).allSatisfy({ $0.0 == $1.0 })
        else {
            patches.append(.replace(id: old.id, html: new.html))
            return
        }
        for (o, n) in zip(old.attributes, new.attributes) where o.1 != n.1 {
            patches.append(.attribute(id: new.id, name: n.0, value: n.1))
        }
        if old.text != new.text, let t = new.text { patches.append(.text(id: new.id, text: t)) }
        if old.children.count == new.children.count,
            zip(old.children, new.children).allSatisfy({ $0.id == $1.id && $0.tag == $1.tag })
        {
            for (o, n) in zip(old.children, new.children) { diff(o, n, into: &patches) }
            return
        }
        // Keyed children: removals, insertions, and diffs of the children both sides keep (same order).
        let oldIDs = old.children.map(\.id)
        let newIDs = new.children.map(\.id)
        let oldSet = Set(oldIDs)
        let newSet = Set(newIDs)
        guard oldSet.count == oldIDs.count, newSet.count == newIDs.count,
            oldIDs.filter(newSet.contains) == newIDs.filter(oldSet.contains)
        else {
            patches.append(.replace(id: old.id, html: new.html))
            return
        }
        var oldByID: [String: Node] = [:]
        for c in old.children { oldByID[c.id] = c }
        for c in old.children where !newSet.contains(c.id) { patches.append(.remove(id: c.id)) }
        var nextKept: String? = nil
        var chunks: [[Patch]] = []
        for c in new.children.reversed() {
            if let o = oldByID[c.id] {
                nextKept = c.id
                var sub: [Patch] = []
                diff(o, c, into: &sub)
                if !sub.isEmpty { chunks.append(sub) }
            } else {
                chunks.append([.insert(parent: new.id, before: nextKept, html: c.html)])
            }
        }
        for chunk in chunks.reversed() { patches += chunk }
    }
}

/// Minimal JSON string quoting and parsing of flat event objects.
enum JSON {
    static func quote(_ s: String) -> String {
        var out = "\""
        for ch in s.unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "<": out += "\\u003c"
            default:
                if ch.value < 0x20 { out += String(format: "\\u%04x", ch.value) } else { out.unicodeScalars.append(ch) }
            }
        }
        return out + "\""
    }
}
