/// Where a search field goes: in the window's toolbar (`.toolbar`), or above the content it searches (the others:
/// a navigation bar's drawer and a sidebar's top are both right above the content in a browser window).
public struct SearchFieldPlacement: Hashable, Sendable {
    let name: String
    /// The platform's usual place.
    public static let automatic = SearchFieldPlacement(name: "automatic")
    /// In the toolbar.
    public static let toolbar = SearchFieldPlacement(name: "toolbar")
    /// In the sidebar.
    public static let sidebar = SearchFieldPlacement(name: "sidebar")
    /// In the navigation bar's drawer.
    public static let navigationBarDrawer = SearchFieldPlacement(name: "navigationBarDrawer")
}

private struct IsSearchingKey: EnvironmentKey { static var defaultValue: Bool { false } }

extension EnvironmentValues {
    /// Whether the search field of an enclosing `searchable` view has text in it.
    public var isSearching: Bool {
        get { self[IsSearchingKey.self] }
        set { self[IsSearchingKey.self] = newValue }
    }
}

/// A search field above a view, bound to the text the view filters by.
struct SearchableView<Content: View>: View, PrimitiveView {
    let content: Content
    let text: Binding<String>
    let prompt: String
    let placement: SearchFieldPlacement
    var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let text = self.text
        let fieldID = path + ".s"
        _ = context.input(fieldID) { text.wrappedValue = $0 }
        if let submit = context.onSubmit { _ = context.action(fieldID + "!submit", submit) }
        let value = text.wrappedValue
        let field = Node(
            "input", id: fieldID,
            attributes: [
                ("class", "sw-field sw-search"), ("data-input", "1"), ("type", "search"), ("role", "searchbox"),
                ("placeholder", prompt), ("aria-label", prompt), ("value", value), ("autocomplete", "off"),
            ] + context.disabledAttribute + (context.onSubmit == nil ? [] : [("data-submit", "1")]))
        let saved = context.environment.isSearching
        context.environment.isSearching = !value.isEmpty
        defer { context.environment.isSearching = saved }
        let inner = context.render(content, path: path + ".c", axis: .vertical)
        if placement == .toolbar {
            context.addToolbar([field])
            return [
                Node("div", id: path, attributes: [("class", "sw-searchable"), ("role", "search")], children: inner)
            ]
        }
        return [
            Node(
                "div", id: path, attributes: [("class", "sw-searchable"), ("role", "search")],
                children: [field] + inner)
        ]
    }
}

extension View {
    /// Shows a search field whose text is `text`, above this view or (`placement: .toolbar`) in the window's
    /// toolbar; `prompt` is its placeholder ("Search" when nil).
    public func searchable(
        text: Binding<String>, placement: SearchFieldPlacement = .automatic, prompt: String? = nil
    )
        -> some View
    {
        SearchableView(content: self, text: text, prompt: prompt ?? "Search", placement: placement)
    }

    /// Shows a search field above this view whose text is `text`, with a `Text` prompt.
    public func searchable(
        text: Binding<String>, placement: SearchFieldPlacement = .automatic, prompt: Text
    )
        -> some View
    {
        SearchableView(content: self, text: text, prompt: prompt.plainText, placement: placement)
    }
}
