import Foundation

/// A height a sheet rests at (`presentationDetents`).
public struct PresentationDetent: Hashable, Sendable {
    /// The height as CSS, and its size for choosing the smallest (in thousandths of the window, or points).
    let css: String
    let order: Double
    /// About half the window.
    public static let medium = PresentationDetent(css: "50vh", order: 500)
    /// The window's full height (less a margin).
    public static let large = PresentationDetent(css: "86vh", order: 860)
    /// A fraction of the window's height.
    public static func fraction(_ fraction: Double) -> PresentationDetent {
        let f = min(max(fraction, 0), 1)
        return PresentationDetent(css: "\(Font.num((f * 1000).rounded() / 10))vh", order: f * 1000)
    }
    /// A height in points.
    public static func height(_ height: Double) -> PresentationDetent {
        PresentationDetent(css: "\(Font.num(height))px", order: height)
    }
}

/// How wide a sheet is (`presentationSizing`).
public struct PresentationSizing: Hashable, Sendable {
    let name: String
    /// The platform's usual size (a form's).
    public static let automatic = PresentationSizing(name: "form")
    /// A form's width.
    public static let form = PresentationSizing(name: "form")
    /// A page's width: wider, for documents.
    public static let page = PresentationSizing(name: "page")
    /// As wide as its content.
    public static let fitted = PresentationSizing(name: "fitted")
}

extension View {
    /// The heights the sheet showing this view rests at: it opens at the smallest (the page has no dragging
    /// between them; the content scrolls within that height).
    public func presentationDetents(_ detents: Set<PresentationDetent>) -> some View {
        let smallest = detents.min { $0.order < $1.order }
        return BoxView(
            content: self,
            style: smallest.map { "height:\($0.css);max-height:86vh;overflow:auto;align-self:stretch" } ?? "",
            cssClass: "sw-box sw-detent")
    }
    /// How wide the sheet showing this view is.
    public func presentationSizing(_ sizing: PresentationSizing) -> some View {
        BoxView(content: self, style: "align-self:stretch", cssClass: "sw-box sw-sizing-" + sizing.name)
    }
}
