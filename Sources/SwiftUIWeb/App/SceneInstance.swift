import Foundation

/// One live window: its storage, its last rendering, and the socket it is bound to.
@MainActor
public final class SceneInstance {
    /// Unguessable id (128 random bits, hex).
    public let id: String
    let host: AppHost
    /// The id of the window group this window belongs to (`nil`: the app's first group).
    let group: String?
    var slots: [String: StorageSlot] = [:]
    var sceneStorage: [String: Data] = [:] { didSet { host.persist(self) } }
    var lastTree: Node?
    var actions: [String: () -> Void] = [:]
    var inputs: [String: (String) -> Void] = [:]
    var title: String = ""
    var observed: [ObjectIdentifier: (subscription: AnyCancellable, paths: Set<String>)] = [:]
    var dirty = false
    /// Every view must be evaluated again (set by changes not tied to one view).
    var needsFull = true
    /// The custom views of the last pass, by path: their cached nodes, effects and dirty state.
    var records: [String: ViewRecord] = [:]
    var live: Set<String> = []
    /// How many view bodies were evaluated (for tests and the benchmark).
    public internal(set) var bodyEvaluations = 0
    var sink: (@Sendable (String) -> Void)?
    /// Closes the window's socket (the page reconnects by itself).
    var hangUp: (@Sendable () -> Void)?
    /// The socket the scene is bound to (0: none); events from any other socket are ignored.
    var connection: UInt64 = 0
    /// The page holds exactly `lastTree`: served by `document()` and not changed since.
    var pageInSync = false
    var lastSeen = Date()
    /// Patches produced outside a render (window opening), sent with the next flush.
    var pending: [Patch] = []
    /// Files a `fileExporter` made, waiting for the page to fetch them (`/_swiftuiweb/export`), by id; at most
    /// ``FileExport/maximumWaiting`` per window, the oldest dropped first.
    var exports: [FileExport] = []
    // Life-cycle state from the previous pass.
    var appeared: [String: () -> Void] = [:]
    var disappearing: [String: () -> Void] = [:]
    var changeValues: [String: (value: Any, equals: (Any) -> Bool)] = [:]
    var running: [String: (hook: TaskHook, task: Task<Void, Never>)] = [:]
    /// The window's actions in the environment (open and dismiss windows, documents, edit mode), made once with the
    /// edit-mode slot they were made for.
    var actionEnvironment: (environment: EnvironmentValues, editMode: StorageSlot)?
    /// How many passes ran (for tests and the benchmark).
    public internal(set) var renderCount = 0
    /// The values the focused view and this window publish to commands (from the last pass).
    var focusedValues = FocusedValues()
    /// The id of the page element that has keyboard focus (sent by the page).
    var focusedElement: String?
    /// Whether the last pass had values that depend on which element has focus.
    var focusDependent = false
    /// The window's phase, from the page's visibility and focus (`.background` while no page is connected).
    var phase: ScenePhase = .background
    /// Whether the page may show notifications, as it last reported (nil: not yet).
    var notificationPermission: WebNotificationCenter.Permission?
    /// When the page was last clicked (a permission request needs a recent one).
    var lastClick: ContinuousClock.Instant?
    /// The system's appearance as the page reports it.
    var systemColorScheme: ColorScheme = .light
    /// The window's `preferredColorScheme`, from its last render (`nil`: none asked for, the system's).
    var preferredColorScheme: ColorScheme?
    /// The menu bar of a window whose menus never change (built once).
    var staticMenuBar: Node??
    /// The document window shows its Rename sheet.
    var renaming = false
    /// A message for the person (a failed menu command), shown at the top of the window until dismissed.
    var notice: String?
    /// The window's `onOpenURL` handlers and external-event preferences (from the last pass).
    var openURLHandlers: [(URL) -> Void] = []
    var externalPreferences: [ExternalEventPreference] = []
    /// External URLs waiting for the window's first pass.
    var pendingURLs: [URL] = []
    /// Controls tied to focus states in the last pass: by focus state (its slot key), element id to value.
    var focusTargets: [String: [String: AnyHashable]] = [:]
    /// The slot keys of the window's `@FocusState`s.
    var focusStateKeys: Set<String> = []
    /// The animation of a `withAnimation` block that changed what this window shows: its next patches animate.
    var pendingAnimation: Animation?
    /// Changes announced from any thread, applied on the main actor before the next pass (or at once
    /// by the flush of the event whose handler made them).
    nonisolated let marks = Marks()

    init(id: String, host: AppHost, group: String? = nil) {
        self.id = id
        self.host = host
        self.group = group
    }

    /// Stops the scene's tasks (when it is freed).
    func close() {
        for r in running.values { r.task.cancel() }
        running = [:]
        for entry in observed.values { entry.subscription.cancel() }
        observed = [:]
    }
}

/// The window's root: a custom view so that what the root reads is tracked like any view's.
struct RootView: View {
    let content: any View
    var body: some View { Group { AnyView(content) } }
}
