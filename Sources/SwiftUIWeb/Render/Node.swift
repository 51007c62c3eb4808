/// One HTML element (or text run) of a rendered view tree.
package struct Node: Equatable, Sendable {
    var tag: String
    var id: String
    var attributes: [(String, String)]
    var text: String?
    var children: [Node]
    /// Trusted markup from SwiftUIWeb itself (symbol SVG), emitted unescaped. Never user text.
    var raw: String?

    package init(
        _ tag: String, id: String, attributes: [(String, String)] = [], text: String? = nil, children: [Node] = [],
        raw: String? = nil
    ) {
        self.tag = tag
        self.id = id
        self.attributes = attributes
        self.text = text
        self.children = children
        self.raw = raw
    }

    package static func == (a: Node, b: Node) -> Bool {
        a.tag == b.tag && a.id == b.id && a.text == b.text && a.raw == b.raw && a.children == b.children
            && a.attributes.count == b.attributes.count
            && zip(a.attributes, b.attributes).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }

    /// Serializes to HTML, escaping all text and attribute values.
    func html(into out: inout String) {
        out += "<" + tag + " id=\"" + HTML.escape(id) + "\""
        for (k, v) in attributes {
            // A textarea's value is written as its content (below), not as an attribute.
            if k == "value" && tag == "textarea" { continue }
            if HTML.booleanAttributes.contains(k) {
                if v == "true" { out += " " + k }
            } else {
                out += " " + k + "=\"" + HTML.escape(v) + "\""
            }
        }
        out += ">"
        if tag == "textarea", let value = attributes.first(where: { $0.0 == "value" })?.1 { out += HTML.escape(value) }
        if let text { out += HTML.escape(text) }
        if let raw { out += raw }
        for c in children { c.html(into: &out) }
        if !HTML.voidTags.contains(tag) { out += "</" + tag + ">" }
    }

    var html: String {
        var s = ""
        html(into: &s)
        return s
    }

    /// The concatenated text of this node and its descendants.
    var textContent: String {
        var s = text ?? ""
        for c in children { s += c.textContent }
        return s
    }

    /// Adds (or extends) the `class` attribute.
    func addingClass(_ name: String) -> Node {
        var n = self
        if let i = n.attributes.firstIndex(where: { $0.0 == "class" }) {
            n.attributes[i].1 += " " + name
        } else {
            n.attributes.insert(("class", name), at: 0)
        }
        return n
    }

    /// Finds a descendant (or self) by id.
    func find(id: String) -> Node? {
        if self.id == id { return self }
        for c in children { if let f = c.find(id: id) { return f } }
        return nil
    }
}

/// HTML escaping.
enum HTML {
    static let voidTags: Set<String> = ["input", "img", "hr", "br"]
    /// Attributes rendered by presence; their value is `"true"` or `"false"`.
    static let booleanAttributes: Set<String> = ["checked", "disabled", "selected", "hidden", "readonly"]
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for ch in s.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }
}
