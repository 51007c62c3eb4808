import Foundation

/// An object's payload as the class its kind says it is: the one place a payload is downcast without a
/// dynamic check. `ObjectPayload.init` checks the kind against the payload's own class when it is made,
/// so the kind can't name the wrong class.
enum PayloadView {
    case data(ObjectData)
    case rows(RowBlock)
    case batch(BatchGroup)
}

extension ObjectPayload {
    /// This payload as its subclass.
    @inline(__always)
    var view: PayloadView {
        switch kind {
        // Safe because `kind` is .data only for an ObjectData (checked in ObjectPayload.init).
        case .data: return .data(unsafeDowncast(self, to: ObjectData.self))
        // Safe because `kind` is .rows only for a RowBlock (checked in ObjectPayload.init).
        case .rows: return .rows(unsafeDowncast(self, to: RowBlock.self))
        // Safe because `kind` is .batch only for a BatchGroup (checked in ObjectPayload.init).
        case .batch: return .batch(unsafeDowncast(self, to: BatchGroup.self))
        }
    }

    /// The kind a payload of class `type` has (nil for a class that is none of the three).
    static func kind(of type: ObjectPayload.Type) -> Kind? {
        if type == ObjectData.self { return .data }
        if type == RowBlock.self { return .rows }
        if type == BatchGroup.self { return .batch }
        return nil
    }
}
