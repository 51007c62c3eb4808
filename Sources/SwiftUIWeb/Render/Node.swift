/// One HTML element (or text run) of a rendered view tree.
struct Node: Equatable, Sendable {
    var tag: String
    var id: String
    var attributes: [(String, String)]
    var text: String?
    var children: [Node]

    init(_ tag: String, id: String, attributes: [(String, String)] = [], text: String? = nil, children: [Node] = []) {
        self.tag = tag; self.id = id; self.attributes = attributes; self.text = text; self.children = children
    }

    static func == (a: Node, b: Node) -> Bool {
        a.tag == b.tag && a.id == b.id && a.text == b.text && a.children == b.children
            && a.attributes.count == b.attributes.count
            && zip(a.attributes, b.attributes).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }

    /// Serializes to HTML, escaping all text and attribute values.
    func html(into out: inout String) {
        out += "<" + tag + " id=\"" + HTML.escape(id) + "\""
        for (k, v) in attributes { out += " " + k + "=\"" + HTML.escape(v) + "\"" }
        out += ">"
        if let text { out += HTML.escape(text) }
        for c in children { c.html(into: &out) }
        if !HTML.voidTags.contains(tag) { out += "</" + tag + ">" }
    }

    var html: String { var s = ""; html(into: &s); return s }
}

/// HTML escaping.
enum HTML {
    static let voidTags: Set<String> = ["input", "img", "hr", "br"]
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
