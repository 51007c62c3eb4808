import Foundation
import OpenHealthKit

/// A medication plan: a profile's medications and their schedules as a file a person can keep, send to someone
/// caring for the same person, and import on another machine. JSON, with a format name and version.
///
/// A plan file is not trusted: ``init(data:catalog:)`` refuses, by name, anything but a plan of this version with
/// at most ``maximumMedications`` medications from the catalog, each once, with a valid schedule; nothing is
/// imported from a file that fails.
public struct MedicationPlan: Codable, Hashable, Sendable {
    /// One medication of the plan.
    public struct Entry: Codable, Hashable, Sendable {
        /// The RxNorm code.
        public var rxcui: String
        /// The catalog's name for it (for people reading the file; the code is what counts).
        public var name: String
        /// The person's name for it.
        public var nickname: String?
        /// When it is due.
        public var schedule: MedicationSchedule

        /// Creates an entry.
        public init(rxcui: String, name: String, nickname: String?, schedule: MedicationSchedule) {
            self.rxcui = rxcui
            self.name = name
            self.nickname = nickname
            self.schedule = schedule
        }
    }

    /// The format's name, in every file.
    public static let formatName = "org.orchard.meds.plan"
    /// The format version this release writes and reads.
    public static let currentVersion = 1
    /// The most medications a plan may hold.
    public static let maximumMedications = 200
    /// The largest plan file read (1 MiB).
    public static let maximumSize = 1 << 20

    /// The format's name.
    public var format: String
    /// The format's version.
    public var version: Int
    /// What the plan is ("Sam's medications").
    public var title: String
    /// The medications.
    public var medications: [Entry]

    /// A plan of these medications.
    public init(title: String, medications: [Entry]) {
        format = Self.formatName
        version = Self.currentVersion
        self.title = title
        self.medications = medications
    }

    /// The plan of a profile's active medications that came from the catalog.
    public init(title: String, items: [MedicationItem]) {
        self.init(
            title: title,
            medications: items.filter { !$0.isArchived }.compactMap { item in
                guard let rxcui = item.rxcui else { return nil }
                return Entry(
                    rxcui: rxcui, name: item.displayText, nickname: item.nickname, schedule: item.schedule ?? .asNeeded)
            })
    }

    /// Reads and checks a plan file.
    public init(data: Data, catalog: MedicationCatalog = .bundled) throws {
        guard data.count <= Self.maximumSize else {
            throw MedsError("This plan file is \(data.count) bytes; a plan is at most 1 MiB. Nothing was read.")
        }
        let plan: MedicationPlan
        do {
            plan = try JSONDecoder().decode(MedicationPlan.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            throw MedsError("This is not a readable medication plan: \(Self.describe(context)).")
        } catch let DecodingError.keyNotFound(key, context) {
            throw MedsError("This is not a medication plan: \(key.stringValue) is missing\(Self.place(context)).")
        } catch let DecodingError.typeMismatch(_, context) {
            throw MedsError("This is not a medication plan: \(Self.describe(context)).")
        } catch {
            throw MedsError("This is not a medication plan: \(error.localizedDescription)")
        }
        guard plan.format == Self.formatName else {
            throw MedsError("This file is a \(plan.format), not a medication plan.")
        }
        guard plan.version == Self.currentVersion else {
            throw MedsError("This plan is version \(plan.version); this release reads version \(Self.currentVersion).")
        }
        guard plan.medications.count <= Self.maximumMedications else {
            throw MedsError("This plan lists \(plan.medications.count) medications; a plan holds at most 200.")
        }
        var seen = Set<String>()
        for entry in plan.medications {
            guard catalog.entry(rxcui: entry.rxcui) != nil else {
                throw MedsError("RxNorm code \(entry.rxcui) (\(entry.name)) is not in the medication catalog.")
            }
            guard seen.insert(entry.rxcui).inserted else {
                throw MedsError("\(entry.name) (RxNorm \(entry.rxcui)) is in the plan twice.")
            }
            if let nickname = entry.nickname, nickname.count > 60 {
                throw MedsError("The nickname of \(entry.name) is longer than 60 characters.")
            }
        }
        guard plan.title.count <= 200 else { throw MedsError("The plan's title is longer than 200 characters.") }
        self = plan
    }

    /// The plan as a file.
    public func data() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    static func place(_ context: DecodingError.Context) -> String {
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        return path.isEmpty ? "" : " at \(path)"
    }

    static func describe(_ context: DecodingError.Context) -> String {
        context.debugDescription + place(context)
    }
}

extension ProfileHealth {
    /// Adds the plan's medications that the profile does not have yet, in one transaction (all of them or, when one
    /// is refused or the write fails, none); returns how many were added. Medications already in the list are left
    /// as they are.
    @discardableResult
    public func importPlan(_ plan: MedicationPlan) async throws -> Int {
        let existing = Set(try await medications().compactMap(\.rxcui))
        let new = try plan.medications.filter { !existing.contains($0.rxcui) }.map { entry in
            guard let catalogEntry = catalog.entry(rxcui: entry.rxcui) else {
                throw MedsError(
                    "\(entry.name) (RxNorm \(entry.rxcui)) is not in the medication catalog; nothing was added.")
            }
            return HKHealthAppEditor.NewMedication(
                concept: catalogEntry.concept, nickname: try Self.validatedNickname(entry.nickname),
                schedule: entry.schedule)
        }
        do {
            try await editor.addMedications(new)
        } catch let error as HKError {
            throw MedsError("The plan was not added: \(error.localizedDescription)")
        }
        return new.count
    }
}
