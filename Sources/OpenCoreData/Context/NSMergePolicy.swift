import Foundation

/// The kinds of merge policy.
public enum NSMergePolicyType: UInt, Sendable {
    /// Fail the save and report the conflicts.
    case errorMergePolicyType = 0x00
    /// Per property, the store's changes win over the object's.
    case mergeByPropertyStoreTrumpMergePolicyType = 0x01
    /// Per property, the object's changes win over the store's.
    case mergeByPropertyObjectTrumpMergePolicyType = 0x02
    /// The object's whole state overwrites the store's.
    case overwriteMergePolicyType = 0x03
    /// The object's changes are discarded in favour of the store's state.
    case rollbackMergePolicyType = 0x04
}

/// How a save resolves conflicts found by optimistic locking (the row changed since it was read).
open class NSMergePolicy: NSObject, @unchecked Sendable {
    /// The policy's kind.
    public let mergeType: NSMergePolicyType

    /// Creates a policy of a kind.
    public init(merge ty: NSMergePolicyType) {
        mergeType = ty
        super.init()
    }

    /// Fail the save on conflict (the default).
    public static let error = NSMergePolicy(merge: .errorMergePolicyType)
    /// Store changes win, property by property.
    public static let mergeByPropertyStoreTrump = NSMergePolicy(merge: .mergeByPropertyStoreTrumpMergePolicyType)
    /// Object changes win, property by property.
    public static let mergeByPropertyObjectTrump = NSMergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
    /// The object overwrites the store.
    public static let overwrite = NSMergePolicy(merge: .overwriteMergePolicyType)
    /// The object's changes are dropped.
    public static let rollback = NSMergePolicy(merge: .rollbackMergePolicyType)
}

/// Fail the save on conflict.
public let NSErrorMergePolicy: NSMergePolicy = NSMergePolicy.error
/// Store changes win, property by property.
public let NSMergeByPropertyStoreTrumpMergePolicy: NSMergePolicy = NSMergePolicy.mergeByPropertyStoreTrump
/// Object changes win, property by property.
public let NSMergeByPropertyObjectTrumpMergePolicy: NSMergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
/// The object overwrites the store.
public let NSOverwriteMergePolicy: NSMergePolicy = NSMergePolicy.overwrite
/// The object's changes are dropped.
public let NSRollbackMergePolicy: NSMergePolicy = NSMergePolicy.rollback

/// A conflict between an object's version and the store's, reported by a failed save.
open class NSMergeConflict: NSObject, @unchecked Sendable {
    /// The object whose save conflicted.
    public let sourceObject: NSManagedObject
    /// The object's values as last read.
    public let objectSnapshot: [String: Any]?
    /// The row's values in the store now (nil when the row was deleted).
    public let persistedSnapshot: [String: Any]?
    /// The row version the object was read at.
    public let oldVersionNumber: Int
    /// The row version in the store now (0 when deleted).
    public let newVersionNumber: Int

    init(source: NSManagedObject, objectSnapshot: [String: Any]?, persistedSnapshot: [String: Any]?, oldVersion: Int, newVersion: Int) {
        sourceObject = source
        self.objectSnapshot = objectSnapshot
        self.persistedSnapshot = persistedSnapshot
        oldVersionNumber = oldVersion
        newVersionNumber = newVersion
        super.init()
    }
}
