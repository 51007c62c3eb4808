import Foundation

/// What a rendered subtree contributes to its window besides nodes: actions, inputs, tags, life-cycle
/// hooks, slots in use, navigation destinations and detail, toolbar items, title. A view whose
/// dependencies did not change replays these instead of evaluating its `body` again.
final class Effects {
    var actions: [(String, () -> Void)] = []
    var inputs: [(String, (String) -> Void)] = []
    var tags: [(String, AnyHashable)] = []
    var appear: [(String, () -> Void)] = []
    var disappear: [(String, () -> Void)] = []
    var changes: [ChangeHook] = []
    var tasks: [(String, TaskHook)] = []
    var slots: [String] = []
    var destinations: [(ObjectIdentifier, (Any) -> any View)] = []
    var toolbar: [Node] = []
    var focused: [FocusedEntry] = []
    var openURLHandlers: [(URL) -> Void] = []
    var externalPreferences: [ExternalEventPreference] = []
    var colorSchemes: [ColorScheme?] = []
    var focusTargets: [(key: String, element: String, value: AnyHashable)] = []
    var detail: (any View)?
    var title: String?
    var titleShown = false

    func absorb(_ e: Effects) {
        actions += e.actions
        inputs += e.inputs
        tags += e.tags
        appear += e.appear
        disappear += e.disappear
        changes += e.changes
        tasks += e.tasks
        slots += e.slots
        destinations += e.destinations
        toolbar += e.toolbar
        focused += e.focused
        openURLHandlers += e.openURLHandlers
        externalPreferences += e.externalPreferences
        colorSchemes += e.colorSchemes
        focusTargets += e.focusTargets
        if let d = e.detail { detail = d }
    }
}
