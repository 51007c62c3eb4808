import Foundation

// Incremental rendering: each custom view's record, replayed when nothing it reads changed.

extension SceneInstance {
    /// Renders a custom view: replays its cached output when neither it nor anything below it changed,
    /// walks its last body again when only something below changed, and evaluates `body` otherwise.
    func renderRecord(_ view: any View, path: String, context: RenderContext) -> [Node] {
        let type = ObjectIdentifier(Swift.type(of: view))
        let old = records[path].flatMap { $0.type == type && $0.body != nil ? $0 : nil }
        if !context.forcing, let old, !old.dirty, !old.dirtyBelow { return reuse(old, context: context) }
        let record = ViewRecord(path: path, type: type)
        record.parent = context.record
        context.record?.children.append(record)
        records[path] = record
        live.insert(path)
        let savedRecord = context.record
        let savedForcing = context.forcing
        let titleBefore = context.title
        let shownBefore = context.titleShown
        let collector = Effects()
        context.effects.append(collector)
        context.record = record
        var nodes: [Node] = []
        withObservationTracking {
            if !context.forcing, let old, !old.dirty, let body = old.body {
                // Only something below changed: walk the last body again, without evaluating it.
                record.body = body
                record.ownSlots = old.ownSlots
                for k in old.ownSlots { context.useSlot(k) }
                nodes = context.render(body, path: path)
            } else {
                context.forcing = true
                let before = collector.slots.count
                // What the body itself reads, tracked on its own: a change to it evaluates the body again.
                let body = withObservationTracking {
                    installDynamicProperties(of: view, path: path, context: context)
                    return view.body
                } onChange: { [marks, weak self] in
                    marks.add(path: path)
                    SceneInstance.wake(self)
                }
                record.ownSlots = Array(collector.slots[before...])
                bodyEvaluations += 1
                record.body = body
                nodes = context.render(body, path: path)
            }
        } onChange: { [marks, weak self] in
            // Everything read while rendering this view, its subtree's views included: Swift's observation merges
            // a nested tracking's reads into the enclosing one's. A change here walks the view's last body again
            // (its primitives read their bindings and closures anew) without evaluating it; the views below whose
            // own reads changed were marked by their own tracking.
            marks.add(below: path)
            SceneInstance.wake(self)
        }
        context.forcing = savedForcing
        context.record = savedRecord
        context.effects.removeLast()
        if titleBefore == nil { collector.title = context.title }
        collector.titleShown = !shownBefore && context.titleShown
        context.effects.last?.absorb(collector)
        record.effects = collector
        record.nodes = nodes
        return nodes
    }

    /// Renders the content of an `EquatableView`: when the view containing it was evaluated again (`forcing`), its
    /// last output is reused if the content equals its last value, nothing it holds changed and it is given the
    /// same surroundings (``RecordedSurroundings``); otherwise it renders as any custom view does.
    func renderEquatable<Content: View & Equatable>(
        _ content: Content, path: String, context: RenderContext
    ) -> [Node] {
        let surroundings = RecordedSurroundings(context)
        if context.forcing, let surroundings, let old = records[path], old.type == ObjectIdentifier(Content.self),
            old.body != nil, !old.dirty, !old.dirtyBelow, let previous = old.comparedValue as? Content,
            previous == content, old.surroundings?.matches(surroundings) == true
        {
            return reuse(old, context: context)
        }
        let nodes = renderRecord(content, path: path, context: context)
        if let record = records[path] {
            record.comparedValue = content
            record.surroundings = surroundings
        }
        return nodes
    }

    /// Uses a record's last output again: its nodes, and its effects (actions, tags, hooks) replayed.
    private func reuse(_ old: ViewRecord, context: RenderContext) -> [Node] {
        context.replay(old.effects)
        old.parent = context.record
        context.record?.children.append(old)
        markLive(old)
        return old.nodes
    }

    private func markLive(_ r: ViewRecord) {
        live.insert(r.path)
        for c in r.children { markLive(c) }
    }

    func installDynamicProperties(of view: Any, path: String, context: RenderContext) {
        if Mirror(reflecting: view).children.isEmpty { return }
        for child in Mirror(reflecting: view).children {
            if let b = child.value as? any SceneBindable {
                b.install(in: self, key: path + "/" + (child.label ?? "?"), context: context)
            }
        }
    }
}
