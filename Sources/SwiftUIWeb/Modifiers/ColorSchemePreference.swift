/// A view that asks its window for a color scheme.
struct PreferredColorSchemeView<Content: View>: View, PrimitiveView {
    let content: Content
    let scheme: ColorScheme?
    var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        context.addPreferredColorScheme(scheme)
        return context.render(content, path: path)
    }
}

extension View {
    /// Asks the window to show light or dark whatever the system's appearance (`nil`: no preference). The window's
    /// stylesheet turns, and every view of the window reads the scheme from `@Environment(\.colorScheme)`. When
    /// several views ask, the outermost wins.
    public func preferredColorScheme(_ colorScheme: ColorScheme?) -> some View {
        PreferredColorSchemeView(content: self, scheme: colorScheme)
    }
}
