import Foundation
import OpenCoreData

/// A dose event's row in the health store, with typed accessors: reading a long history maps every
/// record, and typed properties are read straight from their slots (no key lookup, no cast).
final class DoseEventRecord: NSManagedObject {
    @Managed var uuid: String?
    @Managed var seq: Int64
    @Managed var startDate: Date?
    @Managed var metadata: Data?
    @Managed var medicationConceptIdentifier: String?
    @Managed var logStatus: Int16
    @Managed var scheduledDate: Date?
    @Managed var scheduledDoseQuantity: Double?
    @Managed var doseQuantity: Double?
    @Managed var unit: String?
}
