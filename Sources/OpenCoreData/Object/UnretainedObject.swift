import Foundation

/// A reference to a managed object that does not keep it alive, for the tables that find objects by key
/// (a context's registry, a batch group's members): the one type through which they reach an object they
/// don't own.
///
/// Safe because every object held this way removes itself from its table, under the lock that guards the
/// table's lookups, in its deinit (`NSManagedObject.deinit`); the context serializes the use of its
/// objects. The one gap: an object's last release on another thread while its context looks it up, which
/// Core Data's rules (objects are used on their context's queue) exclude; docs/ARCHITECTURE.md says more.
struct UnretainedObject {
    // Safe because it is read only through `object` and `refers(to:)` (see the type's comment).
    private let reference: Unmanaged<NSManagedObject>

    init(_ object: NSManagedObject) { reference = .passUnretained(object) }

    /// The object (retained by the caller from here on).
    var object: NSManagedObject { reference.takeUnretainedValue() }

    /// Whether this refers to `object` (an identity comparison; nothing is retained).
    func refers(to object: NSManagedObject) -> Bool {
        // Safe because only the addresses are compared; nothing is retained, released or read.
        reference.toOpaque() == Unmanaged.passUnretained(object).toOpaque()
    }
}
