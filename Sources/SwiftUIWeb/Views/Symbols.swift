/// SwiftUIWeb's own small symbol set: SF Symbols names drawn as inline SVG (24×24, stroked in the
/// current color). `.fill` variants fill the outline. Unknown names draw a dotted placeholder circle.
public enum Symbols {
    static let shapes: [String: String] = [
        "plus": #"<path d="M12 5v14M5 12h14"/>"#,
        "minus": #"<path d="M5 12h14"/>"#,
        "xmark": #"<path d="M6 6l12 12M18 6L6 18"/>"#,
        "checkmark": #"<path d="M5 12.5l4.5 4.5L19 7"/>"#,
        "chevron.right": #"<path d="M9 5l7 7-7 7"/>"#,
        "chevron.left": #"<path d="M15 5l-7 7 7 7"/>"#,
        "chevron.up": #"<path d="M5 15l7-7 7 7"/>"#,
        "chevron.down": #"<path d="M5 9l7 7 7-7"/>"#,
        "arrow.right": #"<path d="M4 12h16M14 6l6 6-6 6"/>"#,
        "arrow.left": #"<path d="M20 12H4M10 6l-6 6 6 6"/>"#,
        "arrow.up": #"<path d="M12 20V4M6 10l6-6 6 6"/>"#,
        "arrow.down": #"<path d="M12 4v16M6 14l6 6 6-6"/>"#,
        "arrow.clockwise": #"<path d="M20 12a8 8 0 1 1-2.34-5.66M20 4v5h-5"/>"#,
        "star": #"<path d="M12 3l2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1-4.4-4.3 6.1-.9z"/>"#,
        "heart": #"<path d="M12 20s-7-4.4-9-9a4.8 4.8 0 0 1 9-3 4.8 4.8 0 0 1 9 3c-2 4.6-9 9-9 9z"/>"#,
        "trash": #"<path d="M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6"/>"#,
        "pencil": #"<path d="M4 20l1-4L16 5l3 3L8 19zM14 7l3 3"/>"#,
        "square.and.pencil":
            #"<path d="M11 4H5a1 1 0 0 0-1 1v14a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-6M10 14l1-3 8-8 2 2-8 8z"/>"#,
        "gear":
            #"<circle cx="12" cy="12" r="3"/><path d="M12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M4.9 19.1L7 17M17 7l2.1-2.1"/>"#,
        "gearshape":
            #"<circle cx="12" cy="12" r="3"/><path d="M12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M4.9 19.1L7 17M17 7l2.1-2.1"/>"#,
        "book": #"<path d="M12 6c-2-1.5-5-2-8-2v14c3 0 6 .5 8 2 2-1.5 5-2 8-2V4c-3 0-6 .5-8 2zM12 6v14"/>"#,
        "books.vertical": #"<path d="M4 4h4v16H4zM10 4h4v16h-4zM15.5 5l3.9-1 3 15.5-3.9 1z"/>"#,
        "bookmark": #"<path d="M6 3h12v18l-6-4-6 4z"/>"#,
        "person": #"<circle cx="12" cy="8" r="4"/><path d="M4 21a8 8 0 0 1 16 0"/>"#,
        "person.2":
            #"<circle cx="9" cy="8" r="3.5"/><path d="M2 20a7 7 0 0 1 14 0M16 4.5a3.5 3.5 0 0 1 0 7M18 13.5a7 7 0 0 1 4 6.5"/>"#,
        "house": #"<path d="M3 11l9-7 9 7M5 10v10h5v-6h4v6h5V10"/>"#,
        "folder": #"<path d="M3 6a1 1 0 0 1 1-1h5l2 2h9a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1z"/>"#,
        "doc": #"<path d="M6 3h8l4 4v14H6zM14 3v4h4"/>"#,
        "doc.text": #"<path d="M6 3h8l4 4v14H6zM14 3v4h4M9 12h6M9 16h6"/>"#,
        "magnifyingglass": #"<circle cx="10.5" cy="10.5" r="6.5"/><path d="M15.5 15.5L21 21"/>"#,
        "bell": #"<path d="M6 17V11a6 6 0 0 1 12 0v6l2 2H4zM10 21h4"/>"#,
        "calendar": #"<rect x="3" y="5" width="18" height="16" rx="2"/><path d="M3 10h18M8 3v4M16 3v4"/>"#,
        "clock": #"<circle cx="12" cy="12" r="9"/><path d="M12 7v5l3 2"/>"#,
        "envelope": #"<rect x="3" y="5" width="18" height="14" rx="2"/><path d="M3 7l9 6 9-6"/>"#,
        "info.circle": #"<circle cx="12" cy="12" r="9"/><path d="M12 11v6M12 7.5v.5"/>"#,
        "questionmark.circle":
            #"<circle cx="12" cy="12" r="9"/><path d="M9.5 9.5a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6v.6M12 17v.5"/>"#,
        "exclamationmark.triangle": #"<path d="M12 3l10 18H2zM12 10v5M12 18v.5"/>"#,
        "plus.circle": #"<circle cx="12" cy="12" r="9"/><path d="M12 8v8M8 12h8"/>"#,
        "minus.circle": #"<circle cx="12" cy="12" r="9"/><path d="M8 12h8"/>"#,
        "xmark.circle": #"<circle cx="12" cy="12" r="9"/><path d="M9 9l6 6M15 9l-6 6"/>"#,
        "checkmark.circle": #"<circle cx="12" cy="12" r="9"/><path d="M8 12.5l2.5 2.5L16 9.5"/>"#,
        "circle": #"<circle cx="12" cy="12" r="9"/>"#,
        "square": #"<rect x="4" y="4" width="16" height="16" rx="2"/>"#,
        "macwindow": #"<rect x="3" y="4" width="18" height="16" rx="2"/><path d="M3 8h18"/>"#,
        "macwindow.badge.plus":
            #"<path d="M14 20H5a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2v6M3 8h18M19 15v6M16 18h6"/>"#,
        "rectangle.stack": #"<rect x="3" y="8" width="18" height="12" rx="2"/><path d="M6 5h12M8 2h8"/>"#,
        "sidebar.left": #"<rect x="3" y="4" width="18" height="16" rx="2"/><path d="M9 4v16"/>"#,
        "list.bullet": #"<path d="M9 6h11M9 12h11M9 18h11M4.5 6h.01M4.5 12h.01M4.5 18h.01"/>"#,
        "ellipsis": #"<path d="M6 12h.01M12 12h.01M18 12h.01"/>"#,
        "ellipsis.circle": #"<circle cx="12" cy="12" r="9"/><path d="M8 12h.01M12 12h.01M16 12h.01"/>"#,
        "square.and.arrow.up": #"<path d="M12 3v12M8 7l4-4 4 4M6 11H5v10h14V11h-1"/>"#,
        "tray": #"<path d="M3 13l3-8h12l3 8v6H3zM3 13h5l1 2h6l1-2h5"/>"#,
        "cart":
            #"<path d="M3 4h2l2.5 11h11L21 7H6.5"/><circle cx="9" cy="19.5" r="1.5"/><circle cx="17" cy="19.5" r="1.5"/>"#,
        "tag": #"<path d="M3 12V4h8l10 10-8 8zM7.5 8h.01"/>"#,
        "flag": #"<path d="M5 21V4M5 4h11l-2 4 2 4H5"/>"#,
        "lock": #"<rect x="5" y="11" width="14" height="10" rx="2"/><path d="M8 11V7a4 4 0 0 1 8 0v4"/>"#,
        "globe": #"<circle cx="12" cy="12" r="9"/><path d="M3 12h18M12 3c3 3.5 3 14.5 0 18M12 3c-3 3.5-3 14.5 0 18"/>"#,
        "sun.max":
            #"<circle cx="12" cy="12" r="4"/><path d="M12 2v2M12 20v2M2 12h2M20 12h2M5 5l1.4 1.4M17.6 17.6L19 19M5 19l1.4-1.4M17.6 6.4L19 5"/>"#,
        "moon": #"<path d="M20 14.5A8 8 0 1 1 9.5 4a6.5 6.5 0 0 0 10.5 10.5z"/>"#,
        "photo":
            #"<rect x="3" y="5" width="18" height="14" rx="2"/><circle cx="8.5" cy="10" r="1.5"/><path d="M21 16l-5-5-8 8"/>"#,
        "play": #"<path d="M7 4l13 8-13 8z"/>"#,
        "pause": #"<path d="M8 5v14M16 5v14"/>"#,
        "stop": #"<rect x="6" y="6" width="12" height="12" rx="1"/>"#,
        "bolt": #"<path d="M13 2L4 14h7l-1 8 9-12h-7z"/>"#,
        "link":
            #"<path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1"/>"#,
        "paperplane": #"<path d="M21 3L3 10.5l7 3 3 7z M10 13.5L21 3"/>"#,
        "square.grid.2x2":
            #"<rect x="4" y="4" width="7" height="7" rx="1"/><rect x="13" y="4" width="7" height="7" rx="1"/><rect x="4" y="13" width="7" height="7" rx="1"/><rect x="13" y="13" width="7" height="7" rx="1"/>"#,
        "slider.horizontal.3":
            #"<path d="M4 6h16M4 12h16M4 18h16"/><circle cx="8" cy="6" r="2"/><circle cx="15" cy="12" r="2"/><circle cx="10" cy="18" r="2"/>"#,
        "leaf": #"<path d="M5 19c0-9 5-14 15-14 0 10-5 15-14 15zM5 19l7-7"/>"#,
        "drop": #"<path d="M12 3c3.5 4.5 6 8 6 11a6 6 0 0 1-12 0c0-3 2.5-6.5 6-11z"/>"#,
        "birthday.cake": #"<path d="M4 21h16v-8H4zM4 16c2 1.5 4 1.5 6 0s4-1.5 6 0 3 1.5 4 0M12 13V9M12 6.5v.5"/>"#,
        "line.3.horizontal.decrease": #"<path d="M4 7h16M7 12h10M10 17h4"/>"#,
    ]

    /// The names drawn (with their `.fill` variants where the shape is closed).
    public static var names: [String] { shapes.keys.sorted() }

    static func svg(_ name: String) -> String {
        var base = name
        var filled = false
        if base.hasSuffix(".fill") {
            base.removeLast(5)
            filled = true
        }
        let shape: String
        if let s = shapes[base] {
            shape = s
        } else if base.hasSuffix(".circle"), let inner = shapes[String(base.dropLast(7))] {
            shape = #"<circle cx="12" cy="12" r="10"/><g transform="translate(5.4 5.4) scale(.55)">"# + inner + "</g>"
        } else {
            shape = #"<circle cx="12" cy="12" r="8" stroke-dasharray="2 3"/>"#
        }
        let fill = filled ? #" fill="currentColor" fill-opacity=".9""# : #" fill="none""#
        return #"<svg viewBox="0 0 24 24" width="1em" height="1em""# + fill
            + #" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">"#
            + shape + "</svg>"
    }
}
