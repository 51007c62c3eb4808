import Foundation

/// A minimal DOM change sent to the browser.
enum Patch: Equatable, Sendable {
    /// Replace the element with this id by new HTML.
    case replace(id: String, html: String)
    /// Set the text content of the element with this id.
    case text(id: String, text: String)
    /// Set one attribute.
    case attribute(id: String, name: String, value: String)
    /// Set the window title.
    case title(String)

    /// JSON encoding for the wire.
    var json: String {
        switch self {
        case .replace(let id, let html): return "{\"op\":\"replace\",\"id\":\(JSON.quote(id)),\"html\":\(JSON.quote(html))}"
        case .text(let id, let text): return "{\"op\":\"text\",\"id\":\(JSON.quote(id)),\"text\":\(JSON.quote(text))}"
        case .attribute(let id, let name, let value):
            return "{\"op\":\"attr\",\"id\":\(JSON.quote(id)),\"name\":\(JSON.quote(name)),\"value\":\(JSON.quote(value))}"
        case .title(let t): return "{\"op\":\"title\",\"text\":\(JSON.quote(t))}"
        }
    }
}

/// Computes the smallest set of patches turning one node tree into another.
enum Differ {
    static func diff(_ old: Node, _ new: Node, into patches: inout [Patch]) {
        if old == new { return }
        let sameShape = old.tag == new.tag && old.id == new.id && old.children.count == new.children.count
            && zip(old.children, new.children).allSatisfy { $0.id == $1.id && $0.tag == $1.tag }
            && (old.text == nil) == (new.text == nil)
        guard sameShape else { patches.append(.replace(id: old.id, html: new.html)); return }
        let oldNames = old.attributes.map(\.0), newNames = new.attributes.map(\.0)
        guard oldNames == newNames else { patches.append(.replace(id: old.id, html: new.html)); return }
        for (o, n) in zip(old.attributes, new.attributes) where o.1 != n.1 {
            patches.append(.attribute(id: new.id, name: n.0, value: n.1))
        }
        if old.text != new.text, let t = new.text { patches.append(.text(id: new.id, text: t)) }
        for (o, n) in zip(old.children, new.children) { diff(o, n, into: &patches) }
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
