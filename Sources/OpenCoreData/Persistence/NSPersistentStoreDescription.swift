import Foundation

/// How to add a store: its type, location, configuration and options.
open class NSPersistentStoreDescription: NSObject, @unchecked Sendable {
    /// The store type (`NSSQLiteStoreType` by default).
    open var type: String = NSSQLiteStoreType
    /// The configuration of the model the store holds.
    open var configuration: String?
    /// The store's file.
    open var url: URL?
    /// Options passed to `addPersistentStore`.
    open private(set) var options: [String: Any] = [:]
    /// Whether the store is read-only.
    open var isReadOnly: Bool = false
    /// A timeout for opening the store, in seconds.
    open var timeout: TimeInterval = 240
    /// SQLite pragmas to set when the store opens.
    open private(set) var sqlitePragmas: [String: Any] = [:]
    /// Whether a changed model migrates the store automatically (true by default, as in Core Data).
    open var shouldMigrateStoreAutomatically: Bool = true
    /// Whether the mapping model is inferred when migrating (true by default).
    open var shouldInferMappingModelAutomatically: Bool = true
    /// Whether `loadPersistentStores` adds the store asynchronously (it completes before returning here).
    open var shouldAddStoreAsynchronously: Bool = false

    /// Creates a description for the store at a URL.
    public init(url: URL) {
        self.url = url
        super.init()
    }

    /// Creates a description with no URL.
    public override init() { super.init() }

    /// Sets an option (nil removes it).
    open func setOption(_ option: NSObject?, forKey key: String) {
        options[key] = option
    }

    /// Sets an option of any type (nil removes it): used for the staged migration manager.
    open func setOption(_ option: Any?, forKey key: String) {
        options[key] = option
    }

    /// Sets an SQLite pragma (nil removes it).
    open func setValue(_ value: NSObject?, forPragmaNamed name: String) {
        sqlitePragmas[name] = value
        options[NSSQLitePragmasOption] = sqlitePragmas
    }
}
