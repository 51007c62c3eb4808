import Foundation

/// Records changes so they can be undone and redone: what `@Environment(\.undoManager)` gives a document's
/// views, and what the Edit menu's Undo and Redo act on.
///
/// Apple's Foundation has `UndoManager`; the Foundation of Swift on Linux does not, so SwiftUIWeb provides
/// it with Apple's names and rules: registrations made while undoing go to the redo stack and the reverse,
/// a new change clears the redo stack, and with `groupsByEvent` (the default) everything registered while
/// handling one event from the page is one undo step. The Objective-C selector and invocation forms are
/// left out (Swift on Linux has no selectors).
@MainActor
open class UndoManager {
    struct Action {
        let target: AnyObject
        let handler: @MainActor (AnyObject) -> Void
    }

    final class Group {
        var actions: [Action] = []
        var name = ""
    }

    private var undoStack: [Group] = []
    private var redoStack: [Group] = []
    private var openGroups: [Group] = []
    private var implicitGroupOpen = false
    private var registrationDisabled = 0
    /// Called after every change to the stacks (a registration, an undo, a redo, a removal).
    var onChange: (@MainActor (UndoManager.Change) -> Void)?

    /// What changed the stacks, for a document's change count.
    enum Change { case done, undone, redone, cleared }

    /// Creates an undo manager with empty stacks.
    public init() {}

    /// Whether registrations made outside any explicit group are grouped per event (default `true`).
    open var groupsByEvent = true
    /// How many undo steps are kept (0: no limit).
    open var levelsOfUndo = 0 { didSet { trim() } }
    /// Whether an undo is running.
    public private(set) var isUndoing = false
    /// Whether a redo is running.
    public private(set) var isRedoing = false
    /// The depth of open groups.
    open var groupingLevel: Int { openGroups.count }
    /// Whether there is a step to undo.
    open var canUndo: Bool { !undoStack.isEmpty || openGroups.first.map { !$0.actions.isEmpty } == true }
    /// Whether there is a step to redo.
    open var canRedo: Bool { !redoStack.isEmpty }
    /// The name of the step Undo would undo.
    open var undoActionName: String {
        (openGroups.first?.actions.isEmpty == false ? openGroups.first : undoStack.last)?.name ?? ""
    }
    /// The name of the step Redo would redo.
    open var redoActionName: String { redoStack.last?.name ?? "" }
    /// The Edit menu's title for Undo ("Undo" or "Undo Typing").
    open var undoMenuItemTitle: String { undoMenuTitle(forUndoActionName: undoActionName) }
    /// The Edit menu's title for Redo.
    open var redoMenuItemTitle: String { redoMenuTitle(forUndoActionName: redoActionName) }
    /// The Undo title for an action name.
    open func undoMenuTitle(forUndoActionName actionName: String) -> String {
        actionName.isEmpty ? "Undo" : "Undo \(actionName)"
    }
    /// The Redo title for an action name.
    open func redoMenuTitle(forUndoActionName actionName: String) -> String {
        actionName.isEmpty ? "Redo" : "Redo \(actionName)"
    }
    /// Whether registrations are recorded.
    open var isUndoRegistrationEnabled: Bool { registrationDisabled == 0 }

    /// Stops recording registrations (calls nest).
    open func disableUndoRegistration() { registrationDisabled += 1 }
    /// Resumes recording registrations.
    open func enableUndoRegistration() {
        precondition(registrationDisabled > 0, "enableUndoRegistration() without a matching disableUndoRegistration()")
        registrationDisabled -= 1
    }

    /// Opens a group: everything registered until the matching `endUndoGrouping()` is one step.
    open func beginUndoGrouping() { openGroups.append(Group()) }

    /// Closes the innermost group. A closed outermost group becomes one undo (or, while undoing, redo) step.
    open func endUndoGrouping() {
        precondition(!openGroups.isEmpty, "endUndoGrouping() without a matching beginUndoGrouping()")
        let group = openGroups.removeLast()
        if openGroups.isEmpty { implicitGroupOpen = false }
        if let outer = openGroups.last {
            outer.actions += group.actions
            if outer.name.isEmpty { outer.name = group.name }
            return
        }
        guard !group.actions.isEmpty else { return }
        if isUndoing {
            redoStack.append(group)
        } else {
            undoStack.append(group)
            trim()
            if !isRedoing {
                redoStack.removeAll()
            }
        }
        if !isUndoing && !isRedoing { onChange?(.done) }
    }

    /// Records how to undo a change to `target`: `handler` runs with it on undo (and registers its own
    /// inverse, which becomes the redo).
    open func registerUndo<TargetType: AnyObject>(
        withTarget target: TargetType, handler: @escaping @MainActor (TargetType) -> Void
    ) {
        guard isUndoRegistrationEnabled else { return }
        if openGroups.isEmpty {
            // Outside any group: with groupsByEvent, open one that the end of the event closes.
            precondition(groupsByEvent, "registerUndo outside a group while groupsByEvent is false")
            beginUndoGrouping()
            implicitGroupOpen = true
        }
        openGroups[openGroups.count - 1].actions.append(
            Action(target: target) { object in
                // The registration captured `target` as TargetType; the action only ever runs with it.
                guard let typed = object as? TargetType else { return }
                handler(typed)
            })
    }

    /// Names the current step ("Typing", "Move Shape").
    open func setActionName(_ actionName: String) {
        if let group = openGroups.first {
            group.name = actionName
        } else if isUndoing {
            redoStack.last?.name = actionName
        } else {
            undoStack.last?.name = actionName
        }
    }

    /// Closes the group opened by registrations during an event (the run loop's end of event on Apple's systems).
    open func endEventGroup() {
        if implicitGroupOpen && openGroups.count == 1 { endUndoGrouping() }
    }

    /// Undoes the last step, recording its inverse as a redo step.
    open func undo() {
        endEventGroup()
        precondition(openGroups.isEmpty, "undo() inside an open undo group")
        guard let group = undoStack.popLast() else { return }
        isUndoing = true
        beginUndoGrouping()
        for action in group.actions.reversed() { action.handler(action.target) }
        openGroups.last?.name = group.name
        endUndoGrouping()
        isUndoing = false
        onChange?(.undone)
    }

    /// Redoes the last undone step.
    open func redo() {
        endEventGroup()
        precondition(openGroups.isEmpty, "redo() inside an open undo group")
        guard let group = redoStack.popLast() else { return }
        isRedoing = true
        beginUndoGrouping()
        for action in group.actions.reversed() { action.handler(action.target) }
        openGroups.last?.name = group.name
        endUndoGrouping()
        isRedoing = false
        onChange?(.redone)
    }

    /// Forgets every step.
    open func removeAllActions() {
        undoStack.removeAll()
        redoStack.removeAll()
        openGroups.removeAll()
        implicitGroupOpen = false
        onChange?(.cleared)
    }

    /// Forgets every step that acts on `target`.
    open func removeAllActions(withTarget target: AnyObject) {
        for group in undoStack + redoStack + openGroups { group.actions.removeAll { $0.target === target } }
        undoStack.removeAll { $0.actions.isEmpty }
        redoStack.removeAll { $0.actions.isEmpty }
    }

    private func trim() {
        if levelsOfUndo > 0 && undoStack.count > levelsOfUndo { undoStack.removeFirst(undoStack.count - levelsOfUndo) }
    }
}
