import Foundation

/// Previews of an app's views, shown on the app's preview gallery page (`/?g=_previews`).
///
/// Apple's `Preview` belongs to DeveloperToolsSupport, which `import SwiftUI` brings; here it is part of SwiftUIWeb.
/// Write previews with the `#Preview` macro, as for Xcode:
///
/// ```swift
/// #Preview("Empty list", traits: .sizeThatFitsLayout) {
///     ContentView(items: [])
/// }
/// ```
public struct Preview {
    /// The traits a view's preview takes (`PreviewTrait<Preview.ViewTraits>`).
    public struct ViewTraits {}
}

/// A trait of a preview: its layout, its orientation, or a modifier that gives it shared context.
public struct PreviewTrait<T> {
    enum Kind {
        case layout(PreviewLayout)
        case orientation(InterfaceOrientation)
        case modifier(any PreviewModifier)
    }
    let kind: Kind
}

extension PreviewTrait where T == Preview.ViewTraits {
    /// The preview is as large as the view wants to be.
    public static var sizeThatFitsLayout: PreviewTrait<T> { .init(kind: .layout(.sizeThatFits)) }
    /// The preview has this fixed size, in points.
    public static func fixedLayout(width: CGFloat, height: CGFloat) -> PreviewTrait<T> {
        .init(kind: .layout(.fixed(width: width, height: height)))
    }
    /// The preview fills a device-sized frame (the default).
    public static var defaultLayout: PreviewTrait<T> { .init(kind: .layout(.device)) }
    /// A device frame held upright.
    public static var portrait: PreviewTrait<T> { .init(kind: .orientation(.portrait)) }
    /// A device frame held upside down (in a browser: as upright).
    public static var portraitUpsideDown: PreviewTrait<T> { .init(kind: .orientation(.portraitUpsideDown)) }
    /// A device frame turned on its side, home button on the left.
    public static var landscapeLeft: PreviewTrait<T> { .init(kind: .orientation(.landscapeLeft)) }
    /// A device frame turned on its side, home button on the right.
    public static var landscapeRight: PreviewTrait<T> { .init(kind: .orientation(.landscapeRight)) }
    /// The preview's content is wrapped in a ``PreviewModifier``, whose shared context is made first.
    public static func modifier(_ modifier: some PreviewModifier) -> PreviewTrait<T> {
        .init(kind: .modifier(modifier))
    }
}

/// Wraps a preview's content, with a context made once and shared by every preview that uses the modifier's
/// type (sample data, a model container).
@MainActor @preconcurrency
public protocol PreviewModifier {
    /// The shared context (`Void` when there is none).
    associatedtype Context = Void
    /// The wrapped content's type.
    associatedtype Body: View
    /// Makes the shared context, once per modifier type for the whole gallery.
    static func makeSharedContext() async throws -> Context
    /// Wraps the preview's content.
    @ViewBuilder func body(content: Content, context: Context) -> Body
    /// The content a modifier wraps.
    typealias Content = PreviewModifierContent
}

extension PreviewModifier where Context == Void {
    /// No context to make.
    public static func makeSharedContext() async throws {}
}

/// The preview's content inside a ``PreviewModifier``'s `body(content:context:)`.
public struct PreviewModifierContent: View, PrimitiveView {
    let content: any View
    /// Primitive: no body.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] { context.render(content, path: path) }
}

/// `@Previewable` marks a variable in a `#Preview` body as the preview's state: `@Previewable @State var on = false`.
@attached(peer)
public macro Previewable() = #externalMacro(module: "SwiftUIWebMacros", type: "PreviewableMacro")

/// Declares a preview of a view, shown in the app's preview gallery.
@freestanding(declaration)
public macro Preview(
    _ name: String? = nil, @ViewBuilder body: @escaping @MainActor () -> any View
) = #externalMacro(module: "SwiftUIWebMacros", type: "PreviewMacro")

/// Declares a preview of a view with traits (layout, orientation, a ``PreviewModifier``).
@freestanding(declaration)
public macro Preview(
    _ name: String? = nil, traits: PreviewTrait<Preview.ViewTraits>,
    _ additionalTraits: PreviewTrait<Preview.ViewTraits>...,
    @ViewBuilder body: @escaping @MainActor () -> any View
) = #externalMacro(module: "SwiftUIWebMacros", type: "PreviewMacro")
