import Foundation

/// One custom view of a window's last pass.
@MainActor
final class ViewRecord {
    let path: String
    let type: ObjectIdentifier
    weak var parent: ViewRecord?
    var children: [ViewRecord] = []
    var body: (any View)?
    var nodes: [Node] = []
    var effects = Effects()
    var ownSlots: [String] = []
    /// The view's value when it is the content of an `EquatableView`, compared with the next one.
    var comparedValue: Any?
    /// What surrounded it then (an `EquatableView`'s content only).
    var surroundings: RecordedSurroundings?
    /// Its own state changed: evaluate `body` again.
    var dirty = false
    /// A descendant's state changed: walk the last body again to reach it.
    var dirtyBelow = false
    init(path: String, type: ObjectIdentifier) {
        self.path = path
        self.type = type
    }
}
