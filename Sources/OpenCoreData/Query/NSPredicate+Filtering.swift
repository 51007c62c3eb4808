import Foundation

// Apple's collection filtering with a predicate (`NSArray.filtered(using:)` and its kin). Linux's Foundation
// declares these for its own NSPredicate; these overloads take OpenCoreData's. As on Apple's platforms, an element
// the predicate cannot be evaluated against (a missing variable, an operand of the wrong kind) stops the process,
// as the exception Apple raises would; `NSPredicate.evaluateThrowing(with:)` is the form that reports it.

extension NSArray {
    /// The elements for which `predicate` holds, in order.
    public func filtered(using predicate: NSPredicate) -> [Any] {
        self.filter { predicate.evaluate(with: $0) }
    }
}

extension NSMutableArray {
    /// Keeps only the elements for which `predicate` holds.
    public func filter(using predicate: NSPredicate) {
        let kept = filtered(using: predicate)
        removeAllObjects()
        addObjects(from: kept)
    }
}

extension NSSet {
    /// The elements for which `predicate` holds.
    public func filtered(using predicate: NSPredicate) -> Set<AnyHashable> {
        Set(allObjects.filter { predicate.evaluate(with: $0) }.compactMap { $0 as? AnyHashable })
    }
}

extension NSMutableSet {
    /// Keeps only the elements for which `predicate` holds.
    public func filter(using predicate: NSPredicate) {
        for element in allObjects where !predicate.evaluate(with: element) { remove(element) }
    }
}

extension NSOrderedSet {
    /// The elements for which `predicate` holds, in order.
    public func filtered(using predicate: NSPredicate) -> NSOrderedSet {
        NSOrderedSet(array: array.filter { predicate.evaluate(with: $0) })
    }
}
