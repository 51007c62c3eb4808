import OpenCombineDispatch

/// A modifier that you apply to a view, producing a different version of it.
@MainActor @preconcurrency
public protocol ViewModifier {
    /// The type of view the modifier produces.
    associatedtype Body: View
    /// The content the modifier is applied to.
    typealias Content = _ViewModifier_Content<Self>
    /// The modified view.
    @ViewBuilder func body(content: Content) -> Body
}

/// The view a ``ViewModifier`` is applied to.
public struct _ViewModifier_Content<Modifier: ViewModifier>: View, PrimitiveView {
    let view: any View
    let path: String
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path _: String) -> [Node] { context.render(view, path: path) }
}

/// A view with a modifier applied.
public struct ModifiedContent<Content: View, Modifier: ViewModifier>: View, PrimitiveView {
    let content: Content
    let modifier: Modifier
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        context.scene.installDynamicProperties(of: modifier, path: path + ".vm", context: context)
        return context.render(
            modifier.body(content: _ViewModifier_Content(view: content, path: path + ".c")), path: path + ".vm")
    }
}

extension View {
    /// Applies a modifier.
    public func modifier<M: ViewModifier>(_ modifier: M) -> ModifiedContent<Self, M> {
        ModifiedContent(content: self, modifier: modifier)
    }
}

struct TitleView<Content: View>: View, PrimitiveView {
    let content: Content
    let title: String
    var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        if context.title == nil { context.title = title }
        return context.render(content, path: path)
    }
}

extension View {
    /// Sets the navigation title (a string, shown as it is), which also becomes the window's title.
    @_disfavoredOverload
    public func navigationTitle<S: StringProtocol>(_ title: S) -> some View {
        TitleView(content: self, title: String(title))
    }
    /// Sets a localized navigation title, which also becomes the window's title.
    public func navigationTitle(_ titleKey: LocalizedStringKey) -> some View {
        TitleView(content: self, title: Text(titleKey).plainText)
    }
    /// Sets the navigation title from text.
    public func navigationTitle(_ title: Text) -> some View { TitleView(content: self, title: title.plainText) }
    /// How the navigation stack level this view is the top of shows its title: `.inline` small in the bar,
    /// `.large` (and `.automatic`) as a large heading.
    public func navigationBarTitleDisplayMode(_ mode: NavigationBarItem.TitleDisplayMode) -> some View {
        AttributedView(
            content: self, attributes: mode == .inline ? [(NavigationBackButton.inlineTitleAttribute, "1")] : [])
    }
}

/// Navigation bar items (for `navigationBarTitleDisplayMode`).
public enum NavigationBarItem {
    /// How the title is displayed.
    public enum TitleDisplayMode: Sendable { case automatic, inline, large }
}

// MARK: tag, id

/// A view carrying a tag (read by a container before it renders the view, as `TabView` does).
@MainActor
protocol TagCarrying {
    var tag: AnyHashable { get }
}

struct TagView<Content: View>: View, PrimitiveView, TagCarrying {
    let content: Content
    let tag: AnyHashable
    var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let nodes = context.render(content, path: path)
        if let first = nodes.first { context.setTag(first.id, tag) }
        return nodes
    }
}

struct IdentityView<Content: View>: View, PrimitiveView {
    let content: Content
    let identity: String
    var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        context.render(content, path: path + "#" + identity)
    }
}

extension View {
    /// Tags the view with a value (the value a `Picker` selects, or a list row's selection).
    public func tag<V: Hashable>(_ tag: V) -> some View { TagView(content: self, tag: AnyHashable(tag)) }
    /// Gives the view an explicit identity: when it changes, the view's state starts afresh.
    public func id<ID: Hashable>(_ id: ID) -> some View {
        IdentityView(content: self, identity: String(describing: id))
    }
}

// MARK: life cycle

struct LifecycleView<Content: View>: View, PrimitiveView {
    enum Kind {
        case appear(() -> Void)
        case disappear(() -> Void)
    }
    let content: Content
    let kind: Kind
    var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        switch kind {
        case .appear(let f): context.addAppear(path, f)
        case .disappear(let f): context.addDisappear(path, f)
        }
        return context.render(content, path: path + ".l")
    }
}

struct ChangeView<Content: View, V: Equatable>: View, PrimitiveView {
    let content: Content
    let value: V
    let initial: Bool
    let action: (V, V) -> Void
    var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let value = self.value
        let action = self.action
        context.addChange(
            ChangeHook(
                path: path, value: value, initial: initial,
                equals: { ($0 as? V) == value },
                fire: { old in action((old as? V) ?? value, value) }))
        return context.render(content, path: path + ".o")
    }
}

/// One `onChange` registration of a render pass.
struct ChangeHook {
    let path: String
    let value: Any
    let initial: Bool
    let equals: (Any) -> Bool
    let fire: (Any?) -> Void
}

/// One `task` registration of a render pass.
struct TaskHook {
    let id: Any
    let equals: (Any) -> Bool
    let priority: TaskPriority
    let work: @MainActor @Sendable () async -> Void
}

struct TaskView<Content: View>: View, PrimitiveView {
    let content: Content
    let hook: TaskHook
    var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        context.addTask(path, hook)
        return context.render(content, path: path + ".k")
    }
}

extension View {
    /// Runs an action when the view appears in its window.
    public func onAppear(perform action: (() -> Void)? = nil) -> some View {
        LifecycleView(content: self, kind: .appear(action ?? {}))
    }
    /// Runs an action when the view leaves its window.
    public func onDisappear(perform action: (() -> Void)? = nil) -> some View {
        LifecycleView(content: self, kind: .disappear(action ?? {}))
    }
    /// Runs an action when a value changes, with the old and new values.
    public func onChange<V: Equatable>(
        of value: V, initial: Bool = false, _ action: @escaping (_ oldValue: V, _ newValue: V) -> Void
    ) -> some View {
        ChangeView(content: self, value: value, initial: initial, action: action)
    }
    /// Runs an action when a value changes.
    public func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping () -> Void) -> some View
    {
        ChangeView(content: self, value: value, initial: initial) { _, _ in action() }
    }
    /// Runs an action when a value changes, with the new value (the iOS 14 form).
    public func onChange<V: Equatable>(of value: V, perform action: @escaping (_ newValue: V) -> Void) -> some View {
        ChangeView(content: self, value: value, initial: false) { _, new in action(new) }
    }
    /// Starts an asynchronous task when the view appears; cancels it when the view disappears.
    public func task(
        priority: TaskPriority = .userInitiated, _ action: @escaping @MainActor @Sendable () async -> Void
    ) -> some View {
        TaskView(content: self, hook: TaskHook(id: 0, equals: { $0 is Int }, priority: priority, work: action))
    }
    /// Starts a task when the view appears and restarts it whenever `id` changes.
    public func task<T: Equatable>(
        id value: T, priority: TaskPriority = .userInitiated, _ action: @escaping @MainActor @Sendable () async -> Void
    ) -> some View {
        TaskView(
            content: self, hook: TaskHook(id: value, equals: { ($0 as? T) == value }, priority: priority, work: action))
    }
}

// MARK: receive

/// The publisher and action of an `onReceive`, kept on the main actor (the view's).
@MainActor
final class ReceiveBox<P: Publisher> where P.Failure == Never {
    let publisher: P
    let action: (P.Output) -> Void
    init(publisher: P, action: @escaping (P.Output) -> Void) {
        self.publisher = publisher
        self.action = action
    }

    /// Subscribes, delivering values on the main queue (the main actor's), until the task is cancelled.
    func receive() async {
        let subscription = publisher.receive(on: DispatchQueue.main.ocombine).sink { [self] value in
            MainActor.assumeIsolated { action(value) }
        }
        defer { subscription.cancel() }
        while true {
            do {
                try await Task.sleep(for: .seconds(86_400))
            } catch {
                return  // Cancelled: the view left the window, and the subscription ends with it.
            }
        }
    }
}

extension View {
    /// Runs `action` with each value `publisher` emits while the view is in its window, on the main actor (a value
    /// emitted on another thread is delivered through the main queue).
    public func onReceive<P: Publisher>(_ publisher: P, perform action: @escaping (P.Output) -> Void) -> some View
    where P.Failure == Never {
        let box = ReceiveBox(publisher: publisher, action: action)
        return TaskView(
            content: self,
            hook: TaskHook(id: 0, equals: { $0 is Int }, priority: .userInitiated) { await box.receive() })
    }
}

// MARK: submit

struct SubmitView<Content: View>: View, PrimitiveView {
    let content: Content
    let action: () -> Void
    var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let saved = context.onSubmit
        context.onSubmit = action
        defer { context.onSubmit = saved }
        return context.render(content, path: path)
    }
}

/// What a submit applies to.
public struct SubmitTriggers: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let text = SubmitTriggers(rawValue: 1), search = SubmitTriggers(rawValue: 2)
}

extension View {
    /// Runs an action when the user presses Return in a text field of this view.
    public func onSubmit(of triggers: SubmitTriggers = .text, _ action: @escaping () -> Void) -> some View {
        SubmitView(content: self, action: action)
    }
}

// MARK: toolbar

/// Where a toolbar item goes.
public struct ToolbarItemPlacement: Hashable, Sendable {
    let leading: Bool
    public static let automatic = ToolbarItemPlacement(leading: false),
        primaryAction = ToolbarItemPlacement(leading: false)
    public static let confirmationAction = ToolbarItemPlacement(leading: false),
        cancellationAction = ToolbarItemPlacement(leading: true)
    public static let navigation = ToolbarItemPlacement(leading: true), principal = ToolbarItemPlacement(leading: false)
    public static let status = ToolbarItemPlacement(leading: false),
        destructiveAction = ToolbarItemPlacement(leading: false)
    public static let topBarLeading = ToolbarItemPlacement(leading: true),
        topBarTrailing = ToolbarItemPlacement(leading: false)
    public static let navigationBarLeading = ToolbarItemPlacement(leading: true),
        navigationBarTrailing = ToolbarItemPlacement(leading: false)
    public static let bottomBar = ToolbarItemPlacement(leading: false)
}

/// An item of a toolbar.
public struct ToolbarItem<ID, Content: View>: View, PrimitiveView {
    let placement: ToolbarItemPlacement
    let content: Content
    /// Creates an item.
    public init(placement: ToolbarItemPlacement = .automatic, @ViewBuilder content: () -> Content) where ID == () {
        self.placement = placement
        self.content = content()
    }
    /// Creates an item with an identifier.
    public init(id: String, placement: ToolbarItemPlacement = .automatic, @ViewBuilder content: () -> Content)
    where ID == String {
        self.placement = placement
        self.content = content()
    }
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let cls = placement.leading ? "sw-toolbar-item sw-leading" : "sw-toolbar-item"
        return [
            Node(
                "div", id: path, attributes: [("class", cls)],
                children: context.render(content, path: path + ".c", axis: .horizontal))
        ]
    }
}

/// A group of toolbar items.
public struct ToolbarItemGroup<Content: View>: View, PrimitiveView {
    let placement: ToolbarItemPlacement
    let content: Content
    /// Creates a group.
    public init(placement: ToolbarItemPlacement = .automatic, @ViewBuilder content: () -> Content) {
        self.placement = placement
        self.content = content()
    }
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        ToolbarItem(placement: placement) { content }.makeNodes(context, path: path)
    }
}

struct ToolbarView<Content: View, Items: View>: View, PrimitiveView {
    let content: Content
    let items: Items
    var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let nodes = context.render(content, path: path)
        let saved = context.axis
        let savedEnv = context.environment
        context.axis = .horizontal
        // Toolbar labels show their icon (the title becomes the tooltip), as in a window toolbar.
        context.environment.labelStyle = .iconOnly
        context.addToolbar(context.render(items, path: path + ".tb"))
        context.axis = saved
        context.environment = savedEnv
        return nodes
    }
}

extension View {
    /// Adds items to the window's toolbar.
    public func toolbar<Items: View>(@ViewBuilder content: () -> Items) -> some View {
        ToolbarView(content: self, items: content())
    }
}
