import Foundation

/// What happens when a fault cannot be fulfilled.
///
/// Core Data raises an Objective-C exception there ("CoreData could not fulfill a fault"); Swift on Linux
/// has no exceptions, and the accessor that fired the fault cannot throw. Handing back made-up values
/// instead would be a silent failure (a later save could write them back as real), so the process stops
/// with a message that names the object and the error, as an uncaught exception stops an app on Apple's
/// systems. Callers that can throw (`existingObject(with:)`, fetches) get the error thrown instead.
enum FaultFailure {
    /// Runs `load`, stopping the process with a message naming `object` if it throws.
    static func unlessFailing<T>(_ object: NSManagedObject, relationship: String? = nil, _ load: () throws -> T) -> T {
        do {
            return try load()
        } catch {
            let what = relationship.map { "relationship '\($0)' of " } ?? ""
            fatalError("CoreData could not fulfill a fault for \(what)'\(describe(object))': \(error)")
        }
    }

    /// Stops the process for a fault whose row is gone while `shouldDeleteInaccessibleFaults` is false.
    static func rowIsGone(_ object: NSManagedObject) -> Never {
        fatalError("CoreData could not fulfill a fault for '\(describe(object))': its row is gone from the store "
            + "(shouldDeleteInaccessibleFaults is false).")
    }

    private static func describe(_ object: NSManagedObject) -> String {
        object.objectID.uriRepresentation().absoluteString
    }
}
