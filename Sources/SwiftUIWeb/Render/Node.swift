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
        out += "<"
        out += tag
        out += " id=\""
        HTML.escape(id, into: &out)
        out += "\""
        let isTextArea = tag == "textarea"
        for (k, v) in attributes {
            // A textarea's value is written as its content (below), not as an attribute.
            if isTextArea && k == "value" { continue }
            if HTML.isBooleanAttribute(k) {
                if v == "true" {
                    out += " "
                    out += k
                }
            } else {
                out += " "
                out += k
                out += "=\""
                HTML.escape(v, into: &out)
                out += "\""
            }
        }
        out += ">"
        if isTextArea, let value = attributes.first(where: { $0.0 == "value" })?.1 { HTML.escape(value, into: &out) }
        if let text { HTML.escape(text, into: &out) }
        if let raw { out += raw }
        for c in children { c.html(into: &out) }
        if !HTML.isVoidTag(tag) {
            out += "</"
            out += tag
            out += ">"
        }
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

    /// Whether this node or a descendant has an attribute.
    func hasAttribute(_ name: String) -> Bool {
        attributes.contains { $0.0 == name } || children.contains { $0.hasAttribute(name) }
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
    /// Whether a tag has no end tag.
    static func isVoidTag(_ tag: String) -> Bool {
        switch tag {
        case "input", "img", "hr", "br": true
        default: false
        }
    }

    /// Whether an attribute is rendered by presence (its value is `"true"` or `"false"`).
    static func isBooleanAttribute(_ name: String) -> Bool {
        switch name {
        case "checked", "disabled", "selected", "hidden", "readonly": true
        default: false
        }
    }

    /// The text with `&`, `<`, `>`, `"` and `'` written as character references.
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        escape(s, into: &out)
        return out
    }

    /// Appends the text to `out` with `&`, `<`, `>`, `"` and `'` written as character references: the runs between
    /// them are appended whole (the characters are ASCII, so every cut is on a character boundary).
    static func escape(_ s: String, into out: inout String) {
        let utf8 = s.utf8
        var start = utf8.startIndex
        var index = start
        while index != utf8.endIndex {
            let entity: String
            switch utf8[index] {
            case UInt8(ascii: "&"): entity = "&amp;"
            case UInt8(ascii: "<"): entity = "&lt;"
            case UInt8(ascii: ">"): entity = "&gt;"
            case UInt8(ascii: "\""): entity = "&quot;"
            case UInt8(ascii: "'"): entity = "&#39;"
            default:
                utf8.formIndex(after: &index)
                continue
            }
            if start != index { out += s[start..<index] }
            out += entity
            utf8.formIndex(after: &index)
            start = index
        }
        if start == utf8.startIndex {
            out += s
        } else if start != utf8.endIndex {
            out += s[start..<utf8.endIndex]
        }
    }
}
