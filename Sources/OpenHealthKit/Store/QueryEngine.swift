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
            return HKQuery.compare("medicationConceptIdentifier", .within, concepts.sorted())
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

    func map(_ object: NSManagedObject, _ type: HKSampleType) -> HKSample {
        entity(for: type) == HealthStoreModel.doseEvent ? RecordMapping.doseEvent(object) : RecordMapping.categorySample(object)
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
            return try database.fetch(entity(for: type), p, sort: sort, limit: limit ?? 0, in: context).map { map($0, type) }
        }
    }

    /// Samples added and objects deleted after an anchor, in sequence order, at most `limit` in all.
    func anchoredChanges(of type: HKSampleType, matching predicate: NSPredicate?, after anchor: Int64?, limit: Int?)
        throws -> (added: [SequencedSample], deleted: [SequencedDeletion], newAnchor: Int64) {
        if let limit, limit < 0 { throw HKError(.errorInvalidArgument, "limit must not be negative (got \(limit))") }
        return try database.perform { context in
            let counter = try database.changeCounter(in: context)
            let since = anchor ?? 0
            var p = try samplePredicate(type, predicate, in: context)
            p = HKQuery.and([HKQuery.compare("seq", .above, since), p])
            let bySeq = [HKQuery.sort("seq", ascending: true)]
            var added = try database.fetch(entity(for: type), p, sort: bySeq, limit: limit ?? 0, in: context)
                .map { SequencedSample(seq: int64($0, "seq"), sample: map($0, type)) }
            var deleted: [SequencedDeletion] = []
            if anchor != nil {
                var parts = [HKQuery.compare("sampleType", .equal, type.identifier), HKQuery.compare("seq", .above, since)]
                if !isPrivileged {
                    if type.identifier == HKSampleType.medicationDoseEventIdentifier {
                        if let visible = try visibility(for: type, in: context) { parts.append(visible) }
                    } else if !(try AuthorizationRecords.keys(database, bundleIdentifier, AuthorizationRecords.read, in: context)
                                .contains(type.identifier)) {
                        parts.append(HKQuery.nothing)
                    }
                }
                deleted = try database.fetch(HealthStoreModel.deletedObject, HKQuery.and(parts), sort: bySeq, limit: limit ?? 0, in: context)
                    .map { SequencedDeletion(seq: int64($0, "seq"), object: RecordMapping.deletedObject($0)) }
            }
            if let limit, limit > 0, added.count + deleted.count > limit {
                // Keep the first `limit` changes in sequence order; the anchor is the last one kept.
                let cut = (added.map(\.seq) + deleted.map(\.seq)).sorted()[limit - 1]
                added = added.filter { $0.seq <= cut }
                deleted = deleted.filter { $0.seq <= cut }
                return (added, deleted, cut)
            }
            if let limit, limit > 0, added.count + deleted.count == limit {
                return (added, deleted, max(added.last?.seq ?? 0, deleted.last?.seq ?? 0))
            }
            return (added, deleted, max(counter, since, added.last?.seq ?? 0, deleted.last?.seq ?? 0))
        }
    }
}
