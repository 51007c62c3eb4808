import Foundation

/// Progress toward completion: a bar filled to a fraction, or, without a value, an activity indicator.
public struct ProgressView<Label: View>: View, PrimitiveView {
    let label: Label?
    /// The fraction done (0…1), or nil for an indeterminate indicator.
    let fraction: Double?
    /// A view showing the current value ("3 of 10"), under the bar; its text is the bar's `aria-valuetext`.
    let valueLabel: AnyView?

    /// Primitive view.
    public var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        var attributes: [(String, String)] = [("class", "sw-progress")]
        if let fraction {
            attributes += [("value", Font.num(fraction)), ("max", "1")]
        }
        let valueNodes = valueLabel.map { context.render($0, path: path + ".v") } ?? []
        if !valueNodes.isEmpty { attributes.append(("aria-valuetext", valueNodes.map(\.textContent).joined())) }
        let labelNodes = label.map { context.render($0, path: path + ".l") } ?? []
        if let first = labelNodes.first { attributes.append(("aria-labelledby", first.id)) }
        let bar = Node("progress", id: path + ".p", attributes: attributes)
        return [
            Node(
                "div", id: path,
                attributes: [("style", "display:flex;flex-direction:column;gap:4px;align-self:stretch")],
                children: labelNodes + [bar] + valueNodes)
        ]
    }
}

extension ProgressView where Label == EmptyView {
    /// An indeterminate activity indicator.
    public init() {
        label = nil
        fraction = nil
        valueLabel = nil
    }

    /// A bar filled to `value` of `total` (clamped to 0…total); nil is indeterminate.
    public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0) {
        label = nil
        fraction = value.map { Self.fraction(Double($0), of: Double(total)) }
        valueLabel = nil
    }

    /// The fraction of a `Progress` that is completed.
    public init(_ progress: Progress) {
        label = nil
        fraction = progress.isIndeterminate ? nil : min(max(progress.fractionCompleted, 0), 1)
        valueLabel = nil
    }

    static func fraction(_ value: Double, of total: Double) -> Double {
        guard total > 0, value.isFinite else { return 0 }
        return min(max(value / total, 0), 1)
    }
}

extension ProgressView where Label == Text {
    /// An indeterminate indicator with a title.
    public init<S: StringProtocol>(_ title: S) {
        label = Text(String(title))
        fraction = nil
        valueLabel = nil
    }

    /// A bar with a title, filled to `value` of `total`.
    public init<S: StringProtocol, V: BinaryFloatingPoint>(_ title: S, value: V?, total: V = 1.0) {
        label = Text(String(title))
        fraction = value.map { ProgressView<EmptyView>.fraction(Double($0), of: Double(total)) }
        valueLabel = nil
    }
}

extension ProgressView {
    /// A bar with a label view, filled to `value` of `total`.
    public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0, @ViewBuilder label: () -> Label) {
        self.label = label()
        fraction = value.map { ProgressView<EmptyView>.fraction(Double($0), of: Double(total)) }
        valueLabel = nil
    }

    /// A bar with a label view and a text for its value ("3 of 10").
    public init<V: BinaryFloatingPoint, C: View>(
        value: V?, total: V = 1.0, @ViewBuilder label: () -> Label, @ViewBuilder currentValueLabel: () -> C
    ) {
        self.label = label()
        fraction = value.map { ProgressView<EmptyView>.fraction(Double($0), of: Double(total)) }
        valueLabel = AnyView(currentValueLabel())
    }
}
