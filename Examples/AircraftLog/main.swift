// The seed's flight log (WWDC23 "What's new in Core Data"): the Aircraft entity with the colorScheme
// composite attribute, adding aircraft and finding them by primary colour. The model comes from an
// Xcode model file (FlightLog.xcdatamodeld), as it would in an Apple app.
import Foundation
import OpenCoreData

enum PaintColor: String, CaseIterable, Identifiable {
    case none, white, blue, orange, red, gray, green, gold, yellow, black
    var id: Self { self }
}

// As in the seed: the class is declared on its own and its properties in an extension, with
// @NSManaged replaced by @Managed.
final class Aircraft: NSManagedObject {}

extension Aircraft {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<Aircraft> {
        return NSFetchRequest<Aircraft>(entityName: "Aircraft")
    }

    @Managed public var aircraftCategory: String?
    @Managed public var aircraftClass: String?
    @Managed public var aircraftType: String?
    @Managed public var colorScheme: [String: Any]?
    @Managed public var photo: Data?
    @Managed public var tailNumber: String?
    @Managed public var logEntries: NSSet?

}

final class LogEntry: NSManagedObject {}

struct FlightLog {
    let viewContext: NSManagedObjectContext

    func addAircraft(tailNumber: String, aircraftType: String, aircraftClass: String, aircraftCategory: String,
                     primaryColor: PaintColor, secondaryColor: PaintColor, tertiaryColor: PaintColor) {
        viewContext.performAndWait {
            let newAircraft = Aircraft(context: viewContext)

            newAircraft.tailNumber = tailNumber
            newAircraft.aircraftType = aircraftType
            newAircraft.aircraftClass = aircraftClass
            newAircraft.aircraftCategory = aircraftCategory

            newAircraft.colorScheme = [
                "primary": primaryColor.rawValue,
                "secondary": secondaryColor.rawValue,
                "tertiary": tertiaryColor.rawValue
            ]

            do {
                try viewContext.save()
            } catch {
                print("Could not save \(tailNumber): \(error.localizedDescription)")
            }
        }
    }

    func findAircraft(with color: String) -> [Aircraft] {
        var found: [Aircraft] = []
        viewContext.performAndWait {
            let fetchRequest = Aircraft.fetchRequest()
            fetchRequest.predicate = NSPredicate(format: "colorScheme.primary == %@", color)
            fetchRequest.sortDescriptors = [NSSortDescriptor(key: "tailNumber", ascending: true)]

            do {
                var fetchedResults: [Aircraft]
                fetchedResults = try viewContext.fetch(fetchRequest)
                found = fetchedResults
            } catch {
                print("Fetch failed: \(error.localizedDescription)")
            }
        }
        return found
    }
}

let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
guard let model = NSManagedObjectModel(contentsOf: here.appendingPathComponent("FlightLog.xcdatamodeld")) else {
    fatalError("FlightLog.xcdatamodeld could not be loaded")
}
let storeURL = FileManager.default.temporaryDirectory.appendingPathComponent("AircraftLog-\(ProcessInfo.processInfo.processIdentifier).sqlite")
let container = NSPersistentContainer(name: "FlightLog", managedObjectModel: model)
container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: storeURL)]
container.loadPersistentStores { description, error in
    if let error { fatalError("Could not load \(description.url?.path ?? "store"): \(error)") }
}
print("Model versionChecksum: \(model.versionChecksum)")
print("Store: \(storeURL.path)")

let log = FlightLog(viewContext: container.viewContext)
log.addAircraft(tailNumber: "N172SP", aircraftType: "C172", aircraftClass: "ASEL", aircraftCategory: "Airplane",
                primaryColor: .white, secondaryColor: .blue, tertiaryColor: .gold)
log.addAircraft(tailNumber: "N28PA", aircraftType: "PA28", aircraftClass: "ASEL", aircraftCategory: "Airplane",
                primaryColor: .red, secondaryColor: .white, tertiaryColor: .black)
log.addAircraft(tailNumber: "N40DA", aircraftType: "DA40", aircraftClass: "ASEL", aircraftCategory: "Airplane",
                primaryColor: .white, secondaryColor: .gray, tertiaryColor: .red)

for color in ["white", "red", "green"] {
    let aircraft = log.findAircraft(with: color)
    let names = aircraft.map { "\($0.tailNumber ?? "?") (\($0.aircraftType ?? "?"), trim \(($0.colorScheme?["secondary"] as? String) ?? "-"))" }
    print("Primary colour \(color): \(names.isEmpty ? "none" : names.joined(separator: ", "))")
}
try? container.persistentStoreCoordinator.destroyPersistentStore(at: storeURL, ofType: NSSQLiteStoreType)
