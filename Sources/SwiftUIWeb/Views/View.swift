/// A piece of user interface. Custom views describe their content in `body`.
@MainActor @preconcurrency
public protocol View {
    /// The type of view representing the body of this view.
    associatedtype Body: View
    /// The content and behavior of the view.
    @ViewBuilder var body: Body { get }
}

extension Never: View {
    /// `Never` has no body; primitive views use it as their `Body`.
    public var body: Never { fatalError("Never has no body") }
}

/// A view with no content.
public struct EmptyView: View, PrimitiveView {
    /// Creates an empty view.
    public init() {}
    /// Primitive: no body.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] { [] }
}

/// A list of views built by ``ViewBuilder``.
public struct ViewList: View, PrimitiveView {
    let items: [any View]
    var isAccumulator = true
    /// Primitive: no body.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        var out: [Node] = []
        for (index, item) in items.enumerated() {
            out += context.render(item, path: path + "." + String(index))
        }
        return out
    }
}

/// A view that is either its true or its false content (from `if`/`else`).
public struct ConditionalContent: View, PrimitiveView {
    let content: any View
    let branch: Int
    /// Primitive: no body.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        context.render(content, path: path + "c" + String(branch))
    }
}

/// A type-erased view.
public struct AnyView: View, PrimitiveView {
    let view: any View
    /// Wraps any view.
    public init<V: View>(_ view: V) { self.view = view }
    /// Primitive: no body.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] { context.render(view, path: path) }
}

/// Builds views from closures, the way SwiftUI's result builder does.
@MainActor @resultBuilder
public enum ViewBuilder {
    /// An empty block.
    public static func buildBlock() -> EmptyView { EmptyView() }
    /// A single expression.
    public static func buildPartialBlock<V: View>(first: V) -> V { first }
    /// Accumulates the next view.
    public static func buildPartialBlock<A: View, V: View>(accumulated: A, next: V) -> ViewList {
        if let list = accumulated as? ViewList, list.isAccumulator { return ViewList(items: list.items + [next]) }
        return ViewList(items: [accumulated, next])
    }
    /// An `if` without `else`.
    public static func buildOptional(_ component: (any View)?) -> ConditionalContent {
        if let component { return ConditionalContent(content: component, branch: 0) }
        return ConditionalContent(content: EmptyView(), branch: 1)
    }
    /// The true branch of an `if`.
    public static func buildEither<V: View>(first component: V) -> ConditionalContent {
        ConditionalContent(content: component, branch: 0)
    }
    /// The false branch of an `if`.
    public static func buildEither<V: View>(second component: V) -> ConditionalContent {
        ConditionalContent(content: component, branch: 1)
    }
    /// Availability checks.
    public static func buildLimitedAvailability<V: View>(_ component: V) -> AnyView { AnyView(component) }
}

/// A view the renderer turns into HTML nodes directly.
@MainActor
package protocol PrimitiveView {
    /// The view's nodes at `path` (its own and its content's), rendered into `context`.
    func makeNodes(_ context: RenderContext, path: String) -> [Node]
}

/// An optional view is a view: the wrapped one, or nothing (as in SwiftUI).
extension Optional: View where Wrapped: View {
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
}

extension Optional: PrimitiveView where Wrapped: View {
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        guard let view = self else { return [] }
        return context.render(view, path: path)
    }
}
