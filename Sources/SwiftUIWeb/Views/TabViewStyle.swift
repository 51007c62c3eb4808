import Foundation

/// How a ``TabView`` shows its views: a row of tabs, or pages with an index of dots.
public protocol TabViewStyle: Sendable {
    /// Whether the style pages (and how it shows its index), for the tab view.
    var _paging: PageTabViewStyle.IndexDisplayMode? { get }
}

/// Tabs above the content (the browser's form of a tab bar).
public struct DefaultTabViewStyle: TabViewStyle {
    /// The default style.
    public init() {}
    /// Not paging.
    public var _paging: PageTabViewStyle.IndexDisplayMode? { nil }
}

/// Pages shown one at a time, with Previous and Next buttons and an index of dots (one a page) below them.
public struct PageTabViewStyle: TabViewStyle {
    /// When the index of dots shows.
    public enum IndexDisplayMode: Sendable {
        /// When there is more than one page.
        case automatic
        /// Always.
        case always
        /// Never (the Previous and Next buttons stay, as the keyboard's and mouse's way to turn pages).
        case never
    }
    /// When the index shows.
    public var indexDisplayMode: IndexDisplayMode
    /// A paging style.
    public init(indexDisplayMode: IndexDisplayMode = .automatic) { self.indexDisplayMode = indexDisplayMode }
    /// Paging, with this index.
    public var _paging: PageTabViewStyle.IndexDisplayMode? { indexDisplayMode }
}

extension TabViewStyle where Self == DefaultTabViewStyle {
    /// Tabs above the content.
    public static var automatic: DefaultTabViewStyle { DefaultTabViewStyle() }
}

extension TabViewStyle where Self == PageTabViewStyle {
    /// Pages with an index of dots.
    public static var page: PageTabViewStyle { PageTabViewStyle() }
    /// Pages, with the index shown as `indexDisplayMode` says.
    public static func page(indexDisplayMode: PageTabViewStyle.IndexDisplayMode) -> PageTabViewStyle {
        PageTabViewStyle(indexDisplayMode: indexDisplayMode)
    }
}

struct TabViewStyleKey: EnvironmentKey {
    static let defaultValue: any TabViewStyle = DefaultTabViewStyle()
}

extension EnvironmentValues {
    var tabViewStyle: any TabViewStyle {
        get { self[TabViewStyleKey.self] }
        set { self[TabViewStyleKey.self] = newValue }
    }
}

extension View {
    /// How the tab views in this view show their views.
    public func tabViewStyle<S: TabViewStyle>(_ style: S) -> some View {
        environment(\.tabViewStyle, style)
    }
}
