import Foundation

// A window's state: its storage slots, the objects it observes, and the marks that say which views changed.

extension SceneInstance {
    func slot(for key: String, context: RenderContext? = nil, make: () -> Any) -> StorageSlot {
        context?.useSlot(key)
        let owner = context?.record?.path
        if let s = slots[key] {
            s.owner = owner
            return s
        }
        let s = StorageSlot(value: make(), scene: self)
        s.owner = owner
        slots[key] = s
        return s
    }

    /// A slot's value changed: its owning view (or, without one, the whole window) renders again.
    func changed(_ slot: StorageSlot) {
        if let animation = AnimationTransaction.current { pendingAnimation = animation }
        if let owner = slot.owner { markDirty(owner) } else { invalidate() }
    }

    /// Re-renders the views that observe `object` when it announces a change.
    func observe<O: ObservableObject>(_ object: O, context: RenderContext?) {
        let key = ObjectIdentifier(object)
        let path = context?.record?.path
        if var entry = observed[key] {
            if let path {
                entry.paths.insert(path)
                observed[key] = entry
            }
            return
        }
        // A change may be announced on any thread: the handler only records it and wakes the scene.
        let subscription = object.objectWillChange.sink { @Sendable [marks, weak self] _ in
            // A change made in a `withAnimation` block (a task-local value, so never another task's) animates
            // the window it touches.
            marks.add(object: key, animation: AnimationTransaction.current)
            SceneInstance.wake(self)
        }
        observed[key] = (AnyCancellable(subscription), path.map { [$0] } ?? [])
        // OpenCombine gives a class with no @Published property a new publisher on every read (Apple's Combine
        // keeps one per object), so its `objectWillChange.send()` reaches nobody: say so, and how to fix it,
        // rather than leave views that never update.
        if O.ObjectWillChangePublisher.self == ObservableObjectPublisher.self,
            (object.objectWillChange as AnyObject) !== (object.objectWillChange as AnyObject)
        {
            let message =
                "\(O.self) has no @Published property, so its objectWillChange is a new publisher on every read and "
                + "views cannot observe it: declare `let objectWillChange = ObservableObjectPublisher()` in it."
            if host.unobservableTypes.insert(ObjectIdentifier(O.self)).inserted { host.logger.error("\(message)") }
            report(message)
        }
    }

    final class Marks: @unchecked Sendable {  // Unchecked: every field is read and written under `lock`.
        private let lock = NSLock()
        private var paths: Set<String> = [], below: Set<String> = [], objects: Set<ObjectIdentifier> = []
        private var animation: Animation?
        func add(path: String) {
            lock.lock()
            paths.insert(path)
            lock.unlock()
        }
        /// Something a view's subtree read changed, not necessarily what its own `body` read.
        func add(below path: String) {
            lock.lock()
            below.insert(path)
            lock.unlock()
        }
        func add(object: ObjectIdentifier, animation: Animation? = nil) {
            lock.lock()
            objects.insert(object)
            if let animation { self.animation = animation }
            lock.unlock()
        }
        func take() -> (Set<String>, Set<String>, Set<ObjectIdentifier>, Animation?) {
            lock.lock()
            defer { lock.unlock() }
            let r = (paths, below, objects, animation)
            paths = []
            below = []
            objects = []
            animation = nil
            return r
        }
    }

    nonisolated static func wake(_ scene: SceneInstance?) {
        guard let scene else { return }
        Task { @MainActor in scene.applyMarks() }
    }

    func applyMarks() {
        let (paths, below, objects, animation) = marks.take()
        if let animation { pendingAnimation = animation }
        for p in paths { markDirty(p) }
        for p in below { markBelow(p) }
        for key in objects {
            guard let entry = observed[key], !entry.paths.isEmpty else {
                invalidate()
                continue
            }
            for p in entry.paths { markDirty(p) }
        }
    }

    /// Marks one view for walking again without evaluating its `body` (something its subtree or its primitives read
    /// changed); the views below that read it are marked themselves.
    func markBelow(_ path: String) {
        guard let r = records[path] else {
            invalidate()
            return
        }
        var p: ViewRecord? = r
        while let q = p, !q.dirtyBelow {
            q.dirtyBelow = true
            p = q.parent
        }
        schedule()
    }

    /// Marks one view for re-rendering (its ancestors learn that something below them changed).
    func markDirty(_ path: String) {
        guard let r = records[path] else {
            invalidate()
            return
        }
        r.dirty = true
        var p = r.parent
        while let q = p, !q.dirtyBelow {
            q.dirtyBelow = true
            p = q.parent
        }
        schedule()
    }
}
