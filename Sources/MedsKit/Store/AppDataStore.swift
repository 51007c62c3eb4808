import Foundation
import OpenCoreData

/// The app's own data, in an OpenCoreData store: the profiles, each profile's notes on its medications, and the
/// preferences. Health data (medications, doses, symptoms) lives in each profile's health store instead
/// (``ProfileHealth``). The model ships as Xcode model files (`Models/MedsV1.xcdatamodel`, `MedsV2`, `MedsV3`), as an Apple
/// app's would; a store an earlier release wrote is brought up to date by ``AppDataMigration``'s stages when it opens.
@MainActor
public final class AppDataStore {
    /// The store file.
    public let url: URL
    let container: NSPersistentContainer
    var context: NSManagedObjectContext { container.viewContext }

    /// The current model, loaded from its model file.
    public static func model() throws -> NSManagedObjectModel { try AppDataMigration.currentModel() }

    /// Opens (or creates) the store at `url`, migrating a store an earlier release wrote. A store with no profile
    /// gets one for the user, named "Me".
    public init(url: URL) throws {
        self.url = url
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        container = NSPersistentContainer(name: "Meds", managedObjectModel: try Self.model())
        let description = NSPersistentStoreDescription(url: url)
        description.setOption(
            NSStagedMigrationManager(try AppDataMigration.stages()),
            forKey: NSPersistentStoreStagedMigrationManagerOptionKey)
        container.persistentStoreDescriptions = [description]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure {
            throw MedsError("Could not open the app's data at \(url.path): \(failure.localizedDescription)")
        }
        if try profiles().isEmpty { _ = try addProfile(name: "Me", relationship: .me) }
    }

    // MARK: Profiles

    /// Every profile, oldest first.
    public func profiles() throws -> [Profile] {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Profile")
        request.sortDescriptors = [NSSortDescriptor(key: "createdAt", ascending: true)]
        return try context.fetch(request).map(Self.profile)
    }

    static func profile(_ object: NSManagedObject) -> Profile {
        Profile(
            id: object.value(forKey: "id") as? UUID ?? UUID(),
            name: object.value(forKey: "name") as? String ?? "",
            relationship: Profile.Relationship(rawValue: object.value(forKey: "relationship") as? String ?? "")
                ?? .other,
            createdAt: object.value(forKey: "createdAt") as? Date ?? Date(timeIntervalSince1970: 0),
            colorName: object.value(forKey: "colorName") as? String ?? AppDataMigration.palette[0])
    }

    /// Adds a profile; the name is trimmed and must be new.
    public func addProfile(name: String, relationship: Profile.Relationship) throws -> Profile {
        let name = try Profile.validatedName(name)
        if try profiles().contains(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) {
            throw MedsError("There is already a profile named \(name).")
        }
        let count = try profiles().count
        let object = NSEntityDescription.insertNewObject(forEntityName: "Profile", into: context)
        let profile = Profile(
            id: UUID(), name: name, relationship: relationship, createdAt: Date(),
            colorName: AppDataMigration.palette[count % AppDataMigration.palette.count])
        object.setValue(profile.colorName, forKey: "colorName")
        object.setValue(profile.id, forKey: "id")
        object.setValue(profile.name, forKey: "name")
        object.setValue(relationship.rawValue, forKey: "relationship")
        object.setValue(profile.createdAt, forKey: "createdAt")
        try save()
        return profile
    }

    /// Adds a profile another machine made (sync), keeping its identifier, creation date and colour. A profile with
    /// that identifier already here is returned as it is; a name already used by another profile here gets the
    /// other machine's name after it ("Me (Kitchen laptop)"), so neither person's data is merged with the other's.
    @discardableResult
    public func adoptProfile(_ profile: Profile, from device: String) throws -> Profile {
        let existing = try profiles()
        if let same = existing.first(where: { $0.id == profile.id }) { return same }
        var name = try Profile.validatedName(profile.name)
        if existing.contains(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) {
            name = String("\(name) (\(device))".prefix(Profile.maximumNameLength))
        }
        let object = NSEntityDescription.insertNewObject(forEntityName: "Profile", into: context)
        let adopted = Profile(
            id: profile.id, name: name, relationship: profile.relationship, createdAt: profile.createdAt,
            colorName: AppDataMigration.palette.contains(profile.colorName)
                ? profile.colorName : AppDataMigration.palette[0])
        object.setValue(adopted.colorName, forKey: "colorName")
        object.setValue(adopted.id, forKey: "id")
        object.setValue(adopted.name, forKey: "name")
        object.setValue(adopted.relationship.rawValue, forKey: "relationship")
        object.setValue(adopted.createdAt, forKey: "createdAt")
        try save()
        return adopted
    }

    /// Renames a profile.
    public func renameProfile(_ id: UUID, to name: String) throws {
        let name = try Profile.validatedName(name)
        if try profiles().contains(where: { $0.id != id && $0.name.caseInsensitiveCompare(name) == .orderedSame }) {
            throw MedsError("There is already a profile named \(name).")
        }
        try profileObject(id).setValue(name, forKey: "name")
        try save()
    }

    func profileObject(_ id: UUID) throws -> NSManagedObject {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Profile")
        request.predicate = NSPredicate(format: "id == %@", id as CVarArg)
        request.fetchLimit = 1
        guard let object = try context.fetch(request).first else { throw MedsError("No profile \(id.uuidString).") }
        return object
    }

    // MARK: Notes

    /// The profile's note on a medication ("" when there is none).
    public func note(profile: UUID, medication: String) throws -> String {
        try noteObject(profile: profile, medication: medication)?.value(forKey: "text") as? String ?? ""
    }

    func noteObject(profile: UUID, medication: String) throws -> NSManagedObject? {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
        request.predicate = NSPredicate(
            format: "profile.id == %@ AND medicationIdentifier == %@", profile as CVarArg, medication)
        request.fetchLimit = 1
        return try context.fetch(request).first
    }

    /// Sets the profile's note on a medication (an empty note removes it).
    public func setNote(_ text: String, profile: UUID, medication: String) throws {
        let existing = try noteObject(profile: profile, medication: medication)
        if text.isEmpty {
            if let existing { context.delete(existing) }
        } else {
            let note = existing ?? NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            note.setValue(medication, forKey: "medicationIdentifier")
            note.setValue(text, forKey: "text")
            note.setValue(Date(), forKey: "updatedAt")
            note.setValue(try profileObject(profile), forKey: "profile")
        }
        try save()
    }

    // MARK: Preferences

    /// The preferences (defaults until changed).
    public func preferences() throws -> Preferences {
        guard let object = try preferencesObject() else { return Preferences() }
        // The attribute is required, with "mL" as its default (a V2 store's row gets it when migrated): nil is not
        // expected, and reads as that default.
        let volume = object.value(forKey: "volumeUnit") as? String ?? VolumeUnit.milliliters.rawValue
        guard let volumeUnit = VolumeUnit(rawValue: volume) else {
            throw MedsError("The stored volume unit '\(volume)' is not one Meds knows (mL or tsp).")
        }
        return Preferences(
            timeZoneIdentifier: object.value(forKey: "timeZoneIdentifier") as? String,
            reminderLeadMinutes: (object.value(forKey: "reminderLeadMinutes") as? NSNumber)?.intValue ?? 0,
            selectedProfileID: object.value(forKey: "selectedProfileID") as? UUID, volumeUnit: volumeUnit)
    }

    func preferencesObject() throws -> NSManagedObject? {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Preferences")
        request.fetchLimit = 1
        return try context.fetch(request).first
    }

    /// Stores the preferences, after checking them.
    public func setPreferences(_ preferences: Preferences) throws {
        try preferences.validate()
        let object =
            try preferencesObject() ?? NSEntityDescription.insertNewObject(forEntityName: "Preferences", into: context)
        object.setValue(preferences.timeZoneIdentifier, forKey: "timeZoneIdentifier")
        object.setValue(Int16(preferences.reminderLeadMinutes), forKey: "reminderLeadMinutes")
        object.setValue(preferences.selectedProfileID, forKey: "selectedProfileID")
        object.setValue(preferences.volumeUnit.rawValue, forKey: "volumeUnit")
        try save()
    }

    /// Saves, or throws with every change rolled back, so a failed save leaves the context as the store is.
    func save() throws {
        guard context.hasChanges else { return }
        do {
            try context.save()
        } catch {
            context.rollback()
            throw MedsError("Could not save the app's data: \(error.localizedDescription). Nothing was changed.")
        }
    }
}

/// The person's settings.
public struct Preferences: Hashable, Sendable {
    /// The time zone schedules are read in (nil: the machine's).
    public var timeZoneIdentifier: String?
    /// How many minutes before a dose is due its reminder shows (0 ... 120).
    public var reminderLeadMinutes: Int
    /// The profile the app shows.
    public var selectedProfileID: UUID?
    /// The unit a liquid's doses are shown and typed in (Settings ▸ Units).
    public var volumeUnit: VolumeUnit

    /// Creates preferences.
    public init(
        timeZoneIdentifier: String? = nil, reminderLeadMinutes: Int = 0, selectedProfileID: UUID? = nil,
        volumeUnit: VolumeUnit = .milliliters
    ) {
        self.timeZoneIdentifier = timeZoneIdentifier
        self.reminderLeadMinutes = reminderLeadMinutes
        self.selectedProfileID = selectedProfileID
        self.volumeUnit = volumeUnit
    }

    /// The time zone schedules are read in.
    public var timeZone: TimeZone { timeZoneIdentifier.flatMap(TimeZone.init(identifier:)) ?? .current }

    /// Throws naming the setting that is out of range.
    public func validate() throws {
        if let id = timeZoneIdentifier, TimeZone(identifier: id) == nil {
            throw MedsError("\(id) is not a time zone this machine knows.")
        }
        guard (0...120).contains(reminderLeadMinutes) else {
            throw MedsError("The reminder lead time must be 0 to 120 minutes, not \(reminderLeadMinutes).")
        }
    }
}
