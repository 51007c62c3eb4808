import Foundation

/// Whether a window's lists are being edited (rows show delete and move controls).
public enum EditMode: Hashable, Sendable {
    /// Not editing.
    case inactive
    /// Editing for a moment (a swipe to delete, on iOS); treated as editing.
    case transient
    /// Editing.
    case active

    /// Whether this is an editing mode.
    public var isEditing: Bool { self != .inactive }
}

private struct EditModeKey: EnvironmentKey { static var defaultValue: Binding<EditMode>? { nil } }

extension EnvironmentValues {
    /// The window's edit mode, which `EditButton` toggles and lists read; every window has its own.
    public var editMode: Binding<EditMode>? {
        get { self[EditModeKey.self] }
        set { self[EditModeKey.self] = newValue }
    }
}

/// A button that turns the window's edit mode on ("Edit") and off ("Done").
public struct EditButton: View {
    @Environment(\.editMode) private var editMode
    /// Creates an edit button.
    public init() {}
    /// The button.
    public var body: some View {
        let editing = editMode?.wrappedValue.isEditing ?? false
        Button(editing ? "Done" : "Edit") {
            withAnimation { editMode?.wrappedValue = editing ? .inactive : .active }
        }
    }
}

/// A view that produces rows from a collection, which `onDelete` and `onMove` edit.
public protocol DynamicViewContent: View {
    /// The collection of the rows.
    associatedtype Data: Collection
    /// The rows' data.
    var data: Data { get }
}

extension ForEach: DynamicViewContent where Content: View {
    /// Deletes rows: in a `List`, each row gets a delete button (shown on hover or keyboard focus, and always
    /// while editing); `action` gets the offsets of the rows to delete. Nil removes the control.
    public func onDelete(perform action: ((IndexSet) -> Void)?) -> ForEach {
        var copy = self
        copy.deleteAction = action
        return copy
    }

    /// Moves rows: in a `List` being edited, each row gets "Move up" and "Move down" buttons; `action` gets the
    /// offsets of the rows that move and the offset, in the collection before the move, they go before.
    public func onMove(perform action: ((IndexSet, Int) -> Void)?) -> ForEach {
        var copy = self
        copy.moveAction = action
        return copy
    }

    /// Wraps one row's nodes with its delete and move controls, when the ForEach has actions and is in a list.
    @MainActor func editControls(
        _ nodes: [Node], offset: Int, count: Int, path: String, context: RenderContext
    )
        -> [Node]
    {
        guard context.inList, deleteAction != nil || moveAction != nil, !nodes.isEmpty else { return nodes }
        let editing = context.environment.editMode?.wrappedValue.isEditing ?? false
        func control(
            _ suffix: String, _ label: String, _ symbol: String, _ css: String, _ action: @escaping () -> Void
        )
            -> Node
        {
            let id = path + suffix
            var attributes = [("class", css), ("type", "button"), ("aria-label", label), ("title", label)]
            attributes.append(context.action(id, action) ? ("data-click", "1") : ("disabled", "true"))
            return Node("button", id: id, attributes: attributes, raw: Symbols.svg(symbol))
        }
        var children: [Node] = []
        if editing, let delete = deleteAction {
            children.append(
                control("~del", "Delete", "minus.circle.fill", "sw-edit-control sw-delete sw-editing") {
                    delete(IndexSet(integer: offset))
                })
        }
        children += nodes
        if editing, let move = moveAction {
            if offset > 0 {
                children.append(
                    control("~up", "Move up", "chevron.up", "sw-edit-control sw-move") {
                        move(IndexSet(integer: offset), offset - 1)
                    })
            }
            if offset < count - 1 {
                children.append(
                    control("~down", "Move down", "chevron.down", "sw-edit-control sw-move") {
                        move(IndexSet(integer: offset), offset + 2)
                    })
            }
        }
        if !editing, let delete = deleteAction {
            children.append(
                control("~del", "Delete", "trash", "sw-edit-control sw-delete") { delete(IndexSet(integer: offset)) })
        }
        return [Node("div", id: path + "~e", attributes: [("class", "sw-editable")], children: children)]
    }
}

extension MutableCollection {
    /// Moves the elements at `source` offsets so they come before the element that was at offset `destination`
    /// (the collection's count to move them to the end), keeping their order: what `onMove` hands an app.
    public mutating func move(fromOffsets source: IndexSet, toOffset destination: Int) {
        let elements = Array(self)
        precondition(
            source.allSatisfy { $0 >= 0 && $0 < elements.count } && destination >= 0 && destination <= elements.count,
            "move(fromOffsets:toOffset:): offsets \(Array(source)) or destination \(destination) outside 0…\(elements.count)"
        )
        var before: [Element] = []
        var after: [Element] = []
        for (offset, element) in elements.enumerated() where !source.contains(offset) {
            if offset < destination { before.append(element) } else { after.append(element) }
        }
        let arranged = before + source.map { elements[$0] } + after
        for (offset, index) in indices.enumerated() { self[index] = arranged[offset] }
    }
}

extension RangeReplaceableCollection where Self: MutableCollection {
    /// Removes the elements at `offsets`: what `onDelete` hands an app.
    public mutating func remove(atOffsets offsets: IndexSet) {
        let count = self.count
        precondition(
            offsets.allSatisfy { $0 >= 0 && $0 < count },
            "remove(atOffsets:): offsets \(Array(offsets)) outside 0..<\(count)")
        var kept = Self()
        for (offset, element) in enumerated() where !offsets.contains(offset) { kept.append(element) }
        self = kept
    }
}
