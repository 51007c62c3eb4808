import Foundation

/// Finds the model a store was written with, as Core Data finds a lightweight migration's source: among the
/// model versions available, by the store's entity version hashes, and (for a store whose hashes Orchard
/// doesn't reproduce, such as one Apple's Core Data wrote with a model feature whose hash is unknown) by
/// the store's schema.
///
/// The versions searched, in order: the model recorded in the store (Orchard's `Z_MODELCACHE`), the other
/// versions of the `.xcdatamodeld` the app's model came from, the models of the app's coordinators, and the
/// model versions in the main bundle (`NSManagedObjectModel.mergedModel(from:forStoreMetadata:)`).
struct SourceModelSearch {
    /// A model version that could be the store's, and where it was found.
    struct Candidate {
        let model: NSManagedObjectModel
        let origin: String
    }

    /// How the source was recognised.
    enum Match {
        case hashes(NSManagedObjectModel)
        case layout(NSManagedObjectModel)

        var model: NSManagedObjectModel {
            switch self {
            case .hashes(let model), .layout(let model): return model
            }
        }
    }

    let metadata: [String: Any]
    let layout: StoreLayout
    private(set) var candidates: [Candidate] = []
    /// Model files that failed to load, with why (named in the error when nothing matches).
    private(set) var unreadable: [String] = []

    init(metadata: [String: Any], layout: StoreLayout, destination: NSManagedObjectModel, cached: NSManagedObjectModel?)
    {
        self.metadata = metadata
        self.layout = layout
        var seen: [NSManagedObjectModel] = [destination]
        func add(_ model: NSManagedObjectModel, _ origin: String) {
            // A model Core Data would refuse (no destination for a relationship, two entities of one name)
            // can't be a store's version, and has no layout to compare: it is reported, not searched.
            do { try model.validate() } catch {
                unreadable.append("\(origin): \(error.localizedDescription)")
                return
            }
            guard !seen.contains(where: { $0 === model || $0.versionChecksum == model.versionChecksum }) else { return }
            seen.append(model)
            candidates.append(Candidate(model: model, origin: origin))
        }
        func add(_ versions: [ModelFiles.Version]) {
            for version in versions {
                switch version.model {
                case .success(let model): add(model, version.url.path)
                case .failure(let error): unreadable.append("\(version.url.path): \(error.localizedDescription)")
                }
            }
        }
        if let cached { add(cached, "the store's model cache") }
        add(ModelFiles.siblingVersions(of: destination))
        for model in ModelRegistry.shared.liveModels() { add(model, "a coordinator's model") }
        add(ModelFiles.folders(for: nil).flatMap { ModelFiles.allVersions(inFolder: $0) })
    }

    /// Whether the store's hashes are `model`'s (entity by entity, or by checksum for a store with only that).
    static func hashesMatch(_ model: NSManagedObjectModel, metadata: [String: Any]) -> Bool {
        if metadata[NSStoreModelVersionHashesKey] != nil {
            return model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata)
        }
        return StoreMetadataFile.checksum(metadata) == model.versionChecksum
    }

    /// Whether the store's schema is the one Orchard lays out for `model`.
    func layoutMatches(_ model: NSManagedObjectModel) -> Bool {
        layout.differences(from: StoreLayout.expected(for: StoreSchema(model: model))).isEmpty
    }

    /// The first candidate whose hashes are the store's.
    func byHashes() -> Candidate? {
        candidates.first { Self.hashesMatch($0.model, metadata: metadata) }
    }

    /// The first candidate whose layout is the store's.
    func byLayout() -> Candidate? {
        candidates.first { layoutMatches($0.model) }
    }

    /// Why no version matched: what was searched, and how the app's model differs from the store.
    func noMatchReport(destination: NSManagedObjectModel) -> String {
        let differences = layout.differences(from: StoreLayout.expected(for: StoreSchema(model: destination)))
        var report =
            "No model version matches the store's hashes or its schema. The app's model differs from the store: "
            + differences.prefix(8).joined(separator: "; ") + (differences.count > 8 ? "; ..." : "") + "."
        report +=
            candidates.isEmpty
            ? " No other model version was found (searched: the store's model cache, the model's .xcdatamodeld, "
                + "the coordinators' models, the main bundle)."
            : " Also tried: " + candidates.map(\.origin).joined(separator: ", ") + "."
        if !unreadable.isEmpty { report += " Could not read: " + unreadable.joined(separator: "; ") + "." }
        return report
    }
}
