/// The rows of a long `ForEach` that a lazy container (`List`, `LazyVStack`) renders: a window of the data that
/// the page moves as it scrolls. The rest of the rows are never evaluated; two spacers stand for them, sized by
/// the page from the rows it measures.
///
/// The page asks for a window with a `window` event (`a`: the first row, `d`: how many); the server keeps it
/// in a storage slot of the view that rendered the `ForEach`, so a new window re-renders only that view and
/// the diff sends the rows that left and came in.
struct RowWindow: Equatable {
    /// The first row rendered.
    var first: Int
    /// How many rows are rendered.
    var shown: Int

    /// A `ForEach` with more rows than this (2,000) is windowed inside a lazy container; shorter ones render whole (so
    /// the browser's find-in-page still sees every row).
    static let threshold = 2_000
    /// The rows a page sees before it asks for its own window (a tall screen's worth).
    static let initial = RowWindow(first: 0, shown: 60)
    /// The most rows a page may ask for at once.
    static let maxShown = 600

    /// The window moved into `0..<count`, with at most `maxShown` rows.
    func clamped(to count: Int) -> RowWindow {
        let first = Swift.min(Swift.max(0, self.first), Swift.max(0, count - 1))
        let shown = Swift.min(Swift.max(0, self.shown), RowWindow.maxShown, count - first)
        return RowWindow(first: first, shown: Swift.max(0, shown))
    }

    /// Parses the handler's argument, `"first,count"`; nil when it is not two numbers.
    init?(request: String) {
        let parts = request.split(separator: ",")
        guard parts.count == 2, let first = Int(parts[0]), let shown = Int(parts[1]) else { return nil }
        self.init(first: first, shown: shown)
    }

    init(first: Int, shown: Int) {
        self.first = first
        self.shown = shown
    }
}

extension Node {
    /// A spacer standing for the rows of a windowed `ForEach` that are not rendered.
    var isWindowPad: Bool { attributes.first?.1 == "sw-window-pad" }
}

extension ForEach where Content: View {
    /// Renders the window of rows the page last asked for, between two spacers.
    @MainActor func makeWindowedNodes(_ context: RenderContext, path: String) -> [Node] {
        let count = data.count
        let slot = context.scene.slot(for: "window:" + path, context: context) { RowWindow.initial }
        let window = (slot.value as? RowWindow ?? RowWindow.initial).clamped(to: count)
        context.addInput(path + "!window") { [weak slot] request in
            guard let slot, let asked = RowWindow(request: request) else { return }
            let new = asked.clamped(to: count)
            guard new != slot.value as? RowWindow else { return }
            slot.value = new
            slot.scene?.changed(slot)
        }
        var out: [Node] = []
        out.reserveCapacity(window.shown + 2)
        out.append(
            Node(
                "div", id: path + "~b",
                attributes: [
                    ("class", "sw-window-pad"), ("aria-hidden", "true"), ("data-window", path),
                    ("data-first", String(window.first)), ("data-shown", String(window.shown)),
                    ("data-count", String(count)),
                ]))
        let start = data.index(data.startIndex, offsetBy: window.first)
        let end = data.index(start, offsetBy: window.shown)
        let wantsTags = context.wantsTags
        for (offset, element) in zip(window.first..., data[start..<end]) {
            out += row(element, offset: offset, count: count, path: path, wantsTags: wantsTags, context: context)
        }
        out.append(Node("div", id: path + "~a", attributes: [("class", "sw-window-pad"), ("aria-hidden", "true")]))
        return out
    }
}
