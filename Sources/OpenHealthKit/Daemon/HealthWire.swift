import OpenCoreData

/// The messages between `HKHealthStore` and `orchard-healthd` (Coder messages over a Unix domain socket): each
/// request carries an ID its response repeats, so several calls (and a long-polling wait for changes) share one
/// connection.
///
/// Nothing a client sends is trusted: its identity comes from the kernel, predicates are rebuilt from a small
/// grammar over each entity's readable attributes, and every call runs through the same authorization filters as
/// an in-process store.
enum HealthWire {
    /// The largest message either side accepts (a page of an anchored query is well under it).
    static let maximumMessageSize = 64 * 1024 * 1024

    /// A call and the ID its response repeats.
    struct Request: Codable, Sendable {
        var id: UInt64
        var call: Call
    }

    /// What a client asks.
    enum Call: Codable, Sendable {
        /// The first message: the bundle identifier the client believes it has (checked against the registry).
        case hello(claimedBundleIdentifier: String?)
        case requestAuthorization(share: [String], read: [String])
        case requestPerObjectReadAuthorization(type: String, predicate: Predicate?)
        case save([Sample])
        case delete(UUID)
        case medications(predicate: Predicate?, limit: Int?)
        case samples(type: String, predicate: Predicate?, sort: [Sort], limit: Int?)
        case anchoredChanges(type: String, predicate: Predicate?, after: Int64?, limit: Int?)
        case changeCounter
        /// Answers once the store's change counter passes `after`, or after the timeout (long polling).
        case waitForChange(after: Int64, timeoutMilliseconds: Int)
        // The Health app's calls (privileged clients only).
        /// Adds medications in one transaction (all or none).
        case addMedications([NewMedication])
        /// Changes what is given: a nil value leaves it, and `clearNickname` / `clearSchedule` remove it.
        case updateMedication(
            id: String, nickname: String?, clearNickname: Bool, isArchived: Bool?, schedule: MedicationSchedule?,
            clearSchedule: Bool)
        case deleteMedication(id: String)
        /// A medication's schedule (answered with `.schedule`).
        case schedule(id: String)
        case logDoses([DoseLog])
        case deleteDose(UUID)
        /// Makes a logged dose `notLogged` again (answered with the new event, as `.samples`).
        case undoLog(UUID)
        /// The store's replication feed after `after` (answered with `.replicatedChanges`).
        case replicatedChanges(after: Int64?, limit: Int, excluding: [ClosedRange<Int64>])
        /// Applies another copy's page (answered with `.replicationOutcome`).
        case applyReplicatedChanges(HKHealthAppEditor.ReplicatedChanges)
        /// Numbers later changes after `past` (answered with `.counter`).
        case advanceChangeCounter(past: Int64)
    }

    /// A response to the request with the same ID.
    struct Response: Codable, Sendable {
        var id: UInt64
        var reply: Reply
    }

    /// What the daemon answers.
    enum Reply: Codable, Sendable {
        /// The identity the daemon established, and the app's sharing decisions.
        case welcome(bundleIdentifier: String, privileged: Bool, shareStatuses: [String: Int])
        case shareStatuses([String: Int])
        case done
        case medications([Medication])
        case samples([Sample])
        case changes(
            added: [Sample], addedSequence: [Int64], deleted: [Deletion], deletedSequence: [Int64], newAnchor: Int64)
        case counter(Int64)
        case failure(code: Int, message: String)
        /// A medication's schedule, nil when it has none.
        case schedule(MedicationSchedule?)
        /// A page of the replication feed.
        case replicatedChanges(HKHealthAppEditor.ReplicatedChanges)
        /// What applying a page did.
        case replicationOutcome(
            medications: Int, added: Int, deleted: Int, skipped: Int, sequences: ClosedRange<Int64>?)
    }

    /// A predicate as a tree the daemon rebuilds under its own rules.
    indirect enum Predicate: Codable, Sendable, Equatable {
        case constant(Bool)
        case and([Predicate])
        case or([Predicate])
        case not(Predicate)
        case compare(key: String, operator: UInt, value: Value, options: UInt)
    }

    /// A constant in a predicate.
    indirect enum Value: Codable, Sendable, Equatable {
        case null
        case bool(Bool)
        case integer(Int64)
        case double(Double)
        case string(String)
        case date(Date)
        case list([Value])
    }

    /// A sort key and direction.
    struct Sort: Codable, Sendable, Equatable {
        var key: String
        var ascending: Bool
    }

    /// A sample (a dose event or a category sample).
    struct Sample: Codable, Sendable {
        var type: String
        var uuid: UUID
        var start: Date
        var end: Date
        var metadata: Data?
        var sourceName: String
        var sourceBundle: String
        var value: Int?
        var concept: String?
        var logStatus: Int?
        var scheduledDate: Date?
        var scheduledDose: Double?
        var dose: Double?
        var unit: String?
    }

    /// A deleted object.
    struct Deletion: Codable, Sendable {
        var uuid: UUID
        var metadata: Data?
    }

    /// A medication concept.
    struct Concept: Codable, Sendable {
        var identifier: String
        var displayText: String
        var generalForm: String
        var codings: [HKClinicalCoding]
    }

    /// A medication the Health app adds.
    struct NewMedication: Codable, Sendable {
        var concept: Concept
        var nickname: String?
        var schedule: MedicationSchedule?
    }

    /// A medication in the person's list.
    struct Medication: Codable, Sendable {
        var concept: Concept
        var nickname: String?
        var isArchived: Bool
        var hasSchedule: Bool
    }

    /// A dose to log (the Health app's editor's `DoseLog`).
    struct DoseLog: Codable, Sendable {
        var medication: String
        var status: Int
        var date: Date
        var scheduledDate: Date?
        var scheduledQuantity: Double?
        var doseQuantity: Double?
        var unit: String
        var uuid: UUID?
    }
}

// MARK: Conversions

extension HealthWire.Predicate {
    /// The wire form of a predicate built by HealthKit's factories (comparisons of a key with a constant, and
    /// AND / OR / NOT of those). Anything else cannot be sent to the daemon, and says so.
    init(_ predicate: NSPredicate) throws {
        if let compound = predicate as? NSCompoundPredicate {
            let parts = try compound.subpredicates.map { try HealthWire.Predicate($0) }
            switch compound.compoundPredicateType {
            case .and: self = .and(parts)
            case .or: self = .or(parts)
            case .not:
                guard parts.count == 1 else { throw HealthWire.unsupported(predicate) }
                self = .not(parts[0])
            }
            return
        }
        if let comparison = predicate as? NSComparisonPredicate {
            guard comparison.leftExpression.expressionType == .keyPath,
                comparison.rightExpression.expressionType == .constantValue,
                comparison.comparisonPredicateModifier == .direct
            else { throw HealthWire.unsupported(predicate) }
            self = .compare(
                key: comparison.leftExpression.keyPath, operator: comparison.predicateOperatorType.rawValue,
                value: try HealthWire.Value(comparison.rightExpression.constantValue),
                options: comparison.options.rawValue)
            return
        }
        switch predicate.predicateFormat {
        case "TRUEPREDICATE": self = .constant(true)
        case "FALSEPREDICATE": self = .constant(false)
        default: throw HealthWire.unsupported(predicate)
        }
    }

    /// The comparison operators a client may use (no regular expressions, no custom selectors).
    static let allowedOperators: Set<UInt> = [0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 99, 100]

    /// The predicate, rebuilt on the daemon's side over the attributes `keys` allows.
    func predicate(allowing keys: Set<String>, depth: Int = 0) throws -> NSPredicate {
        guard depth < 32 else { throw HKError(.errorInvalidArgument, "predicate nested deeper than 32 levels") }
        switch self {
        case .constant(let value): return NSPredicate(value: value)
        case .and(let parts):
            return NSCompoundPredicate(
                andPredicateWithSubpredicates: try parts.map { try $0.predicate(allowing: keys, depth: depth + 1) })
        case .or(let parts):
            return NSCompoundPredicate(
                orPredicateWithSubpredicates: try parts.map { try $0.predicate(allowing: keys, depth: depth + 1) })
        case .not(let part):
            return NSCompoundPredicate(
                notPredicateWithSubpredicate: try part.predicate(allowing: keys, depth: depth + 1))
        case .compare(let key, let op, let value, let options):
            guard keys.contains(key) else {
                throw HKError(.errorInvalidArgument, "a predicate may not compare \"\(key)\" here")
            }
            guard Self.allowedOperators.contains(op), let type = NSComparisonPredicate.Operator(rawValue: op) else {
                throw HKError(.errorInvalidArgument, "predicate operator \(op) is not allowed")
            }
            return NSComparisonPredicate(
                leftExpression: NSExpression(forKeyPath: key),
                rightExpression: NSExpression(forConstantValue: value.any),
                modifier: .direct, type: type, options: NSComparisonPredicate.Options(rawValue: options & 7))
        }
    }
}

extension HealthWire.Value {
    /// The wire form of a predicate constant.
    init(_ value: Any?) throws {
        switch value {
        case nil: self = .null
        case let value as Bool: self = .bool(value)
        case let value as Int: self = .integer(Int64(value))
        case let value as Int64: self = .integer(value)
        case let value as Int32: self = .integer(Int64(value))
        case let value as Int16: self = .integer(Int64(value))
        case let value as Double: self = .double(value)
        case let value as String: self = .string(value)
        case let value as Date: self = .date(value)
        case let value as UUID: self = .string(value.uuidString)
        case let value as [Any]: self = .list(try value.map { try HealthWire.Value($0) })
        case let value as Set<String>: self = .list(value.sorted().map { .string($0) })
        default:
            throw HKError(
                .errorInvalidArgument,
                "a predicate constant of type \(type(of: value!)) cannot be sent to the health daemon")
        }
    }

    /// The constant as the predicate layer takes it.
    var any: Any? {
        switch self {
        case .null: nil
        case .bool(let value): value
        case .integer(let value): Int(value)
        case .double(let value): value
        case .string(let value): value
        case .date(let value): value
        case .list(let values): values.map { $0.any as Any }
        }
    }
}

extension HealthWire {
    static func unsupported(_ predicate: NSPredicate) -> HKError {
        HKError(
            .errorInvalidArgument,
            "the predicate \(predicate.predicateFormat) cannot be sent to the health daemon: use HealthKit's predicate factories"
        )
    }

    /// The attributes a client's predicates may compare, per entity.
    static let medicationKeys: Set<String> = [
        "medicationConceptIdentifier", "displayText", "generalForm", "nickname", "isArchived", "hasSchedule",
        "createdAt",
    ]
    static let doseEventKeys: Set<String> = [
        "uuid", "startDate", "endDate", "medicationConceptIdentifier", "logStatus", "scheduleType", "scheduledDate",
        "scheduledDoseQuantity", "doseQuantity", "unit",
    ]
    static let categoryKeys: Set<String> = ["uuid", "startDate", "endDate", "value", "typeIdentifier"]

    static func keys(for type: HKSampleType) -> Set<String> {
        type.identifier == HKSampleType.medicationDoseEventIdentifier ? doseEventKeys : categoryKeys
    }

    /// A sample type by identifier (dose events, or a category type).
    static func sampleType(_ identifier: String) throws -> HKSampleType {
        if identifier == HKSampleType.medicationDoseEventIdentifier { return HKObjectType.medicationDoseEventType() }
        guard identifier.hasPrefix("HKCategoryTypeIdentifier"), identifier.count < 128 else {
            throw HKError(.errorInvalidArgument, "unknown sample type \"\(identifier.prefix(128))\"")
        }
        return HKCategoryType(HKCategoryTypeIdentifier(rawValue: identifier))
    }

    /// An object type by identifier (a sample type, or the medication type).
    static func objectType(_ identifier: String) throws -> HKObjectType {
        if identifier == HKObjectType.userAnnotatedMedicationType().identifier {
            return HKObjectType.userAnnotatedMedicationType()
        }
        return try sampleType(identifier)
    }

    static func sample(_ sample: HKSample) -> Sample {
        let source = sample.sourceRevision.source
        var wire = Sample(
            type: sample.sampleType.identifier, uuid: sample.uuid, start: sample.startDate, end: sample.endDate,
            metadata: MetadataCoding.encode(sample.metadata), sourceName: source.name,
            sourceBundle: source.bundleIdentifier)
        if let category = sample as? HKCategorySample { wire.value = category.value }
        if let dose = sample as? HKMedicationDoseEvent {
            wire.concept = dose.medicationConceptIdentifier.identifier
            wire.logStatus = dose.logStatus.rawValue
            wire.scheduledDate = dose.scheduledDate
            wire.scheduledDose = dose.scheduledDoseQuantity
            wire.dose = dose.doseQuantity
            wire.unit = dose.unit.unitString
        }
        return wire
    }

    static func sample(_ wire: Sample, interner: RecordMapping.Interner) throws -> HKSample {
        let source = interner.source(name: wire.sourceName, bundleIdentifier: wire.sourceBundle)
        let metadata = MetadataCoding.decode(wire.metadata)
        if wire.type == HKSampleType.medicationDoseEventIdentifier {
            guard let concept = wire.concept, let status = wire.logStatus.flatMap(HKMedicationDoseEvent.LogStatus.init),
                let unit = wire.unit
            else {
                throw HKError(
                    .errorDatabaseInaccessible, "the health daemon sent an incomplete dose event \(wire.uuid)")
            }
            return HKMedicationDoseEvent(
                medicationConceptIdentifier: interner.concept(concept), logStatus: status,
                scheduleType: wire.scheduledDate == nil ? .asNeeded : .schedule, scheduledDate: wire.scheduledDate,
                scheduledDoseQuantity: wire.scheduledDose, doseQuantity: wire.dose, unit: interner.unit(unit),
                startDate: wire.start, endDate: wire.end, uuid: wire.uuid, metadata: metadata, sourceRevision: source)
        }
        guard let value = wire.value else {
            throw HKError(.errorInvalidArgument, "category sample \(wire.uuid) has no value")
        }
        return HKCategorySample(
            type: HKCategoryType(HKCategoryTypeIdentifier(rawValue: try sampleType(wire.type).identifier)),
            value: value,
            start: wire.start, end: wire.end, uuid: wire.uuid, metadata: metadata, sourceRevision: source)
    }

    static func concept(_ concept: HKMedicationConcept) -> Concept {
        Concept(
            identifier: concept.identifier.identifier, displayText: concept.displayText,
            generalForm: concept.generalForm.rawValue,
            codings: concept.relatedCodings.sorted { ($0.system, $0.code) < ($1.system, $1.code) })
    }

    static func concept(_ wire: Concept) -> HKMedicationConcept {
        HKMedicationConcept(
            identifier: RecordMapping.conceptIdentifier(wire.identifier), displayText: wire.displayText,
            generalForm: HKMedicationGeneralForm(rawValue: wire.generalForm), relatedCodings: Set(wire.codings))
    }

    static func medication(_ medication: HKUserAnnotatedMedication) -> Medication {
        Medication(
            concept: concept(medication.medication), nickname: medication.nickname, isArchived: medication.isArchived,
            hasSchedule: medication.hasSchedule)
    }

    static func medication(_ wire: Medication) -> HKUserAnnotatedMedication {
        HKUserAnnotatedMedication(
            nickname: wire.nickname, isArchived: wire.isArchived, hasSchedule: wire.hasSchedule,
            medication: concept(wire.concept))
    }

    /// An error as the wire carries it.
    static func failure(_ error: any Error) -> Reply {
        if let error = error as? HKError { return .failure(code: error.code.rawValue, message: error.message) }
        return .failure(code: HKError.Code.errorDatabaseInaccessible.rawValue, message: "\(error)")
    }

    /// The error a failure reply stands for.
    static func error(code: Int, message: String) -> HKError {
        HKError(HKError.Code(rawValue: code) ?? .errorDatabaseInaccessible, message)
    }
}

extension HealthWire.Call {
    /// Whether the call only reads (so a page read ahead stays good across it).
    var onlyReads: Bool {
        switch self {
        case .medications, .samples, .anchoredChanges, .changeCounter, .waitForChange, .schedule, .replicatedChanges:
            true
        case .hello, .requestAuthorization, .requestPerObjectReadAuthorization, .save, .delete, .addMedications,
            .updateMedication, .deleteMedication, .logDoses, .deleteDose, .undoLog, .applyReplicatedChanges,
            .advanceChangeCounter:
            false
        }
    }
}
