import Foundation

/// What a fetch request can return: managed objects, object IDs, dictionaries or counts.
public protocol NSFetchRequestResult: AnyObject {}

extension NSManagedObject: NSFetchRequestResult {}
extension NSManagedObjectID: NSFetchRequestResult {}
extension NSDictionary: NSFetchRequestResult {}
extension NSNumber: NSFetchRequestResult {}

/// The kind of results a fetch request returns.
public struct NSFetchRequestResultType: OptionSet, Sendable {
    /// The raw value.
    public let rawValue: UInt
    /// Creates a result type.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// Managed objects (the default).
    public static let managedObjectResultType = NSFetchRequestResultType([])
    /// Object IDs.
    public static let managedObjectIDResultType = NSFetchRequestResultType(rawValue: 1)
    /// Dictionaries of the properties to fetch.
    public static let dictionaryResultType = NSFetchRequestResultType(rawValue: 2)
    /// One `NSNumber`: the count of matching objects.
    public static let countResultType = NSFetchRequestResultType(rawValue: 4)
}

/// The base of requests sent to persistent stores.
open class NSPersistentStoreRequest: NSObject, @unchecked Sendable {
    /// The stores to search (all when nil).
    open var affectedStores: [NSPersistentStore]?
}

/// A search of a store: entity, predicate, sort order, limits, batching and result shape.
/// Predicates and sorts run in SQL; a fetch never loads rows to filter them in Swift.
open class NSFetchRequest<ResultType>: NSPersistentStoreRequest, @unchecked Sendable {
    /// The entity to fetch (resolved from `entityName` when nil).
    open var entity: NSEntityDescription?
    /// The name of the entity to fetch.
    open var entityName: String?
    /// Which objects to return (all when nil).
    open var predicate: NSPredicate?
    /// The order of the results.
    open var sortDescriptors: [NSSortDescriptor]?
    /// The most objects to return (0: no limit).
    open var fetchLimit: Int = 0
    /// How many matching objects to skip.
    open var fetchOffset: Int = 0
    /// When non-zero, objects are loaded this many at a time as they are used, so memory stays bounded.
    open var fetchBatchSize: Int = 0
    /// The kind of results.
    open var resultType: NSFetchRequestResultType = .managedObjectResultType
    /// For dictionary results: the properties (names, descriptions or expression descriptions) to fetch.
    open var propertiesToFetch: [Any]?
    /// Whether objects of subentities match too (true by default).
    open var includesSubentities: Bool = true
    /// Relationships to load along with the objects, to save round trips.
    open var relationshipKeyPathsForPrefetching: [String]?
    /// Whether objects come back as faults (ignored when values are at hand: they are filled in).
    open var returnsObjectsAsFaults: Bool = true
    /// Whether unsaved changes in the context are taken into account (true by default).
    open var includesPendingChanges: Bool = true
    /// Whether property values are fetched with the objects.
    open var includesPropertyValues: Bool = true
    /// For dictionary results: whether duplicates are removed.
    open var returnsDistinctResults: Bool = false
    /// For dictionary results: the properties to group by.
    open var propertiesToGroupBy: [Any]?
    /// Whether objects are refreshed with store values when fetched again.
    open var shouldRefreshRefetchedObjects: Bool = false

    /// Creates a request with no entity.
    public override init() { super.init() }

    /// Creates a request for the entity of a name.
    public convenience init(entityName: String) {
        self.init()
        self.entityName = entityName
    }

    /// Runs the request in the context of the current `perform` block.
    open func execute() throws -> [ResultType] {
        guard let context = NSManagedObjectContext.current else {
            throw coreDataError(NSCoreDataError, "NSFetchRequest.execute() must be called inside a context's perform or performAndWait block.")
        }
        return try context.fetch(self)
    }
}
