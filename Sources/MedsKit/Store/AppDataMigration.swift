import Foundation
import OpenCoreData

/// The app data model's versions and the staged migration between them, as an Apple app ships them: each version
/// a model file with the checksum Xcode shows for it (`swift run coredata-tool checksum <model>` prints it), and
/// one stage per step.
///
/// - V1 (the first release): profiles, notes, preferences.
/// - V2: a profile has a colour (`colorName`). A custom stage gives the profiles a V1 store already holds
///   distinct colours, in the order they were made, rather than all the default.
/// - V3: the preferences have a volume unit for liquid doses (`volumeUnit`, default "mL"): a lightweight stage.
public enum AppDataMigration {
    /// V1's checksum.
    public static let v1Checksum = "QRf2HbSW+ptaAKAgDXBZZD1pwZLV8QvRudr7Pnxvys0="
    /// V2's checksum.
    public static let v2Checksum = "ovVRuJgibldGxmpWAVYVSxMdq6nn/CBrcvheJFuuNt0="
    /// V3's checksum.
    public static let v3Checksum = "cNtrZDHgHLf/rf1Efs+HvBUylnUqf6K4MKN7sxcM1gA="
    /// The colours profiles take, in turn.
    public static let palette = ["blue", "green", "orange", "purple", "pink", "teal"]

    /// A model version, loaded from the file the app ships.
    public static func model(_ name: String) throws -> NSManagedObjectModel {
        guard let url = Bundle.module.url(forResource: name, withExtension: "xcdatamodel"),
            let model = NSManagedObjectModel(contentsOf: url)
        else { throw MedsError("The app's data model \(name).xcdatamodel is missing from its resources.") }
        return model
    }

    /// The current model.
    public static func currentModel() throws -> NSManagedObjectModel { try model("MedsV3") }

    /// The stages from V1 to the current model.
    public static func stages() throws -> [NSMigrationStage] {
        let v1 = NSManagedObjectModelReference(model: try model("MedsV1"), versionChecksum: v1Checksum)
        let v2 = NSManagedObjectModelReference(model: try model("MedsV2"), versionChecksum: v2Checksum)
        let colours = NSCustomMigrationStage(migratingFrom: v1, to: v2)
        colours.label = "V1 to V2: profiles get colours"
        colours.didMigrateHandler = { manager, _ in
            guard let container = manager.container else {
                throw MedsError("The migration to V2 has no container to give profiles their colours in.")
            }
            let context = container.newBackgroundContext()
            try context.performAndWait {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Profile")
                request.sortDescriptors = [NSSortDescriptor(key: "createdAt", ascending: true)]
                for (index, profile) in try context.fetch(request).enumerated() {
                    profile.setValue(palette[index % palette.count], forKey: "colorName")
                }
                try context.save()
            }
        }
        let units = NSLightweightMigrationStage([v3Checksum])
        units.label = "V2 to V3: a volume unit for liquid doses"
        return [colours, units]
    }
}
