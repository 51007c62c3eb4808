import OpenHealthKit
import SwiftUIWeb

extension View {
    /// Asks for permission to share and read health data types whenever `trigger` changes, then calls
    /// `completion` with `.success(true)` once the request was handled (whatever the person chose: read access is
    /// never disclosed) or with the error.
    ///
    /// Who answers depends on the store: a store created with a ``HealthAccessPrompt`` shows the person a sheet in
    /// this window; a store served by orchard-healthd gets the person's decisions from the daemon's registry; any
    /// other in-process store asks its authorization handler.
    public func healthDataAccessRequest(
        store: HKHealthStore, shareTypes: Set<HKSampleType>, readTypes: Set<HKObjectType>? = nil,
        trigger: some Equatable, completion: @escaping (Result<Bool, any Error>) -> Void
    ) -> some View {
        HealthAccessRequestView(
            content: self, store: store, trigger: trigger,
            request: { try await store.requestAuthorization(toShare: shareTypes, read: readTypes ?? []) },
            completion: completion)
    }

    /// Asks which objects of a per-object type (medications: `HKObjectType.userAnnotatedMedicationType()`) the app
    /// may read, whenever `trigger` changes; `predicate` narrows the objects offered. `completion` is called as for
    /// ``healthDataAccessRequest(store:shareTypes:readTypes:trigger:completion:)``.
    public func healthDataAccessRequest(
        store: HKHealthStore, objectType: HKObjectType, predicate: OpenCoreData.NSPredicate? = nil,
        trigger: some Equatable, completion: @escaping (Result<Bool, any Error>) -> Void
    ) -> some View {
        HealthAccessRequestView(
            content: self, store: store, trigger: trigger,
            request: { try await store.requestPerObjectReadAuthorization(for: objectType, predicate: predicate) },
            completion: completion)
    }
}

/// The view behind `healthDataAccessRequest`: runs the request when the trigger changes, and shows the prompt's
/// sheet while the store's ``HealthAccessPrompt`` (if it has one) waits for the person.
struct HealthAccessRequestView<Content: View, Trigger: Equatable>: View {
    let content: Content
    let store: HKHealthStore
    let trigger: Trigger
    let request: @MainActor () async throws -> Void
    let completion: (Result<Bool, any Error>) -> Void
    /// Whether this view's request is running (so, of several requests on one prompt, only the one asking shows
    /// the sheet).
    @State private var asking = false

    var body: some View {
        let prompted = content.onChange(of: trigger) {
            asking = true
            Task { @MainActor in
                do {
                    try await request()
                    asking = false
                    completion(.success(true))
                } catch {
                    asking = false
                    completion(.failure(error))
                }
            }
        }
        if let prompt = store.authorizationHandler as? HealthAccessPrompt {
            prompted.modifier(HealthAccessSheet(prompt: prompt, asking: asking))
        } else {
            prompted
        }
    }
}
