/// A view that compares itself with its previous value and, when they are equal, does not evaluate its content's
/// `body` again, even when the view containing it was evaluated again.
///
/// As in SwiftUI, the comparison only decides whether a change *from above* reaches the content: the content's own
/// state, the observable objects it reads and the environment still update it. SwiftUIWeb reuses the content's
/// last output only when the environment it is given is the same as last time (values compared with `==` where they
/// are `Equatable`, objects by identity), and never inside a selectable `List`, a `Picker` or an alert, whose rows'
/// output depends on a selection the row does not hold.
public struct EquatableView<Content: View & Equatable>: View, PrimitiveView {
    /// The view compared with its previous value.
    public var content: Content

    /// Wraps `content`, which is compared with its previous value.
    public init(content: Content) { self.content = content }

    /// Primitive: no body.
    public var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        if content is any PrimitiveView { return context.render(content, path: path) }
        return context.scene.renderEquatable(content, path: path, context: context)
    }
}

extension View where Self: Equatable {
    /// Prevents the view from updating its body when its new value is the same as its old value.
    public func equatable() -> EquatableView<Self> { EquatableView(content: self) }
}
