/// Computes views from a collection of identified data.
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: View, PrimitiveView {
    let data: Data
    let idOf: (Data.Element) -> ID
    let content: (Data.Element) -> Content
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        var out: [Node] = []
        for element in data {
            let key = String(describing: idOf(element))
            out += context.render(content(element), path: path + "[" + key + "]")
        }
        return out
    }
}

extension ForEach where Data.Element: Identifiable, ID == Data.Element.ID {
    /// Creates views for identifiable elements.
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data; self.idOf = { $0.id }; self.content = content
    }
}

extension ForEach {
    /// Creates views for elements identified by a key path.
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data; self.idOf = { $0[keyPath: id] }; self.content = content
    }
}

extension ForEach where Data == Range<Int>, ID == Int {
    /// Creates views for a constant range.
    public init(_ data: Range<Int>, @ViewBuilder content: @escaping (Int) -> Content) {
        self.data = data; self.idOf = { $0 }; self.content = content
    }
}

/// A container presenting rows of data in a single column.
public struct List<Content: View>: View, PrimitiveView {
    let content: Content
    /// Creates a list of static or mixed content.
    public init(@ViewBuilder content: () -> Content) { self.content = content() }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let rows = context.render(content, path: path + ".c").map { row in
            Node("li", id: row.id + "~", attributes: [("class", "sw-row")], children: [row])
        }
        return [Node("ul", id: path, attributes: [("class", "sw-list")], children: rows)]
    }
}

extension List {
    /// Creates a list with one row per identifiable element.
    public init<Data: RandomAccessCollection, RowContent: View>(_ data: Data, @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent)
    where Content == ForEach<Data, Data.Element.ID, RowContent>, Data.Element: Identifiable {
        content = ForEach(data, content: rowContent)
    }
    /// Creates a list with one row per element, identified by a key path.
    public init<Data: RandomAccessCollection, ID: Hashable, RowContent: View>(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent)
    where Content == ForEach<Data, ID, RowContent> {
        content = ForEach(data, id: id, content: rowContent)
    }
}
