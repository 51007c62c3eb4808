import Foundation

/// An event message from the browser: `{"t":"click","id":"…"}`, `{"t":"input","id":"…","v":"…"}`,
/// `{"t":"submit","id":"…"}`, `{"t":"focus","id":"…"}` (the element that got keyboard focus),
/// `{"t":"phase","id":"active|inactive|background"}` (the page's visibility and focus) or `{"t":"ping","id":""}` (answered with `{"pong":true}`).
public struct ClientEvent: Codable, Sendable {
    /// Event type: `click`, `input`, `submit`, `focus`, `phase` or `ping`.
    public var t: String
    /// Target element id.
    public var id: String
    /// New value for `input`.
    public var v: String?
    /// Creates an event.
    public init(t: String, id: String, v: String? = nil) { self.t = t; self.id = id; self.v = v }

    /// The event types a page sends.
    static let types: Set<String> = ["click", "input", "submit", "focus", "phase", "ping"]
    /// Longest element id a page can name (ids are structural paths, far shorter).
    static let maxIDLength = 1024

    /// Decodes and checks one message; the error says what was wrong with it.
    static func decode(_ data: Data) throws -> ClientEvent {
        let event: ClientEvent
        do { event = try JSONDecoder().decode(ClientEvent.self, from: data) } catch {
            throw EventError("not an event object (expected {\"t\":…,\"id\":…}): \(String(decoding: data.prefix(80), as: UTF8.self))")
        }
        guard types.contains(event.t) else { throw EventError("unknown event type \(JSON.quote(String(event.t.prefix(40))))") }
        guard event.id.utf8.count <= maxIDLength else { throw EventError("element id over \(maxIDLength) bytes") }
        if event.t == "phase" && !["active", "inactive", "background"].contains(event.id) {
            throw EventError("unknown scene phase \(JSON.quote(String(event.id.prefix(40))))")
        }
        return event
    }
}
