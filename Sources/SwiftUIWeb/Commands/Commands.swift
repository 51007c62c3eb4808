/// Menu-bar commands of an app: its own menus (`CommandMenu`), additions to the standard menus
/// (`CommandGroup`), and built-in sets (`SidebarCommands`, `ToolbarCommands`, `TextEditingCommands`).
@MainActor @preconcurrency
public protocol Commands {
    /// The type of the commands' content.
    associatedtype Body: Commands
    /// The content.
    @CommandsBuilder var body: Body { get }
}

extension Never: Commands {}

/// Commands SwiftUIWeb places in the menu bar itself.
@MainActor
protocol PrimitiveCommands {
    func collect(into menus: inout CommandsCollector)
}

/// Builds commands.
@MainActor @resultBuilder
public enum CommandsBuilder {
    /// One set of commands.
    public static func buildBlock<C: Commands>(_ content: C) -> C { content }
    /// No commands.
    public static func buildBlock() -> EmptyCommands { EmptyCommands() }
    /// Several sets of commands.
    public static func buildBlock<each C: Commands>(_ content: repeat each C) -> CommandsList {
        var list: [any Commands] = []
        for c in repeat each content { list.append(c) }
        return CommandsList(items: list)
    }
    /// `if` without `else`.
    public static func buildOptional<C: Commands>(_ content: C?) -> CommandsList {
        CommandsList(items: content.map { [$0] } ?? [])
    }
    /// `if`/`else`.
    public static func buildEither<C: Commands>(first content: C) -> CommandsList { CommandsList(items: [content]) }
    /// `if`/`else`.
    public static func buildEither<C: Commands>(second content: C) -> CommandsList { CommandsList(items: [content]) }
    /// `if #available`.
    public static func buildLimitedAvailability<C: Commands>(_ content: C) -> CommandsList {
        CommandsList(items: [content])
    }
}

/// A list of commands from ``CommandsBuilder``.
public struct CommandsList: Commands, PrimitiveCommands {
    let items: [any Commands]
    /// Primitive commands.
    public var body: Never { fatalError("primitive commands") }
    func collect(into menus: inout CommandsCollector) { for item in items { menus.add(item) } }
}

/// No commands.
public struct EmptyCommands: Commands, PrimitiveCommands {
    /// Creates empty commands.
    public init() {}
    /// Primitive commands.
    public var body: Never { fatalError("primitive commands") }
    func collect(into menus: inout CommandsCollector) {}
}

/// A menu of the app's own, placed after the View menu.
public struct CommandMenu<Content: View>: Commands, PrimitiveCommands {
    let name: String
    let content: () -> Content
    /// Creates a menu with a name and its items (buttons, toggles, dividers, sections).
    public init<S: StringProtocol>(_ name: S, @ViewBuilder content: @escaping () -> Content) {
        self.name = String(name)
        self.content = content
    }
    /// Creates a menu with a text name.
    public init(_ name: Text, @ViewBuilder content: @escaping () -> Content) {
        self.name = name.plainText
        self.content = content
    }
    /// Primitive commands.
    public var body: Never { fatalError("primitive commands") }
    func collect(into menus: inout CommandsCollector) { menus.customMenus.append((name, content())) }
}

/// Items added to a standard menu: before, after or in place of the items at a placement.
public struct CommandGroup<Content: View>: Commands, PrimitiveCommands {
    enum Position { case before, after, replacing }
    let placement: CommandGroupPlacement
    let position: Position
    let content: () -> Content
    /// Adds items before a placement's standard items.
    public init(before group: CommandGroupPlacement, @ViewBuilder addition: @escaping () -> Content) {
        placement = group
        position = .before
        content = addition
    }
    /// Adds items after a placement's standard items.
    public init(after group: CommandGroupPlacement, @ViewBuilder addition: @escaping () -> Content) {
        placement = group
        position = .after
        content = addition
    }
    /// Replaces a placement's standard items (an empty replacement removes them).
    public init(replacing group: CommandGroupPlacement, @ViewBuilder addition: @escaping () -> Content) {
        placement = group
        position = .replacing
        content = addition
    }
    /// Primitive commands.
    public var body: Never { fatalError("primitive commands") }
    func collect(into menus: inout CommandsCollector) {
        var group = menus.groups[placement] ?? .init()
        switch position {
        case .before: group.before.append(content())
        case .after: group.after.append(content())
        case .replacing: group.replacement = (group.replacement ?? []) + [content()]
        }
        menus.groups[placement] = group
    }
}

/// Where a ``CommandGroup`` goes: a group of items in one of the standard menus.
public struct CommandGroupPlacement: Hashable, Sendable {
    let name: String
    let menu: StandardMenu

    enum StandardMenu: Int, Sendable, Hashable { case app, file, edit, view, window, help }

    /// About the app (app menu).
    public static let appInfo = CommandGroupPlacement(name: "appInfo", menu: .app)
    /// Settings… (app menu).
    public static let appSettings = CommandGroupPlacement(name: "appSettings", menu: .app)
    /// Services (app menu).
    public static let systemServices = CommandGroupPlacement(name: "systemServices", menu: .app)
    /// Hide and show (app menu).
    public static let appVisibility = CommandGroupPlacement(name: "appVisibility", menu: .app)
    /// Quit (app menu).
    public static let appTermination = CommandGroupPlacement(name: "appTermination", menu: .app)
    /// New window / new document and Open (File menu).
    public static let newItem = CommandGroupPlacement(name: "newItem", menu: .file)
    /// Save, Duplicate, Rename, Revert (File menu).
    public static let saveItem = CommandGroupPlacement(name: "saveItem", menu: .file)
    /// Import and export (File menu).
    public static let importExport = CommandGroupPlacement(name: "importExport", menu: .file)
    /// Print (File menu).
    public static let printItem = CommandGroupPlacement(name: "printItem", menu: .file)
    /// Undo and Redo (Edit menu).
    public static let undoRedo = CommandGroupPlacement(name: "undoRedo", menu: .edit)
    /// Cut, Copy, Paste, Select All (Edit menu).
    public static let pasteboard = CommandGroupPlacement(name: "pasteboard", menu: .edit)
    /// Find and text transformations (Edit menu).
    public static let textEditing = CommandGroupPlacement(name: "textEditing", menu: .edit)
    /// Text formatting (Format menu on macOS; the Edit menu here).
    public static let textFormatting = CommandGroupPlacement(name: "textFormatting", menu: .edit)
    /// Toolbar (View menu).
    public static let toolbar = CommandGroupPlacement(name: "toolbar", menu: .view)
    /// Sidebar (View menu).
    public static let sidebar = CommandGroupPlacement(name: "sidebar", menu: .view)
    /// Window size (Window menu).
    public static let windowSize = CommandGroupPlacement(name: "windowSize", menu: .window)
    /// The app's single windows (Window menu).
    public static let singleWindowList = CommandGroupPlacement(name: "singleWindowList", menu: .window)
    /// The open windows (Window menu).
    public static let windowList = CommandGroupPlacement(name: "windowList", menu: .window)
    /// Window arrangement (Window menu).
    public static let windowArrangement = CommandGroupPlacement(name: "windowArrangement", menu: .window)
    /// Help (Help menu).
    public static let help = CommandGroupPlacement(name: "help", menu: .help)

    /// The placements of each standard menu, in order.
    static let order: [CommandGroupPlacement] = [
        .appInfo, .appSettings, .systemServices, .appVisibility, .appTermination,
        .newItem, .saveItem, .importExport, .printItem,
        .undoRedo, .pasteboard, .textEditing, .textFormatting,
        .toolbar, .sidebar,
        .windowSize, .singleWindowList, .windowList, .windowArrangement,
        .help,
    ]
}

/// The standard "Toggle Sidebar" item (View menu): shows or hides a split view's sidebar.
public struct SidebarCommands: Commands, PrimitiveCommands {
    /// Creates the sidebar commands.
    public init() {}
    /// Primitive commands.
    public var body: Never { fatalError("primitive commands") }
    func collect(into menus: inout CommandsCollector) { menus.builtIns.insert(.sidebar) }
}

/// The standard "Hide Toolbar" / "Show Toolbar" item (View menu).
public struct ToolbarCommands: Commands, PrimitiveCommands {
    /// Creates the toolbar commands.
    public init() {}
    /// Primitive commands.
    public var body: Never { fatalError("primitive commands") }
    func collect(into menus: inout CommandsCollector) { menus.builtIns.insert(.toolbar) }
}

/// The standard text-editing items (Edit menu): Make Upper Case, Make Lower Case and Capitalize, acting on
/// the selected text of the focused field.
public struct TextEditingCommands: Commands, PrimitiveCommands {
    /// Creates the text-editing commands.
    public init() {}
    /// Primitive commands.
    public var body: Never { fatalError("primitive commands") }
    func collect(into menus: inout CommandsCollector) { menus.builtIns.insert(.textEditing) }
}

/// The commands of an app, gathered from its scenes for one window's menu bar.
@MainActor
struct CommandsCollector {
    struct Group {
        var before: [any View] = []
        var after: [any View] = []
        var replacement: [any View]?
    }
    enum BuiltIn { case sidebar, toolbar, textEditing }

    var customMenus: [(String, any View)] = []
    var groups: [CommandGroupPlacement: Group] = [:]
    var builtIns: Set<BuiltIn> = []
    let context: RenderContext

    init(context: RenderContext) { self.context = context }

    /// Adds commands: primitive ones place themselves; others get their dynamic properties (such as
    /// `@FocusedBinding`) connected, then their body is added.
    mutating func add(_ commands: any Commands) {
        if let primitive = commands as? any PrimitiveCommands {
            primitive.collect(into: &self)
            return
        }
        for child in Mirror(reflecting: commands).children {
            if let bindable = child.value as? any SceneBindable {
                bindable.install(in: context.scene, key: "commands/" + (child.label ?? "?"), context: context)
            }
        }
        add(commands.body)
    }
}

/// A scene with commands added (`.commands { }`).
public struct CommandsScene<Content: Scene, C: Commands>: Scene, PrimitiveScene {
    let content: Content
    let commands: C
    /// Primitive scene.
    public var body: Never { fatalError("primitive scene") }
    func collect(into catalog: inout SceneCatalog) {
        catalog.commands.append(commands)
        catalog.add(content)
    }
}

/// A scene whose standard menu items are removed (`.commandsRemoved()`).
public struct CommandsRemovedScene<Content: Scene>: Scene, PrimitiveScene {
    let content: Content
    /// Primitive scene.
    public var body: Never { fatalError("primitive scene") }
    func collect(into catalog: inout SceneCatalog) {
        catalog.removesDefaultCommands = true
        catalog.add(content)
    }
}

extension Scene {
    /// Adds commands to the app's menu bar.
    public func commands<C: Commands>(@CommandsBuilder content: () -> C) -> some Scene {
        CommandsScene(content: self, commands: content())
    }
    /// Removes the scene's standard menu items (New Window and the like).
    public func commandsRemoved() -> some Scene { CommandsRemovedScene(content: self) }
}
