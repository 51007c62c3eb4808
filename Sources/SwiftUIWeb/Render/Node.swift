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

    /// Serializes to HTML (UTF-8 bytes), escaping all text and attribute values.
    ///
    /// Bytes, not a `String`: a chart of 10,000 marks is about 60 appends per mark, and an array's append of a
    /// native string's bytes is a copy where a string's append also keeps its ASCII and breadcrumb bookkeeping.
    func html(into out: inout [UInt8]) {
        out.append(UInt8(ascii: "<"))
        HTML.append(tag, to: &out)
        HTML.append(#" id=""#, to: &out)
        HTML.escape(id, into: &out)
        out.append(UInt8(ascii: "\""))
        let isTextArea = tag.utf8.count == 8 && tag == "textarea"
        // Indices, not `for (k, v) in`: reading in place saves a retain and release of each string.
        for index in attributes.indices {
            // A textarea's value is written as its content (below), not as an attribute.
            if isTextArea && attributes[index].0 == "value" { continue }
            if HTML.isBooleanAttribute(attributes[index].0) {
                if attributes[index].1 == "true" {
                    out.append(UInt8(ascii: " "))
                    HTML.append(attributes[index].0, to: &out)
                }
            } else {
                out.append(UInt8(ascii: " "))
                HTML.append(attributes[index].0, to: &out)
                HTML.append(#"=""#, to: &out)
                HTML.escape(attributes[index].1, into: &out)
                out.append(UInt8(ascii: "\""))
            }
        }
        out.append(UInt8(ascii: ">"))
        if isTextArea, let value = attributes.first(where: { $0.0 == "value" })?.1 { HTML.escape(value, into: &out) }
        if let text { HTML.escape(text, into: &out) }
        if let raw { HTML.append(raw, to: &out) }
        for index in children.indices { children[index].html(into: &out) }
        if !HTML.isVoidTag(tag) {
            HTML.append("</", to: &out)
            HTML.append(tag, to: &out)
            out.append(UInt8(ascii: ">"))
        }
    }

    /// The node as HTML.
    var html: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        html(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
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
        // Most tags are longer than these: the length settles it without comparing strings.
        guard tag.utf8.count <= 5 else { return false }
        return switch tag {
        case "input", "img", "hr", "br": true
        default: false
        }
    }

    /// Whether an attribute is rendered by presence (its value is `"true"` or `"false"`).
    static func isBooleanAttribute(_ name: String) -> Bool {
        // Most names are other lengths: the length settles it without comparing strings.
        let length = name.utf8.count
        guard length >= 6 && length <= 8 else { return false }
        return switch name {
        case "checked", "disabled", "selected", "hidden", "readonly": true
        default: false
        }
    }

    /// The text with `&`, `<`, `>`, `"` and `'` written as character references.
    static func escape(_ s: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        escape(s, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the text's UTF-8 to `out` in one copy. (`out += s.utf8` copies a small string, the kind most names
    /// and values are, byte by byte: it is not stored contiguously, so the array cannot take it in one copy.)
    static func append(_ s: String, to out: inout [UInt8]) {
        let copied: Void? = s.utf8.withContiguousStorageIfAvailable { out.append(contentsOf: $0) }
        if copied != nil { return }
        var small = s
        small.withUTF8 { out.append(contentsOf: $0) }
    }

    /// The bytes `escape` replaces (`"`, `&`, `'`, `<`, `>`: all below 64), as bits of one word.
    private static let specials: UInt64 = 1 << 34 | 1 << 38 | 1 << 39 | 1 << 60 | 1 << 62

    /// Appends the text's UTF-8 to `out` with `&`, `<`, `>`, `"` and `'` written as character references. Most text
    /// has none of them: one scan finds that, and the bytes are appended in one copy.
    static func escape(_ s: String, into out: inout [UInt8]) {
        var clean = true
        let bytes = s.utf8.span
        for index in bytes.indices where bytes[index] < 64 && (specials >> UInt64(bytes[index])) & 1 != 0 {
            clean = false
            break
        }
        if clean {
            append(s, to: &out)
            return
        }
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out += "&amp;".utf8
            case UInt8(ascii: "<"): out += "&lt;".utf8
            case UInt8(ascii: ">"): out += "&gt;".utf8
            case UInt8(ascii: "\""): out += "&quot;".utf8
            case UInt8(ascii: "'"): out += "&#39;".utf8
            default: out.append(byte)
            }
        }
    }

}
