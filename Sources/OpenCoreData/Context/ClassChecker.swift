import Foundation

/// Checks that fetched objects are `T`s with one dynamic cast per run of objects of one class, and hands
/// them out as `T`s: the one place a fetch reinterprets its objects as the request's result type.
struct ClassChecker<T> {
    private var checked: ObjectIdentifier?

    /// Throws the wrong-class error unless `object` is a `T`.
    @inline(__always)
    mutating func check(_ object: NSManagedObject) throws {
        let cls = ObjectIdentifier(type(of: object))
        if cls == checked { return }
        guard object is T else { throw NSManagedObjectContext.wrongClass(object, T.self) }
        checked = cls
    }

    /// `object` as a `T` (checked as `check` does).
    @inline(__always)
    mutating func cast(_ object: NSManagedObject) throws -> T {
        try check(object)
        // Safe because `check` just found `object` to be a `T`, and a `T` that a class instance is, is a
        // class reference of the same single-word layout.
        return unsafeBitCast(object, to: T.self)
    }

    /// `objects` as `[T]`, every one checked first.
    mutating func castAll(_ objects: [NSManagedObject]) throws -> [T] {
        for object in objects { try check(object) }
        // Safe because every element was just checked to be a `T`, and an array of class references has one
        // layout whatever their class (the array is reinterpreted, not copied).
        return unsafeBitCast(objects, to: [T].self)
    }
}
