import Foundation

/// An event message from the browser: `{"t":"click","id":"…"}`, `{"t":"input","id":"…","v":"…"}`,
/// `{"t":"splice","id":"…","a":start,"d":removed,"n":baseLength,"v":"inserted"}` (a change to a long text
/// field sent as the edit, not the whole value), `{"t":"submit","id":"…"}`, `{"t":"focus","id":"…"}` (the element that got keyboard focus),
/// `{"t":"hover","id":"…","v":"1|0"}` (the pointer entered or left an `onHover` element),
/// `{"t":"window","id":"…","a":first,"d":count}` (the rows of a long list the page shows, give or take a screen),
/// `{"t":"geometry","id":"…","v":"width,height,x,y"}` (the size and place the page laid a `GeometryReader` out at),
/// `{"t":"drag","id":"…","v":"c|e,startX,startY,x,y"}` (a drag on a view with a `DragGesture` moved or ended),
/// `{"t":"scheme","v":"light|dark"}` (the system's appearance), gestures' `{"t":"tap","id":"…","v":"count,x,y"}`,
/// `{"t":"press","id":"…","v":"b|e|x"}` (a long press began, lasted, or was let go or moved away first),
/// `{"t":"magnify","id":"…","v":"c|e,scale,x,y"}` and `{"t":"rotate","id":"…","v":"c|e,radians,x,y"}`,
/// `{"t":"notifications","id":"","v":"granted|denied|default|unsupported"}` (whether the page may show notifications),
/// `{"t":"phase","id":"active|inactive|background"}` (the page's visibility and focus) or `{"t":"ping","id":""}` (answered with `{"pong":true}`).
public struct ClientEvent: Codable, Sendable {
    /// Event type: one of ``types``.
    public var t: String
    /// Target element id.
    public var id: String
    /// New value for `input`; inserted text for `splice`.
    public var v: String?
    /// `splice`: where the change starts, in UTF-16 code units of the field's value; `window`: the first row.
    public var a: Int?
    /// `splice`: how many UTF-16 code units it removes; `window`: how many rows.
    public var d: Int?
    /// `splice`: the length (UTF-16) of the value the page changed; the server checks it has the same one.
    public var n: Int?
    /// Creates an event.
    public init(t: String, id: String, v: String? = nil, a: Int? = nil, d: Int? = nil, n: Int? = nil) {
        self.t = t
        self.id = id
        self.v = v
        self.a = a
        self.d = d
        self.n = n
    }

    /// The event types a page sends.
    static let types: Set<String> = [
        "click", "input", "splice", "submit", "focus", "hover", "window", "geometry", "drag", "phase", "ping",
        "scheme", "tap", "press", "magnify", "rotate", "notifications",
    ]
    /// Longest element id a page can name (ids are structural paths, far shorter).
    static let maxIDLength = 1024

    /// Decodes and checks one message; the error says what was wrong with it.
    static func decode(_ data: Data) throws -> ClientEvent {
        let event: ClientEvent
        do { event = try JSONDecoder().decode(ClientEvent.self, from: data) } catch {
            throw EventError(
                "not an event object (expected {\"t\":…,\"id\":…}): \(String(decoding: data.prefix(80), as: UTF8.self))"
            )
        }
        guard types.contains(event.t) else {
            throw EventError("unknown event type \(JSON.quote(String(event.t.prefix(40))))")
        }
        guard event.id.utf8.count <= maxIDLength else { throw EventError("element id over \(maxIDLength) bytes") }
        if event.t == "splice" {
            guard let a = event.a, let d = event.d, let n = event.n, a >= 0, d >= 0, n >= 0, a <= n, d <= n - a else {
                throw EventError("a splice needs a start, a removed count and a base length that fit together")
            }
        }
        if event.t == "window" {
            guard let a = event.a, let d = event.d, a >= 0, d >= 0 else {
                throw EventError("a window event needs a first row (a) and a row count (d), neither negative")
            }
        }
        if event.t == "phase" && !["active", "inactive", "background"].contains(event.id) {
            throw EventError("unknown scene phase \(JSON.quote(String(event.id.prefix(40))))")
        }
        return event
    }
}
