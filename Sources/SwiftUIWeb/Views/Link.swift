import Foundation

/// The URL schemes a page opens from a `Link` or `ShareLink` (never `javascript:` or `file:`).
enum OpenableURL {
    static let schemes: Set<String> = ["http", "https", "mailto", "tel"]
    static func allows(_ url: URL) -> Bool { url.scheme.map { schemes.contains($0.lowercased()) } ?? false }
    /// Why a URL is not opened, for the control's tooltip.
    static func refusal(_ url: URL) -> String {
        "Not opened: \(url.scheme.map { "a \($0): link" } ?? "a link without a scheme"); only http, https, mailto and tel links open"
    }
}

/// A control that opens a URL: in a new browser tab, as a Mac opens links in the default browser.
public struct Link<Label: View>: View, PrimitiveView {
    let destination: URL
    let label: Label
    /// A link with a custom label.
    public init(destination: URL, @ViewBuilder label: () -> Label) {
        self.destination = destination
        self.label = label()
    }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let children = context.render(label, path: path + ".l", axis: .horizontal)
        guard OpenableURL.allows(destination), context.environment.isEnabled else {
            // A scheme the page must not open (javascript:, file:…) or a disabled link: shown, not followed.
            let why = OpenableURL.allows(destination) ? "Disabled" : OpenableURL.refusal(destination)
            return [
                Node(
                    "a", id: path,
                    attributes: [("class", "sw-weblink sw-blocked"), ("aria-disabled", "true"), ("title", why)],
                    children: children)
            ]
        }
        return [
            Node(
                "a", id: path,
                attributes: [
                    ("class", "sw-weblink"), ("href", destination.absoluteString), ("target", "_blank"),
                    ("rel", "noopener noreferrer"),
                ], children: children)
        ]
    }
}

extension Link where Label == Text {
    /// A link titled with a string.
    public init<S: StringProtocol>(_ title: S, destination: URL) {
        self.init(destination: destination) { Text(String(title)) }
    }
}

/// A button that shares a URL or a text: with the browser's share sheet where it has one, else by copying it
/// to the clipboard (the button's tooltip then says "Copied").
public struct ShareLink<Label: View>: View, PrimitiveView {
    let text: String
    let isURL: Bool
    let subject: String?
    let message: String?
    let label: Label
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        var data: [String: String] = [isURL ? "url" : "text": text]
        if let subject { data["title"] = subject }
        if let message { data[isURL ? "text" : "title"] = message }
        // A dictionary of strings always encodes; were it ever not to, the button shows disabled (absence of data).
        let json = (try? JSONSerialization.data(withJSONObject: data, options: [.sortedKeys])).map {
            String(decoding: $0, as: UTF8.self)
        }
        var attributes: [(String, String)] = [
            ("class", "sw-button " + context.buttonStyle.cssClass), ("type", "button"),
        ]
        if let json, context.environment.isEnabled {
            attributes += [("data-client", "share"), ("data-arg", json)]
        } else {
            attributes.append(("disabled", "true"))
        }
        return [
            Node(
                "button", id: path, attributes: attributes,
                children: context.render(label, path: path + ".l", axis: .horizontal))
        ]
    }
}

extension ShareLink {
    /// Shares a URL, with a custom label.
    public init(item: URL, subject: Text? = nil, message: Text? = nil, @ViewBuilder label: () -> Label) {
        text = item.absoluteString
        isURL = true
        self.subject = subject?.plainText
        self.message = message?.plainText
        self.label = label()
    }
    /// Shares a text, with a custom label.
    public init<S: StringProtocol>(item: S, subject: Text? = nil, message: Text? = nil, @ViewBuilder label: () -> Label)
    {
        text = String(item)
        isURL = false
        self.subject = subject?.plainText
        self.message = message?.plainText
        self.label = label()
    }
}

extension ShareLink where Label == SwiftUIWeb.Label<Text, Image> {
    /// Shares a URL, labelled "Share".
    public init(item: URL, subject: Text? = nil, message: Text? = nil) {
        self.init(item: item, subject: subject, message: message) {
            SwiftUIWeb.Label("Share", systemImage: "square.and.arrow.up")
        }
    }
    /// Shares a text, labelled "Share".
    public init<S: StringProtocol>(item: S, subject: Text? = nil, message: Text? = nil) {
        self.init(item: item, subject: subject, message: message) {
            SwiftUIWeb.Label("Share", systemImage: "square.and.arrow.up")
        }
    }
    /// Shares a URL, labelled with a title.
    public init<S: StringProtocol>(_ title: S, item: URL, subject: Text? = nil, message: Text? = nil) {
        self.init(item: item, subject: subject, message: message) {
            SwiftUIWeb.Label(String(title), systemImage: "square.and.arrow.up")
        }
    }
}
