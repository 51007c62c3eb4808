import OpenCoreData

/// Authorization decisions stored in the health store, per app bundle identifier.
enum AuthorizationRecords {
    /// A medication the app may read (key: concept identifier).
    static let medication = "medication"
    /// The app asked for per-object medication access (key: "*"); new medications ask it again.
    static let medicationRequested = "medicationRequested"
    /// A type the app may read (key: type identifier).
    static let read = "read"
    /// A type the app asked to share (key: type identifier; granted or not).
    static let share = "share"

    static func predicate(_ bundle: String, _ kind: String, key: String? = nil) -> NSPredicate {
        var parts = [HKQuery.compare("bundleIdentifier", .equal, bundle), HKQuery.compare("kind", .equal, kind)]
        if let key { parts.append(HKQuery.compare("key", .equal, key)) }
        return HKQuery.and(parts)
    }

    static func keys(_ db: HealthDatabase, _ bundle: String, _ kind: String, grantedOnly: Bool = true,
                     in context: NSManagedObjectContext) throws -> Set<String> {
        var p = predicate(bundle, kind)
        if grantedOnly { p = HKQuery.and([p, HKQuery.compare("granted", .equal, true)]) }
        // Only the keys, as dictionaries: no managed objects to register for a read on every query.
        let request = NSFetchRequest<NSDictionary>(entityName: HealthStoreModel.authorization)
        request.predicate = p
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["key"]
        return Set(try context.fetch(request).compactMap { $0.object(forKey: "key") as? String })
    }

    static func set(_ db: HealthDatabase, _ bundle: String, _ kind: String, key: String, granted: Bool,
                    in context: NSManagedObjectContext) throws {
        if let existing = try db.fetch(HealthStoreModel.authorization, predicate(bundle, kind, key: key), limit: 1, in: context).first {
            existing.setValue(granted, forKey: "granted")
        } else {
            db.insert(HealthStoreModel.authorization, ["bundleIdentifier": bundle, "kind": kind, "key": key, "granted": granted], in: context)
        }
    }

    /// Apps that asked for per-object medication access.
    static func appsThatRequestedMedications(_ db: HealthDatabase, in context: NSManagedObjectContext) throws -> Set<String> {
        let p = HKQuery.compare("kind", .equal, medicationRequested)
        return Set(try db.fetch(HealthStoreModel.authorization, p, in: context).compactMap { $0.value(forKey: "bundleIdentifier") as? String })
    }
}
