import OpenCoreData

/// The host's side of authorization (on Apple platforms, the sheets the system shows): it decides
/// which medications and which types an app may read or share. OpenHealthKit stores the decisions
/// and enforces them; it never tells the app what was denied.
public protocol HKAuthorizationHandler: Sendable {
    /// Which of `medications` the app may read. `current` holds what it may read now.
    func perObjectReadAuthorization(bundleIdentifier: String, medications: [HKUserAnnotatedMedication],
                                    current: Set<String>) async -> Set<HKHealthConceptIdentifier>
    /// Which of the requested types the app may share (write) and read.
    func typeAuthorization(bundleIdentifier: String, toShare: Set<HKSampleType>,
                           read: Set<HKObjectType>) async -> (share: Set<HKSampleType>, read: Set<HKObjectType>)
}

/// A handler that grants nothing: apps see no data until a real handler is installed.
public struct HKDenyAllAuthorizationHandler: HKAuthorizationHandler {
    /// Creates the handler.
    public init() {}
    /// Grants no medication beyond what is already granted.
    public func perObjectReadAuthorization(bundleIdentifier: String, medications: [HKUserAnnotatedMedication],
                                           current: Set<String>) async -> Set<HKHealthConceptIdentifier> {
        Set(medications.map(\.medication.identifier).filter { current.contains($0.identifier) })
    }
    /// Grants no type.
    public func typeAuthorization(bundleIdentifier: String, toShare: Set<HKSampleType>,
                                  read: Set<HKObjectType>) async -> (share: Set<HKSampleType>, read: Set<HKObjectType>) {
        ([], [])
    }
}

/// A handler made of two closures (handy for hosts and tests).
public struct HKClosureAuthorizationHandler: HKAuthorizationHandler {
    /// Decides per-object medication access.
    public let medications: @Sendable (String, [HKUserAnnotatedMedication], Set<String>) async -> Set<HKHealthConceptIdentifier>
    /// Decides type access.
    public let types: @Sendable (String, Set<HKSampleType>, Set<HKObjectType>) async -> (share: Set<HKSampleType>, read: Set<HKObjectType>)

    /// Creates a handler from closures.
    public init(medications: @escaping @Sendable (String, [HKUserAnnotatedMedication], Set<String>) async -> Set<HKHealthConceptIdentifier>,
                types: @escaping @Sendable (String, Set<HKSampleType>, Set<HKObjectType>) async -> (share: Set<HKSampleType>, read: Set<HKObjectType>)) {
        self.medications = medications
        self.types = types
    }

    /// Calls `medications`.
    public func perObjectReadAuthorization(bundleIdentifier: String, medications list: [HKUserAnnotatedMedication],
                                           current: Set<String>) async -> Set<HKHealthConceptIdentifier> {
        await medications(bundleIdentifier, list, current)
    }

    /// Calls `types`.
    public func typeAuthorization(bundleIdentifier: String, toShare: Set<HKSampleType>,
                                  read: Set<HKObjectType>) async -> (share: Set<HKSampleType>, read: Set<HKObjectType>) {
        await types(bundleIdentifier, toShare, read)
    }
}

/// Whether the app may share (write) a type. Read access is never disclosed.
public enum HKAuthorizationStatus: Int, Sendable {
    /// Not asked yet.
    case notDetermined = 0
    /// Sharing denied.
    case sharingDenied = 1
    /// Sharing authorized.
    case sharingAuthorized = 2
}
