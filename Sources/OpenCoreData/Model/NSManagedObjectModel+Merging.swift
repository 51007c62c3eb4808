import Foundation

extension NSManagedObjectModel {
    /// A model made of the entities (and configurations) of `models`, or nil when `models` is nil or two
    /// of them have an entity of the same name (Apple's `+modelByMergingModels:`).
    ///
    /// The merged model holds copies: the given models and their entities are left as they are.
    public convenience init?(byMerging models: [NSManagedObjectModel]?) {
        guard let models else { return nil }
        var seen = Set<String>()
        var entities: [NSEntityDescription] = []
        var configurations: [String: [NSEntityDescription]] = [:]
        var identifiers: Set<AnyHashable> = []
        for model in models {
            let copy = model.copyModel()
            for entity in copy.entities {
                guard let name = entity.name, seen.insert(name).inserted else { return nil }
                entities.append(entity)
            }
            for configuration in copy.configurations {
                configurations[configuration, default: []] += copy.entities(forConfigurationName: configuration) ?? []
            }
            identifiers.formUnion(copy.versionIdentifiers)
        }
        self.init()
        self.entities = entities
        for (name, members) in configurations { setEntities(members, forConfigurationName: name) }
        versionIdentifiers = identifiers
    }

    /// The models among `models` whose entities were all written into a store with `metadata` merged into one
    /// model, when that model is the store's whole model (its entity hashes are exactly the store's); nil
    /// otherwise (Apple's `+modelByMergingModels:forStoreMetadata:`).
    public convenience init?(byMerging models: [NSManagedObjectModel], forStoreMetadata metadata: [String: Any]) {
        guard let merged = NSManagedObjectModel.merging(models, forStoreMetadata: metadata) else { return nil }
        self.init(byMerging: [merged])
    }

    /// A model merged from the current version of every model in `bundles` (the main bundle when nil), or nil
    /// when there is none or two have an entity of the same name.
    ///
    /// On Linux a bundle's models are the Xcode model files in its resource folder (`.xcdatamodeld`, each
    /// in its current version, and `.xcdatamodel`); for the main bundle the current directory is searched
    /// too, as `NSPersistentContainer(name:)` does. Compiled models (`.momd`, `.mom`) can't be read yet
    /// (docs/CORE-DATA-FORMATS.md) and are not found.
    public class func mergedModel(from bundles: [Bundle]?) -> NSManagedObjectModel? {
        let models = ModelFiles.folders(for: bundles).flatMap { ModelFiles.currentVersions(inFolder: $0) }
        guard !models.isEmpty else { return nil }
        return NSManagedObjectModel(byMerging: models)
    }

    /// The model a store with `metadata` was written with, merged from the model versions in `bundles` (the
    /// main bundle when nil): every version of every model there, old ones included, is compared by its
    /// entity version hashes with the store's, and those whose entities the store has are merged. Nil when
    /// they don't make up the store's whole model.
    public class func mergedModel(
        from bundles: [Bundle]?, forStoreMetadata metadata: [String: Any]
    ) -> NSManagedObjectModel? {
        let versions = ModelFiles.folders(for: bundles).flatMap { ModelFiles.allVersions(inFolder: $0) }
        // A version that doesn't load can't be the store's model: it is left out, as Apple's search leaves
        // out what it can't read (the migration search reports such files by name).
        return merging(versions.compactMap { try? $0.model.get() }, forStoreMetadata: metadata)
    }

    /// Merges the models of `models` whose entity hashes are all among the store's (one of each set of equal
    /// versions), if together they are exactly the store's model.
    static func merging(
        _ models: [NSManagedObjectModel], forStoreMetadata metadata: [String: Any]
    ) -> NSManagedObjectModel? {
        guard let stored = metadata[NSStoreModelVersionHashesKey] as? [String: Data] else { return nil }
        var chosen: [NSManagedObjectModel] = []
        var covered: [String: Data] = [:]
        for model in models {
            let hashes = model.entityVersionHashesByName
            guard !hashes.isEmpty, hashes.allSatisfy({ stored[$0.key] == $0.value }) else { continue }
            // A version sharing an entity with one already chosen (an equal version, or an overlapping one) adds
            // nothing that can be merged: merging refuses two entities of one name.
            guard hashes.keys.allSatisfy({ covered[$0] == nil }) else { continue }
            chosen.append(model)
            covered.merge(hashes) { _, new in new }
        }
        guard covered == stored else { return nil }
        return chosen.count == 1 ? chosen[0] : NSManagedObjectModel(byMerging: chosen)
    }
}

/// Finds the Xcode model files of bundles and model folders.
enum ModelFiles {
    /// One model version found on disk: where it is, and the model or why it didn't load.
    struct Version {
        let url: URL
        let model: Result<NSManagedObjectModel, any Error>
    }

    /// The folders holding the models of `bundles` (for nil, the main bundle and the current directory).
    static func folders(for bundles: [Bundle]?) -> [URL] {
        var urls: [URL]
        if let bundles {
            urls = bundles.map { $0.resourceURL ?? $0.bundleURL }
        } else {
            urls = [
                Bundle.main.resourceURL ?? Bundle.main.bundleURL,
                URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            ]
        }
        var seen = Set<String>()
        return urls.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    /// The model files directly inside `folder`, sorted by name.
    private static func modelFiles(inFolder folder: URL) -> [URL] {
        // A folder that can't be listed (missing, unreadable) has no models in it; that is the answer.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().filter { $0.hasSuffix(".xcdatamodeld") || $0.hasSuffix(".xcdatamodel") }
            .map { folder.appendingPathComponent($0) }
    }

    /// The current version of each model in `folder` that loads.
    static func currentVersions(inFolder folder: URL) -> [NSManagedObjectModel] {
        // A model file that doesn't load is not a model of the bundle (Apple's lookup answers nil, not an error).
        modelFiles(inFolder: folder).compactMap { try? NSManagedObjectModel.load(contentsOf: $0) }
    }

    /// Every version of every model in `folder`.
    static func allVersions(inFolder folder: URL) -> [Version] {
        modelFiles(inFolder: folder).flatMap { versions(of: $0) }
    }

    /// Every version of the model at `url`: each `.xcdatamodel` of a `.xcdatamodeld`, or the one at `url`.
    static func versions(of url: URL) -> [Version] {
        guard url.pathExtension == "xcdatamodeld" else {
            return [Version(url: url, model: Result { try NSManagedObjectModel.load(contentsOf: url) })]
        }
        do {
            return try XcodeModelLoader.versions(in: url).map { name in
                let version = url.appendingPathComponent(name)
                return Version(url: version, model: Result { try NSManagedObjectModel.load(contentsOf: version) })
            }
        } catch {
            return [Version(url: url, model: .failure(error))]
        }
    }

    /// The other versions of the model `model` was loaded from: the versions of its `.xcdatamodeld` (whether
    /// it was loaded from the `.xcdatamodeld` or from one version inside it).
    static func siblingVersions(of model: NSManagedObjectModel) -> [Version] {
        guard var url = model.sourceURL?.standardizedFileURL else { return [] }
        if url.lastPathComponent == "contents" { url.deleteLastPathComponent() }
        if url.pathExtension == "xcdatamodel", url.deletingLastPathComponent().pathExtension == "xcdatamodeld" {
            url.deleteLastPathComponent()
        }
        guard url.pathExtension == "xcdatamodeld" else { return [] }
        return versions(of: url)
    }
}
