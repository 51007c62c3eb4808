import Foundation

/// A coordinate space a `GeometryProxy` measures in.
public enum CoordinateSpace: Hashable {
    /// The page (the browser window's document).
    case global
    /// The geometry reader itself: its origin is zero.
    case local
    /// A space named with `coordinateSpace(name:)`; measured as the reader's own here.
    case named(AnyHashable)
}

/// Insets on each edge.
public struct EdgeInsets: Hashable, Sendable {
    /// Inset from the top.
    public var top: CGFloat
    /// Inset from the leading edge.
    public var leading: CGFloat
    /// Inset from the bottom.
    public var bottom: CGFloat
    /// Inset from the trailing edge.
    public var trailing: CGFloat
    /// Insets.
    public init(top: CGFloat = 0, leading: CGFloat = 0, bottom: CGFloat = 0, trailing: CGFloat = 0) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }
}

/// The size and place the page gave a `GeometryReader`, measured in the browser.
public struct GeometryProxy: Sendable {
    /// The reader's size in points (CSS pixels). Zero until the page has measured it once.
    public let size: CGSize
    /// Where the reader's top leading corner is on the page.
    let origin: CGPoint
    /// Browser windows have no safe area: zero.
    public var safeAreaInsets: EdgeInsets { EdgeInsets() }
    /// The reader's frame in a coordinate space (`.global`: on the page; otherwise at the origin).
    public func frame(in space: CoordinateSpace) -> CGRect {
        CGRect(origin: space == .global ? origin : .zero, size: size)
    }
}

/// A container that gives its content the size the page lays it out at. It takes all the space it is offered,
/// as SwiftUI's does; the page measures it (a `ResizeObserver`) and sends its size and place, and the content
/// renders again for them. The first render, before the page has measured, sees a zero size.
public struct GeometryReader<Content: View>: View, PrimitiveView {
    let content: (GeometryProxy) -> Content
    /// A reader of `content` made for its proxy.
    public init(@ViewBuilder content: @escaping (GeometryProxy) -> Content) { self.content = content }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let slot = context.scene.slot(for: "geometry:" + path, context: context) { GeometryProxy.unmeasured }
        let proxy = slot.value as? GeometryProxy ?? .unmeasured
        context.addInput(path + "!geometry") { [weak slot] report in
            guard let slot, let measured = GeometryProxy.measured(report: report) else { return }
            guard
                measured.size != (slot.value as? GeometryProxy)?.size
                    || measured.origin != (slot.value as? GeometryProxy)?.origin
            else { return }
            slot.value = measured
            slot.scene?.changed(slot)
        }
        return [
            Node(
                "div", id: path, attributes: [("class", "sw-geometry"), ("data-geometry", "1")],
                children: context.render(content(proxy), path: path + ".c", axis: .none))
        ]
    }
}

extension GeometryProxy {
    /// The proxy before the page has measured.
    static let unmeasured = GeometryProxy(size: .zero, origin: .zero)

    /// Parses the page's report, `"width,height,x,y"` in CSS pixels; nil unless four finite numbers with a size
    /// that is not negative and not absurd.
    static func measured(report: String) -> GeometryProxy? {
        let numbers = report.split(separator: ",").compactMap { Double($0) }
        guard numbers.count == 4, numbers.allSatisfy({ $0.isFinite && abs($0) < 1e7 }), numbers[0] >= 0,
            numbers[1] >= 0
        else { return nil }
        return GeometryProxy(
            size: CGSize(width: numbers[0], height: numbers[1]), origin: CGPoint(x: numbers[2], y: numbers[3]))
    }
}

/// A view whose size and place the page measures, calling an action when a value made from them changes
/// (`onGeometryChange`). The content is laid out as it would be without it (the measured box wraps it).
struct GeometryChangeView<Content: View, Value: Equatable>: View, PrimitiveView {
    let content: Content
    let transform: (GeometryProxy) -> Value
    let action: (Value?, Value) -> Void
    var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let slot = context.scene.slot(for: "geometry-change:" + path, context: context) { Optional<Value>.none as Any }
        let transform = self.transform
        let action = self.action
        context.addInput(path + "!geometry") { [weak slot] report in
            guard let slot, let proxy = GeometryProxy.measured(report: report) else { return }
            let value = transform(proxy)
            let old = slot.value as? Value
            guard old != value else { return }
            slot.value = value  // Remembered without a render: only the action's changes render.
            action(old, value)
        }
        return [
            Node(
                "div", id: path, attributes: [("class", "sw-box"), ("data-geometry", "1")],
                children: context.render(content, path: path + ".c", axis: .vertical))
        ]
    }
}

extension View {
    /// Calls `action` with a value made from the view's size and place (measured by the page) whenever it changes,
    /// the first measurement included.
    public func onGeometryChange<T: Equatable>(
        for type: T.Type, of transform: @escaping (GeometryProxy) -> T, action: @escaping (T) -> Void
    ) -> some View {
        GeometryChangeView(content: self, transform: transform) { _, new in action(new) }
    }

    /// Calls `action` with the old and new values made from the view's size and place whenever they change (the
    /// first measurement counts as a change from the value it makes for a zero size).
    public func onGeometryChange<T: Equatable>(
        for type: T.Type, of transform: @escaping (GeometryProxy) -> T, action: @escaping (T, T) -> Void
    ) -> some View {
        GeometryChangeView(content: self, transform: transform) { old, new in
            action(old ?? transform(.unmeasured), new)
        }
    }
}
