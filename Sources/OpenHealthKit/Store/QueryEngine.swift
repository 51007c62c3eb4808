import OpenCoreData

/// Query execution: HealthKit predicates become NSFetchRequests on the store's entities, with the
/// app's authorization added as SQL conditions, so unauthorized data is never loaded.
extension HKHealthStore {
    /// A fetched sample with its sequence number.
    struct SequencedSample { let seq: Int64; let sample: HKSample }
    /// A deletion with its sequence number.
    struct SequencedDeletion { let seq: Int64; let object: HKDeletedObject }

    func entity(for type: HKSampleType) -> String {
        type.identifier == HKSampleType.medicationDoseEventIdentifier ? HealthStoreModel.doseEvent : HealthStoreModel.categorySample
    }

    /// What the app may see as of the store's authorization generation: computed once per generation
    /// (every change of decisions or of the set of medications moves it, in the same transaction).
    func visibilityCache(_ counters: StoreCounters, in context: NSManagedObjectContext) throws -> VisibilityCache {
        if let generation = counters.authorization,
           let cached = visibilityLock.withLock({ visibilityCache }), cached.generation == generation {
            return cached
        }
        let granted = try AuthorizationRecords.keys(database, bundleIdentifier, AuthorizationRecords.medication, in: context)
        let readable = try AuthorizationRecords.keys(database, bundleIdentifier, AuthorizationRecords.read, in: context)
        let request = NSFetchRequest<NSDictionary>(entityName: HealthStoreModel.medication)
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["medicationConceptIdentifier"]
        let all = Set(try context.fetch(request).compactMap { $0.object(forKey: "medicationConceptIdentifier") as? String })
        let withheld = all.subtracting(granted)
        // The shorter list: every medication granted needs no condition at all. Either way the
        // condition is a filter only (see `HKQuery.filterOnly`), so plans follow `seq` or the app's predicate.
        let doses: NSPredicate?
        if withheld.isEmpty {
            doses = nil
        } else if withheld.count < granted.count {
            doses = NSCompoundPredicate(notPredicateWithSubpredicate: HKQuery.compare("medicationConceptIdentifier", .within, withheld.sorted()))
        } else {
            doses = HKQuery.filterOnly(HKQuery.compare("medicationConceptIdentifier", .within, granted.sorted()))
        }
        let cache = VisibilityCache(generation: counters.authorization ?? -1, doses: doses, granted: granted,
                                    deletedDoses: HKQuery.filterOnly(HKQuery.compare("medicationConceptIdentifier", .within, granted.sorted())),
                                    readable: readable)
        if counters.authorization != nil { visibilityLock.withLock { visibilityCache = cache } }
        return cache
    }

    /// The SQL condition restricting what the app may see of a sample type (nil: everything; a false
    /// predicate: nothing).
    func visibility(for type: HKSampleType, _ counters: StoreCounters, in context: NSManagedObjectContext) throws -> NSPredicate? {
        if isPrivileged { return nil }
        let cache = try visibilityCache(counters, in: context)
        if type.identifier == HKSampleType.medicationDoseEventIdentifier { return cache.doses }
        return cache.readable.contains(type.identifier) ? HKQuery.compare("typeIdentifier", .equal, type.identifier) : HKQuery.nothing
    }

    func samplePredicate(_ type: HKSampleType, _ predicate: NSPredicate?, in context: NSManagedObjectContext) throws -> NSPredicate {
        var parts: [NSPredicate] = []
        if entity(for: type) == HealthStoreModel.categorySample { parts.append(HKQuery.compare("typeIdentifier", .equal, type.identifier)) }
        if let visible = try visibility(for: type, try StoreCounters.read(in: context, database: database), in: context) { parts.append(visible) }
        if let predicate { parts.append(predicate) }
        return parts.isEmpty ? HKQuery.everything : HKQuery.and(parts)
    }

    func map(_ object: NSManagedObject, _ type: HKSampleType, _ interner: RecordMapping.Interner) -> HKSample {
        entity(for: type) == HealthStoreModel.doseEvent ? RecordMapping.doseEvent(object, interner) : RecordMapping.categorySample(object)
    }

    /// The medications the app may read that match a predicate.
    func localMedications(matching predicate: NSPredicate?, limit: Int?) throws -> [HKUserAnnotatedMedication] {
        if let limit, limit < 0 { throw HKError(.errorInvalidArgument, "limit must not be negative (got \(limit))") }
        return try database.perform { context in
            var parts: [NSPredicate] = []
            if !isPrivileged {
                let concepts = try AuthorizationRecords.keys(database, bundleIdentifier, AuthorizationRecords.medication, in: context)
                parts.append(HKQuery.compare("medicationConceptIdentifier", .within, concepts.sorted()))
            }
            if let predicate { parts.append(predicate) }
            return try database.fetch(HealthStoreModel.medication, parts.isEmpty ? nil : HKQuery.and(parts),
                                      sort: [HKQuery.sort("createdAt", ascending: true)], limit: limit ?? 0, in: context)
                .map(RecordMapping.medication)
        }
    }

    /// Samples of a type matching a predicate, sorted and limited in SQL.
    func localSamples(of type: HKSampleType, matching predicate: NSPredicate?, sort: [NSSortDescriptor], limit: Int?) throws -> [HKSample] {
        if let limit, limit < 0 { throw HKError(.errorInvalidArgument, "limit must not be negative (got \(limit))") }
        return try database.perform { context in
            let p = try samplePredicate(type, predicate, in: context)
            let interner = RecordMapping.Interner()
            return try database.fetch(entity(for: type), p, sort: sort, limit: limit ?? 0, in: context).map { map($0, type, interner) }
        }
    }

    /// Samples added and objects deleted after an anchor, in sequence order, at most `limit` in all.
    /// Everything is read up to the change counter as it was at the start: sequence numbers become
    /// visible in increasing order (see `HealthDatabase.write`), so nothing at or below it can still
    /// appear, and the new anchor never skips a change. Each read walks the `seq` index from the
    /// anchor (or an index of the app's own predicate), so a page costs what it returns.
    func localAnchoredChanges(of type: HKSampleType, matching predicate: NSPredicate?, after anchor: Int64?, limit: Int?)
        throws -> (added: [SequencedSample], deleted: [SequencedDeletion], newAnchor: Int64) {
        if let limit, limit < 0 { throw HKError(.errorInvalidArgument, "limit must not be negative (got \(limit))") }
        return try database.perform { context in
            let since = anchor ?? 0
            let counters = try StoreCounters.read(in: context, database: database)
            let counter = counters.sequence
            guard counter > since else { return ([], [], since) }
            let window = HKQuery.and([HKQuery.compare("seq", .above, since), HKQuery.compare("seq", .atMost, counter)])
            let visible = try visibility(for: type, counters, in: context)
            var parts = [window]
            if entity(for: type) == HealthStoreModel.categorySample { parts.append(HKQuery.compare("typeIdentifier", .equal, type.identifier)) }
            if let visible { parts.append(visible) }
            if let predicate { parts.append(predicate) }
            let bySeq = [HKQuery.sort("seq", ascending: true)]
            let interner = RecordMapping.Interner()
            var added = try database.fetch(entity(for: type), HKQuery.and(parts), sort: bySeq, limit: limit ?? 0, in: context)
                .map { SequencedSample(seq: ($0 as? DoseEventRecord)?.seq ?? int64($0, "seq"), sample: map($0, type, interner)) }
            // Everything matching in (since, upper] is read; a full list may have more after its last change.
            var upper = counter
            if let limit, limit > 0, added.count == limit, let last = added.last { upper = last.seq }
            var deleted: [SequencedDeletion] = []
            if anchor != nil, counters.lastDeletion > since {
                // Deletions only up to the page's last addition (none beyond it can be in this result).
                // Deleted dose events carry their medication: kept when it is granted now (in SQL, or
                // here when every medication in the store is granted and SQL needs no list); a
                // category type's deletions need read access to the type.
                var parts = [HKQuery.compare("sampleType", .equal, type.identifier),
                             HKQuery.compare("seq", .above, since), HKQuery.compare("seq", .atMost, upper)]
                var keep: Set<String>? = nil
                if !isPrivileged {
                    let cache = try visibilityCache(counters, in: context)
                    if type.identifier == HKSampleType.medicationDoseEventIdentifier {
                        if cache.doses == nil { keep = cache.granted } else { parts.append(cache.deletedDoses) }
                    } else if !cache.readable.contains(type.identifier) {
                        parts.append(HKQuery.nothing)
                    }
                }
                let records = try database.fetch(HealthStoreModel.deletedObject, HKQuery.and(parts), sort: bySeq, limit: limit ?? 0, in: context)
                if let limit, limit > 0, records.count == limit, let last = records.last { upper = min(upper, int64(last, "seq")) }
                deleted = records
                    .filter { record in keep.map { $0.contains(record.value(forKey: "medicationConceptIdentifier") as? String ?? "") } ?? true }
                    .map { SequencedDeletion(seq: int64($0, "seq"), object: RecordMapping.deletedObject($0)) }
            }
            added = added.filter { $0.seq <= upper }
            deleted = deleted.filter { $0.seq <= upper }
            if let limit, limit > 0, added.count + deleted.count > limit {
                // Keep the first `limit` changes in sequence order; the anchor is the last one kept.
                let cut = (added.map(\.seq) + deleted.map(\.seq)).sorted()[limit - 1]
                added = added.filter { $0.seq <= cut }
                deleted = deleted.filter { $0.seq <= cut }
                return (added, deleted, cut)
            }
            return (added, deleted, upper)
        }
    }
}
