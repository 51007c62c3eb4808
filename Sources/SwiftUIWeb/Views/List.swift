/// Computes views (or, with `import Charts`, chart content) from a collection of identified data.
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content> {
    /// The collection the views are made from.
    public var data: Data
    let idOf: (Data.Element) -> ID
    let content: (Data.Element) -> Content
    /// `onDelete`: deletes the rows at these offsets.
    var deleteAction: ((IndexSet) -> Void)?
    /// `onMove`: moves the rows at these offsets before this offset.
    var moveAction: ((IndexSet, Int) -> Void)?

    /// For other kinds of content than views (Charts' marks): the elements and how each is identified.
    package init(chartData data: Data, id: @escaping (Data.Element) -> ID, content: @escaping (Data.Element) -> Content)
    {
        self.data = data
        self.idOf = id
        self.content = content
    }

    /// Calls `body` with the identity and content of each element, in order.
    package func forEachElement(_ body: (ID, Content) -> Void) {
        for element in data { body(idOf(element), content(element)) }
    }
}

extension ForEach: View, PrimitiveView where Content: View {
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        // Inside a lazy container a long ForEach renders a window of its rows. Its elements stay directly in the
        // container (as in SwiftUI, which flattens ForEach, Section and Group into a lazy stack's children): a
        // section per element may window its own rows.
        if context.lazyRows && data.count > RowWindow.threshold { return makeWindowedNodes(context, path: path) }
        var out: [Node] = []
        out.reserveCapacity(data.count)
        let wantsTags = context.wantsTags
        let count = data.count
        for (offset, element) in data.enumerated() {
            out += row(element, offset: offset, count: count, path: path, wantsTags: wantsTags, context: context)
        }
        return out
    }
}

extension ForEach where Content: View {
    /// One element's nodes: its content at its identity's path, with its edit controls, tagged with its identity
    /// (for pickers and list selection).
    @MainActor func row(
        _ element: Data.Element, offset: Int, count: Int, path: String, wantsTags: Bool, context: RenderContext
    ) -> [Node] {
        let id = idOf(element)
        let rowPath = path + "[" + identityKey(id) + "]"
        let nodes = editControls(
            context.render(content(element), path: rowPath), offset: offset, count: count, path: rowPath,
            context: context)
        if wantsTags, let first = nodes.first, context.tags[first.id] == nil {
            context.setTag(first.id, AnyHashable(id))
        }
        return nodes
    }
}

extension ForEach where Content: View, Data.Element: Identifiable, ID == Data.Element.ID {
    /// Creates views for identifiable elements.
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.idOf = { $0.id }
        self.content = content
    }
}

extension ForEach where Content: View {
    /// Creates views for elements identified by a key path.
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content)
    {
        self.data = data
        self.idOf = { $0[keyPath: id] }
        self.content = content
    }
}

extension ForEach where Content: View, Data == Range<Int>, ID == Int {
    /// Creates views for a constant range.
    public init(_ data: Range<Int>, @ViewBuilder content: @escaping (Int) -> Content) {
        self.data = data
        self.idOf = { $0 }
        self.content = content
    }
}

/// A container presenting rows of data in a single column, optionally selectable.
public struct List<SelectionValue: Hashable, Content: View>: View, PrimitiveView {
    let content: Content
    let selection: ListSelection?
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let saved = context.listSelection
        let savedWants = context.wantsTags
        context.listSelection = selection
        context.wantsTags = selection != nil
        defer {
            context.listSelection = saved
            context.wantsTags = savedWants
        }
        let savedInList = context.inList
        context.inList = true
        defer { context.inList = savedInList }
        let items = context.render(content, path: path + ".c", axis: .vertical, lazyRows: true)
        return [
            Node(
                "div", id: path,
                attributes: [
                    ("class", "sw-list sw-list-" + context.environment.listStyle.name),
                    ("role", selection == nil ? "list" : "listbox"),
                ],
                children: context.rows(items))
        ]
    }
}

extension List where SelectionValue == Never {
    /// Creates a list of static or mixed content.
    public init(@ViewBuilder content: () -> Content) {
        self.content = content()
        selection = nil
    }
    /// Creates a list with one row per identifiable element.
    public init<Data: RandomAccessCollection, RowContent: View>(
        _ data: Data, @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent
    )
    where Content == ForEach<Data, Data.Element.ID, RowContent>, Data.Element: Identifiable {
        content = ForEach(data, content: rowContent)
        selection = nil
    }
    /// Creates a list with one row per element, identified by a key path.
    public init<Data: RandomAccessCollection, ID: Hashable, RowContent: View>(
        _ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent
    )
    where Content == ForEach<Data, ID, RowContent> {
        content = ForEach(data, id: id, content: rowContent)
        selection = nil
    }
}

extension List {
    static func single(_ selection: Binding<SelectionValue?>) -> ListSelection {
        ListSelection(
            isSelected: { AnyHashable(selection.wrappedValue) == $0 },
            select: { tag in if let v = tag.base as? SelectionValue { selection.wrappedValue = v } })
    }
    static func multiple(_ selection: Binding<Set<SelectionValue>>) -> ListSelection {
        ListSelection(
            isSelected: { tag in (tag.base as? SelectionValue).map { selection.wrappedValue.contains($0) } ?? false },
            select: { tag in if let v = tag.base as? SelectionValue { selection.wrappedValue = [v] } })
    }
    /// A list whose rows (tagged, or identified by `ForEach`) select a value.
    public init(selection: Binding<SelectionValue?>, @ViewBuilder content: () -> Content) {
        self.content = content()
        self.selection = List.single(selection)
    }
    /// A list whose rows select values.
    public init(selection: Binding<Set<SelectionValue>>, @ViewBuilder content: () -> Content) {
        self.content = content()
        self.selection = List.multiple(selection)
    }
    /// A selectable list with one row per identifiable element.
    public init<Data: RandomAccessCollection, RowContent: View>(
        _ data: Data, selection: Binding<SelectionValue?>,
        @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent
    )
    where Content == ForEach<Data, Data.Element.ID, RowContent>, Data.Element: Identifiable {
        content = ForEach(data, content: rowContent)
        self.selection = List.single(selection)
    }
    /// A selectable list with one row per element, identified by a key path.
    public init<Data: RandomAccessCollection, ID: Hashable, RowContent: View>(
        _ data: Data, id: KeyPath<Data.Element, ID>, selection: Binding<SelectionValue?>,
        @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent
    )
    where Content == ForEach<Data, ID, RowContent> {
        content = ForEach(data, id: id, content: rowContent)
        self.selection = List.single(selection)
    }
}

/// How lists look: `automatic` and `insetGrouped` are rounded cards of rows, `inset` the same without the card's
/// background, `plain` rows edge to edge, `grouped` full-width sections, `sidebar` a source list, `bordered` a box
/// with a border.
public struct ListStyle: Hashable, Sendable {
    let name: String
    /// The platform's usual look (a rounded card of rows).
    public static let automatic = ListStyle(name: "automatic")
    /// Rows edge to edge, with separators and no card.
    public static let plain = ListStyle(name: "plain")
    /// Rows inset from the edges, without a card background.
    public static let inset = ListStyle(name: "inset")
    /// Rounded cards of rows inset from the edges.
    public static let insetGrouped = ListStyle(name: "insetGrouped")
    /// Full-width sections of rows.
    public static let grouped = ListStyle(name: "grouped")
    /// A sidebar's source list: no card, rounded selection.
    public static let sidebar = ListStyle(name: "sidebar")
    /// Rows in a bordered box.
    public static let bordered = ListStyle(name: "bordered")
}

private struct ListStyleKey: EnvironmentKey { static var defaultValue: ListStyle { .automatic } }

extension EnvironmentValues {
    /// The look of lists in this view.
    var listStyle: ListStyle {
        get { self[ListStyleKey.self] }
        set { self[ListStyleKey.self] = newValue }
    }
}

extension View {
    /// Sets the look of lists in this view.
    public func listStyle(_ style: ListStyle) -> some View {
        EnvironmentWriter(content: self) { $0.listStyle = style }
    }
}

/// The path segment for an identity (fast for the common identifier types). Long identities (a row
/// identified by a long text) are shortened to a prefix and a 64-bit hash, so element ids stay far
/// below the size an event message may name.
func identityKey<ID: Hashable>(_ id: ID) -> String {
    let key: String
    switch id {
    case let i as Int: return String(i)
    case let s as String: key = s
    case let u as UUID: return u.uuidString
    default: key = String(describing: id)
    }
    guard key.utf8.count > maxIdentityKeyLength else { return key }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
    for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return String(decoding: key.utf8.prefix(32), as: UTF8.self) + "#" + String(hash, radix: 16)
}

/// Longest identity used as is in an element id.
let maxIdentityKeyLength = 64
