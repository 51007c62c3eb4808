import SwiftUIWeb

/// Text that warns (a missed dose, a refused entry) in a red that keeps 4.5:1 contrast (WCAG AA) on the window's
/// background: SwiftUI's `Color.red` (#ff3b30) has 3.6:1 on white, so light mode uses a darker red; dark mode
/// keeps the system red, which reads well on dark backgrounds.
struct AlertText: View {
    @Environment(\.colorScheme) private var colorScheme
    let text: String

    init(_ text: String) { self.text = text }

    var body: some View {
        Text(text).foregroundStyle(colorScheme == .dark ? Color.red : Color(red: 0.77, green: 0, blue: 0.07))
    }
}
