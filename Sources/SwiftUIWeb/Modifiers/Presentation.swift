/// A modal presentation (sheet or alert) attached to a view: rendered after the view as an overlay
/// while presented. Its content gets a `dismiss` action in the environment.
struct PresentationView<Content: View>: View, PrimitiveView {
    enum Kind { case sheet, alert }
    let content: Content
    let kind: Kind
    let isPresented: @MainActor () -> Bool
    let dismiss: @MainActor () -> Void
    let onDismiss: (() -> Void)?
    let title: String?
    let makeActions: @MainActor () -> any View
    let makeMessage: (@MainActor () -> any View)?
    var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        var nodes = context.render(content, path: path + ".p")
        let presented = isPresented()
        if let onDismiss {
            context.addChange(
                ChangeHook(
                    path: path + "/presented", value: presented, initial: false,
                    equals: { ($0 as? Bool) == presented }, fire: { _ in if !presented { onDismiss() } }))
        }
        guard presented else { return nodes }
        let dismiss = self.dismiss
        let savedEnv = context.environment
        let savedAxis = context.axis
        let savedAlert = context.alertDismiss
        context.environment.dismiss = DismissAction { dismiss() }
        context.environment.isPresented = true
        context.axis = .vertical
        defer {
            context.environment = savedEnv
            context.axis = savedAxis
            context.alertDismiss = savedAlert
        }
        let id = path + ".sheet"
        switch kind {
        case .sheet:
            context.alertDismiss = nil
            let inner = context.render(makeActions(), path: id + ".c")
            _ = context.action(id + ".esc") { dismiss() }
            nodes.append(
                Node(
                    "div", id: id, attributes: [("class", "sw-overlay"), ("data-escape", id + ".esc")],
                    children: [
                        Node(
                            "div", id: id + ".box",
                            attributes: [("class", "sw-sheet"), ("role", "dialog"), ("aria-modal", "true")],
                            children: inner)
                    ]))
        case .alert:
            var children: [Node] = []
            if let title {
                children.append(Node("h2", id: id + ".t", attributes: [("class", "sw-alert-title")], text: title))
            }
            if let makeMessage {
                children.append(
                    Node(
                        "div", id: id + ".m", attributes: [("class", "sw-alert-message")],
                        children: context.render(makeMessage(), path: id + ".mc")))
            }
            context.alertDismiss = { dismiss() }
            var buttons = context.render(makeActions(), path: id + ".a", axis: .horizontal)
            if buttons.isEmpty {
                buttons = context.render(Button("OK") {}, path: id + ".ok")
            }
            children.append(Node("div", id: id + ".b", attributes: [("class", "sw-alert-buttons")], children: buttons))
            nodes.append(
                Node(
                    "div", id: id, attributes: [("class", "sw-overlay")],
                    children: [
                        Node(
                            "div", id: id + ".box",
                            attributes: [("class", "sw-alert"), ("role", "alertdialog"), ("aria-modal", "true")],
                            children: children)
                    ]))
        }
        return nodes
    }
}

extension View {
    /// Presents a sheet while `isPresented` is true.
    public func sheet<Content: View>(
        isPresented: Binding<Bool>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping () -> Content
    ) -> some View {
        PresentationView(
            content: self, kind: .sheet, isPresented: { isPresented.wrappedValue },
            dismiss: { isPresented.wrappedValue = false },
            onDismiss: onDismiss, title: nil, makeActions: { content() }, makeMessage: nil)
    }
    /// Presents a sheet for an item while it is non-nil.
    public func sheet<Item: Identifiable, Content: View>(
        item: Binding<Item?>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping (Item) -> Content
    ) -> some View {
        PresentationView(
            content: self, kind: .sheet, isPresented: { item.wrappedValue != nil },
            dismiss: { item.wrappedValue = nil },
            onDismiss: onDismiss, title: nil,
            makeActions: { item.wrappedValue.map { AnyView(content($0)) } ?? AnyView(EmptyView()) }, makeMessage: nil)
    }
    /// Presents a full-screen cover (a sheet here) while `isPresented` is true.
    public func fullScreenCover<Content: View>(
        isPresented: Binding<Bool>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping () -> Content
    ) -> some View {
        sheet(isPresented: isPresented, onDismiss: onDismiss, content: content)
    }
    /// Presents an alert with actions while `isPresented` is true; any of its buttons dismisses it.
    public func alert<S: StringProtocol, A: View>(
        _ title: S, isPresented: Binding<Bool>, @ViewBuilder actions: @escaping () -> A
    ) -> some View {
        PresentationView(
            content: self, kind: .alert, isPresented: { isPresented.wrappedValue },
            dismiss: { isPresented.wrappedValue = false },
            onDismiss: nil, title: String(title), makeActions: { actions() }, makeMessage: nil)
    }
    /// Presents an alert with actions and a message.
    public func alert<S: StringProtocol, A: View, M: View>(
        _ title: S, isPresented: Binding<Bool>, @ViewBuilder actions: @escaping () -> A,
        @ViewBuilder message: @escaping () -> M
    ) -> some View {
        PresentationView(
            content: self, kind: .alert, isPresented: { isPresented.wrappedValue },
            dismiss: { isPresented.wrappedValue = false },
            onDismiss: nil, title: String(title), makeActions: { actions() }, makeMessage: { message() })
    }
    /// Presents an alert about data while `isPresented` is true and the data is non-nil.
    public func alert<S: StringProtocol, A: View, M: View, T>(
        _ title: S, isPresented: Binding<Bool>, presenting data: T?,
        @ViewBuilder actions: @escaping (T) -> A, @ViewBuilder message: @escaping (T) -> M
    ) -> some View {
        PresentationView(
            content: self, kind: .alert, isPresented: { isPresented.wrappedValue && data != nil },
            dismiss: { isPresented.wrappedValue = false },
            onDismiss: nil, title: String(title),
            makeActions: { data.map { AnyView(actions($0)) } ?? AnyView(EmptyView()) },
            makeMessage: { data.map { AnyView(message($0)) } ?? AnyView(EmptyView()) })
    }
    /// Presents a confirmation dialog (an alert here) while `isPresented` is true.
    public func confirmationDialog<S: StringProtocol, A: View>(
        _ title: S, isPresented: Binding<Bool>, titleVisibility: Visibility = .automatic,
        @ViewBuilder actions: @escaping () -> A
    ) -> some View {
        alert(title, isPresented: isPresented, actions: actions)
    }
}

/// Whether something shows.
public enum Visibility: Hashable, Sendable { case automatic, visible, hidden }
