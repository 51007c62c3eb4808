import Foundation

/// The text size a person chose, from extra small to the accessibility sizes, as SwiftUI's.
public enum DynamicTypeSize: Int, CaseIterable, Comparable, Hashable, Sendable {
    case xSmall, small, medium, large, xLarge, xxLarge, xxxLarge
    case accessibility1, accessibility2, accessibility3, accessibility4, accessibility5

    /// Whether this is one of the accessibility sizes.
    public var isAccessibilitySize: Bool { self >= .accessibility1 }

    /// Orders sizes from smallest to largest.
    public static func < (a: DynamicTypeSize, b: DynamicTypeSize) -> Bool { a.rawValue < b.rawValue }

    /// The body text's size at this setting, in points (Apple's: 17 at `.large`).
    var bodyPoints: Double { [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53][rawValue] }
}

struct DynamicTypeSizeKey: EnvironmentKey {
    static let defaultValue = DynamicTypeSize.large
}

extension EnvironmentValues {
    /// The text size views are shown at (`.large` unless a view above sets another).
    public var dynamicTypeSize: DynamicTypeSize {
        get { self[DynamicTypeSizeKey.self] }
        set { self[DynamicTypeSizeKey.self] = newValue }
    }
}

/// A subtree shown at another text size: the environment says so, and the subtree is zoomed by the ratio of the
/// sizes (CSS `zoom`, which grows the text and the layout around it, as Dynamic Type does).
struct DynamicTypeSizeView<Content: View>: View, PrimitiveView {
    let content: Content
    let size: (DynamicTypeSize) -> DynamicTypeSize
    var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let outer = context.environment.dynamicTypeSize
        let inner = size(outer)
        context.environment.dynamicTypeSize = inner
        defer { context.environment.dynamicTypeSize = outer }
        let nodes = context.render(content, path: path + ".t", axis: context.axis)
        guard inner != outer else { return nodes }
        let zoom = Font.num((inner.bodyPoints / outer.bodyPoints * 1000).rounded() / 1000)
        return [
            Node(
                "div", id: path, attributes: [("class", "sw-box sw-type-size"), ("style", "zoom:" + zoom)],
                children: nodes)
        ]
    }
}

extension View {
    /// Shows this view at a text size.
    public func dynamicTypeSize(_ size: DynamicTypeSize) -> some View {
        DynamicTypeSizeView(content: self) { _ in size }
    }

    /// Keeps this view's text size within a range (a size chosen above that is outside it is clamped).
    public func dynamicTypeSize<T: RangeExpression>(_ range: T) -> some View where T.Bound == DynamicTypeSize {
        DynamicTypeSizeView(content: self) { size in
            if range.contains(size) { return size }
            let all = DynamicTypeSize.allCases.filter { range.contains($0) }
            guard let low = all.first, let high = all.last else { return size }
            return size < low ? low : high
        }
    }
}
