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

    /// The SQL condition restricting what the app may see of a sample type (nil: everything; a false
    /// predicate: nothing).
    func visibility(for type: HKSampleType, in context: NSManagedObjectContext) throws -> NSPredicate? {
        if isPrivileged { return nil }
        if type.identifier == HKSampleType.medicationDoseEventIdentifier {
            let concepts = try AuthorizationRecords.keys(database, bundleIdentifier, AuthorizationRecords.medication, in: context)
            return HKQuery.filterOnly(HKQuery.compare("medicationConceptIdentifier", .within, concepts.sorted()))
        }
        let readable = try AuthorizationRecords.keys(database, bundleIdentifier, AuthorizationRecords.read, in: context)
        return readable.contains(type.identifier) ? HKQuery.compare("typeIdentifier", .equal, type.identifier) : HKQuery.nothing
    }

    func samplePredicate(_ type: HKSampleType, _ predicate: NSPredicate?, in context: NSManagedObjectContext) throws -> NSPredicate {
        var parts: [NSPredicate] = []
        if entity(for: type) == HealthStoreModel.categorySample { parts.append(HKQuery.compare("typeIdentifier", .equal, type.identifier)) }
        if let visible = try visibility(for: type, in: context) { parts.append(visible) }
        if let predicate { parts.append(predicate) }
        return parts.isEmpty ? HKQuery.everything : HKQuery.and(parts)
    }

    func map(_ object: NSManagedObject, _ type: HKSampleType, _ interner: RecordMapping.Interner) -> HKSample {
        entity(for: type) == HealthStoreModel.doseEvent ? RecordMapping.doseEvent(object, interner) : RecordMapping.categorySample(object)
    }

    /// The medications the app may read that match a predicate.
    func medications(matching predicate: NSPredicate?, limit: Int?) throws -> [HKUserAnnotatedMedication] {
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
    func samples(of type: HKSampleType, matching predicate: NSPredicate?, sort: [NSSortDescriptor], limit: Int?) throws -> [HKSample] {
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
    func anchoredChanges(of type: HKSampleType, matching predicate: NSPredicate?, after anchor: Int64?, limit: Int?)
        throws -> (added: [SequencedSample], deleted: [SequencedDeletion], newAnchor: Int64) {
        if let limit, limit < 0 { throw HKError(.errorInvalidArgument, "limit must not be negative (got \(limit))") }
        return try database.perform { context in
            let since = anchor ?? 0
            let counter = try database.changeCounter(in: context)
            guard counter > since else { return ([], [], since) }
            let window = HKQuery.and([HKQuery.compare("seq", .above, since), HKQuery.compare("seq", .atMost, counter)])
            let visible = try visibility(for: type, in: context)
            var parts = [window]
            if entity(for: type) == HealthStoreModel.categorySample { parts.append(HKQuery.compare("typeIdentifier", .equal, type.identifier)) }
            if let visible { parts.append(visible) }
            if let predicate { parts.append(predicate) }
            let bySeq = [HKQuery.sort("seq", ascending: true)]
            let interner = RecordMapping.Interner()
            var added = try database.fetch(entity(for: type), HKQuery.and(parts), sort: bySeq, limit: limit ?? 0, in: context)
                .map { SequencedSample(seq: int64($0, "seq"), sample: map($0, type, interner)) }
            var deleted: [SequencedDeletion] = []
            if anchor != nil {
                // Deleted dose events carry their medication, filtered like the samples; a category
                // type's deletions need read access to the type (visibility is then its type).
                var parts = [HKQuery.compare("sampleType", .equal, type.identifier), window]
                if !isPrivileged {
                    if type.identifier == HKSampleType.medicationDoseEventIdentifier {
                        if let visible { parts.append(visible) }
                    } else if !(try AuthorizationRecords.keys(database, bundleIdentifier, AuthorizationRecords.read, in: context)
                                .contains(type.identifier)) {
                        parts.append(HKQuery.nothing)
                    }
                }
                deleted = try database.fetch(HealthStoreModel.deletedObject, HKQuery.and(parts), sort: bySeq, limit: limit ?? 0, in: context)
                    .map { SequencedDeletion(seq: int64($0, "seq"), object: RecordMapping.deletedObject($0)) }
            }
            guard let limit, limit > 0 else { return (added, deleted, counter) }
            if added.count + deleted.count > limit {
                // Keep the first `limit` changes in sequence order; the anchor is the last one kept.
                let cut = (added.map(\.seq) + deleted.map(\.seq)).sorted()[limit - 1]
                added = added.filter { $0.seq <= cut }
                deleted = deleted.filter { $0.seq <= cut }
                return (added, deleted, cut)
            }
            if added.count == limit || deleted.count == limit {
                // A full list may have more after its last change.
                return (added, deleted, max(added.last?.seq ?? 0, deleted.last?.seq ?? 0))
            }
            return (added, deleted, counter)
        }
    }
}
