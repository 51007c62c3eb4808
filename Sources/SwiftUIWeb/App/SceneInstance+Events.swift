import Foundation

// The page's events (clicks, input, focus, gestures, measurements), each routed to what the last pass registered.

extension SceneInstance {
    /// Handles one event from the browser (as the server does for each message of the window's socket); returns
    /// the patches produced, which are also sent to the page when one is connected.
    @discardableResult
    public func handle(event: ClientEvent) -> [Patch] {
        lastSeen = Date()
        switch event.t {
        case "click":
            guard let action = actions[event.id] else { return [] }
            lastClick = .now
            WebNotificationCenter.$clickedScene.withValue(self) { action() }
            host.endUndoEventGroups()
            return flush()
        case "phase":
            let new: ScenePhase = event.id == "active" ? .active : event.id == "inactive" ? .inactive : .background
            guard new != phase else { return [] }
            phase = new
            invalidate()
            return flush()
        case "splice":
            // A long text field sends its edits; the server applies them to the value it last rendered.
            guard let input = inputs[event.id], let a = event.a, let d = event.d, let n = event.n else { return [] }
            let base = lastTree?.find(id: event.id)?.attributes.first { $0.0 == "value" }?.1 ?? ""
            let units = base.utf16
            guard units.count == n, a >= 0, d >= 0, a <= n, d <= n - a,
                let start = units.index(units.startIndex, offsetBy: a, limitedBy: units.endIndex).flatMap({
                    String.Index($0, within: base)
                }),
                let end = units.index(units.startIndex, offsetBy: a + d, limitedBy: units.endIndex).flatMap({
                    String.Index($0, within: base)
                })
            else {
                // The page edited another value than the server's (a change crossed it): it gets the value again.
                pending.append(.attribute(id: event.id, name: "value", value: base))
                return flush()
            }
            let value = String(base[..<start]) + (event.v ?? "") + String(base[end...])
            host.currentInput = id + "/" + event.id
            input(value)
            host.currentInput = nil
            host.endUndoEventGroups()
            return flush(echo: (event.id, value))
        case "focus":
            // The element that got keyboard focus; "" when focus left the page's controls.
            let element = event.id.isEmpty ? nil : event.id
            let changed = focusedElement != element
            focusedElement = element
            guard changed else { return [] }
            if !focusStateKeys.isEmpty { focusMoved() }
            guard focusDependent || !focusStateKeys.isEmpty else { return [] }
            if focusDependent { invalidate() }
            return flush()
        case "submit":
            guard let action = actions[event.id + "!submit"] else { return [] }
            action()
            host.endUndoEventGroups()
            return flush()
        case "hover":
            // The pointer entered ("1") or left ("0") an element with an `onHover` handler.
            guard let hover = inputs[event.id + "!hover"] else { return [] }
            hover(event.v ?? "0")
            return flush()
        case "window":
            // The page scrolled a long list: it asks for the rows around what it shows.
            guard let move = inputs[event.id + "!window"], let a = event.a, let d = event.d else { return [] }
            move("\(a),\(d)")
            return flush()
        case "drag":
            // A drag on a view with a DragGesture moved or ended: "c|e,startX,startY,x,y".
            guard let drag = inputs[event.id + "!drag"], let report = event.v else { return [] }
            drag(report)
            return flush()
        case "notifications":
            let permission = WebNotificationCenter.Permission(rawValue: event.v ?? "") ?? .unavailable
            WebNotificationCenter.shared.report(permission, from: self)
            return []
        case "scheme":
            // The system's light or dark appearance, as the page sees it.
            let reported: ColorScheme = event.v == "dark" ? .dark : .light
            guard reported != systemColorScheme else { return [] }
            systemColorScheme = reported
            if preferredColorScheme == nil { invalidate() }
            return flush()
        case "tap", "press", "magnify", "rotate":
            // A gesture the page recognized on a view: its report goes to the view's gesture handlers.
            guard let gesture = inputs[event.id + "!" + event.t], let report = event.v else { return [] }
            gesture(report)
            host.endUndoEventGroups()
            return flush()
        case "geometry":
            // The page measured a GeometryReader: "width,height,x,y".
            guard let measure = inputs[event.id + "!geometry"], let report = event.v else { return [] }
            measure(report)
            return flush()
        case "input":
            guard let input = inputs[event.id] else { return [] }
            let value = event.v ?? ""
            host.currentInput = id + "/" + event.id
            input(value)
            host.currentInput = nil
            host.endUndoEventGroups()
            return flush(echo: (event.id, value))
        default:
            return []
        }
    }
}
