import Foundation
import OpenCoreData

/// The seed's aircraft, with its `colorScheme` composite; indexed by primary colour and by hours.
final class Aircraft: NSManagedObject {
    @Managed var tailNumber: String?
    @Managed var aircraftType: String?
    @Managed var aircraftClass: String?
    @Managed var aircraftCategory: String?
    @Managed var seats: Int32
    @Managed var hours: Double
    @Managed var colorScheme: [String: Any]?
}

/// An owner of parts: the to-many side of the relationship workloads.
final class Owner: NSManagedObject {
    @Managed var name: String?
    @Managed var parts: NSSet?
}

/// A part: the to-one side.
final class Part: NSManagedObject {
    @Managed var label: String?
    @Managed var weight: Double
    @Managed var owner: Owner?
}

/// The benchmark's model: Aircraft (the seed's), Owner ⇄ Part (10 parts an owner in the workloads).
func benchmarkModel() -> NSManagedObjectModel {
    let aircraft = NSEntityDescription(name: "Aircraft")
    aircraft.managedObjectClassName = NSStringFromClass(Aircraft.self)
    aircraft.properties = [
        NSAttributeDescription(name: "tailNumber", type: .stringAttributeType),
        NSAttributeDescription(name: "aircraftType", type: .stringAttributeType),
        NSAttributeDescription(name: "aircraftClass", type: .stringAttributeType),
        NSAttributeDescription(name: "aircraftCategory", type: .stringAttributeType),
        NSAttributeDescription(name: "seats", type: .integer32AttributeType, optional: false, defaultValue: Int32(0)),
        NSAttributeDescription(name: "hours", type: .doubleAttributeType, optional: false, defaultValue: 0.0),
        NSCompositeAttributeDescription(
            name: "colorScheme",
            elements: [
                NSAttributeDescription(name: "primary", type: .stringAttributeType),
                NSAttributeDescription(name: "secondary", type: .stringAttributeType),
                NSAttributeDescription(name: "tertiary", type: .stringAttributeType),
            ]),
    ]
    aircraft.indexes = [
        NSFetchIndexDescription(
            name: "byPrimary", elements: [NSFetchIndexElementDescription(keyPath: "colorScheme.primary")]),
        NSFetchIndexDescription(name: "byHours", elements: [NSFetchIndexElementDescription(keyPath: "hours")]),
    ]
    let owner = NSEntityDescription(name: "Owner")
    owner.managedObjectClassName = NSStringFromClass(Owner.self)
    let part = NSEntityDescription(name: "Part")
    part.managedObjectClassName = NSStringFromClass(Part.self)
    let parts = NSRelationshipDescription(
        name: "parts", destination: part, toMany: true, deleteRule: .cascadeDeleteRule)
    let partOwner = NSRelationshipDescription(name: "owner", destination: owner)
    parts.inverseRelationship = partOwner
    partOwner.inverseRelationship = parts
    owner.properties = [NSAttributeDescription(name: "name", type: .stringAttributeType), parts]
    part.properties = [
        NSAttributeDescription(name: "label", type: .stringAttributeType),
        NSAttributeDescription(name: "weight", type: .doubleAttributeType, optional: false, defaultValue: 0.0),
        partOwner,
    ]
    let model = NSManagedObjectModel()
    model.entities = [aircraft, owner, part]
    return model
}

let colors = ["white", "blue", "orange", "red", "gray", "green", "gold", "yellow", "black", "none"]

/// The values row `i` gets, on every side.
struct AircraftValues {
    let tailNumber: String, aircraftType = "C172", aircraftClass = "ASEL", aircraftCategory = "Airplane"
    let seats: Int32 = 4
    let hours: Double
    let primary: String, secondary: String, tertiary: String

    init(_ i: Int) {
        tailNumber = "N\(i)"
        hours = Double(i) * 0.5
        primary = colors[i % 10]
        secondary = colors[(i / 10) % 10]
        tertiary = colors[(i / 100) % 10]
    }
}

/// Opens a container on an SQLite store file (created with the model's schema if new).
func openContainer(_ url: URL) -> NSPersistentContainer {
    let container = NSPersistentContainer(name: "Bench", managedObjectModel: benchmarkModel())
    container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: url)]
    container.loadPersistentStores { _, error in if let error { fatalError("cannot open \(url.path): \(error)") } }
    return container
}

/// Inserts aircraft `range` into the context and saves.
func insertAircraft(_ context: NSManagedObjectContext, range: Range<Int>) throws {
    for i in range {
        let v = AircraftValues(i)
        let a = Aircraft(context: context)
        a.tailNumber = v.tailNumber
        a.aircraftType = v.aircraftType
        a.aircraftClass = v.aircraftClass
        a.aircraftCategory = v.aircraftCategory
        a.seats = v.seats
        a.hours = v.hours
        a.colorScheme = ["primary": v.primary, "secondary": v.secondary, "tertiary": v.tertiary]
    }
    try context.save()
}

/// The plain attributes (4 strings, 2 numbers) of an object, folded into a checksum.
func readPlain(_ a: Aircraft) -> Double {
    a.hours + Double(a.seats)
        + Double(
            (a.tailNumber?.count ?? 0) + (a.aircraftType?.count ?? 0) + (a.aircraftClass?.count ?? 0)
                + (a.aircraftCategory?.count ?? 0))
}

/// The composite's three elements, folded into a checksum.
func readComposite(_ a: Aircraft) -> Double {
    guard let scheme = a.colorScheme else { return 0 }
    return Double(
        ((scheme["primary"] as? String)?.count ?? 0) + ((scheme["secondary"] as? String)?.count ?? 0)
            + ((scheme["tertiary"] as? String)?.count ?? 0))
}

/// Every column OpenCoreData's fetch reads, in its order, for the raw sides.
let aircraftColumns =
    "Z_PK, Z_ENT, Z_OPT, ZTAILNUMBER, ZAIRCRAFTTYPE, ZAIRCRAFTCLASS, ZAIRCRAFTCATEGORY, ZSEATS, ZHOURS, ZCOLORSCHEME_PRIMARY, ZCOLORSCHEME_SECONDARY, ZCOLORSCHEME_TERTIARY"
