@testable import OpenHealthKit

/// A fresh store file shared by the Health app's editor and one app, with a host handler that
/// shares every medication except those listed in `withheld`, and every requested type.
final class StoreFixture: @unchecked Sendable {
    let directory: URL
    let url: URL
    let handler: HKClosureAuthorizationHandler
    let editor: HKHealthAppEditor
    let catalog = MedicationCatalog.bundled

    init(withheld: Set<String> = []) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-\(UUID().uuidString)")
        url = directory.appendingPathComponent("Health.sqlite")
        handler = HKClosureAuthorizationHandler(
            medications: { _, offered, _ in Set(offered.map(\.medication.identifier).filter { !withheld.contains($0.identifier) }) },
            types: { _, share, read in (share, read) })
        editor = try HKHealthAppEditor(storeURL: url, authorizationHandler: handler)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func app(_ bundle: String = "com.example.app") throws -> HKHealthStore {
        try HKHealthStore(storeURL: url, bundleIdentifier: bundle, authorizationHandler: handler)
    }

    func concept(_ rxcui: String) -> HKMedicationConcept { catalog.entry(rxcui: rxcui)!.concept }
}

func date(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 12, _ mi: Int = 0) -> Date { utc(y, mo, d, h, mi) }
