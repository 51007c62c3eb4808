import Foundation

/// A specific version of a model, for staged migration: the model (or where to find it) and its
/// version checksum. Apple's initializers do not throw; here a reference whose model cannot be found,
/// or whose checksum does not match its model, keeps the error and the migration that uses it throws
/// it (`NSMigrationError`, naming both checksums).
open class NSManagedObjectModelReference: NSObject, @unchecked Sendable {
    /// The checksum the reference was created with.
    public let versionChecksum: String
    private let model: NSManagedObjectModel?
    private let problem: String?

    /// A reference to a model in memory.
    public init(model: NSManagedObjectModel, versionChecksum: String) {
        self.versionChecksum = versionChecksum
        self.model = model
        self.problem = Self.check(model, versionChecksum, what: "the model")
        super.init()
    }

    /// A reference to the model files at a URL (`.xcdatamodeld`, `.xcdatamodel` or `contents`).
    public init(fileURL: URL, versionChecksum: String) {
        self.versionChecksum = versionChecksum
        do {
            let model = try NSManagedObjectModel.load(contentsOf: fileURL)
            self.model = model
            self.problem = Self.check(model, versionChecksum, what: "the model at \(fileURL.path)")
        } catch {
            self.model = nil
            self.problem = "No model could be loaded from \(fileURL.path): \(error.localizedDescription)"
        }
        super.init()
    }

    /// A reference to the model named `modelName` in a bundle (the main bundle when nil): a
    /// `<name>.xcdatamodeld` or `<name>.xcdatamodel` in the bundle's resources, or a version of that
    /// name inside any `.xcdatamodeld` there.
    public init(name modelName: String, in bundle: Bundle?, versionChecksum: String) {
        self.versionChecksum = versionChecksum
        let found = ModelLocator.models(in: bundle ?? .main).first { $0.name == modelName }
        self.model = found?.model
        self.problem = found.map { Self.check($0.model, versionChecksum, what: "model \(modelName)") }
            ?? "No model named \(modelName) in \(ModelLocator.describe(bundle ?? .main))."
        super.init()
    }

    /// The seed's spelling of `init(name:in:versionChecksum:)`.
    public convenience init(modelName: String, in bundle: Bundle?, versionChecksum: String) {
        self.init(name: modelName, in: bundle, versionChecksum: versionChecksum)
    }

    /// A reference to the model in a bundle whose entities have these version hashes
    /// (`[entity name: Data]`, as in a store's `NSStoreModelVersionHashes`).
    public init(entityVersionHashes versionHash: [AnyHashable: Any], in bundle: Bundle?, versionChecksum: String) {
        self.versionChecksum = versionChecksum
        var hashes: [String: Data] = [:]
        for (key, value) in versionHash { if let name = key.base as? String, let data = value as? Data { hashes[name] = data } }
        let found = ModelLocator.models(in: bundle ?? .main).first { $0.model.entityVersionHashesByName == hashes }
        self.model = found?.model
        self.problem = found.map { Self.check($0.model, versionChecksum, what: "model \($0.name)") }
            ?? "No model in \(ModelLocator.describe(bundle ?? .main)) has the given entity version hashes."
        super.init()
    }

    /// Apple's Objective-C-derived spelling of `init(entityVersionHashes:in:versionChecksum:)`.
    public convenience init(entityVersionHashes versionHash: [AnyHashable: Any], inBundle bundle: Bundle?, versionChecksum: String) {
        self.init(entityVersionHashes: versionHash, in: bundle, versionChecksum: versionChecksum)
    }

    /// The model the reference stands for. Traps, as Apple's raises, when it could not be resolved;
    /// staged migration checks `resolve()` first and reports the problem as an error instead.
    open var resolvedModel: NSManagedObjectModel {
        guard let model, problem == nil else { fatalError(problem ?? "Unresolved model reference") }
        return model
    }

    /// The model, or an error saying why it cannot be used.
    func resolve() throws -> NSManagedObjectModel {
        if let problem { throw coreDataError(NSMigrationError, problem) }
        return model!
    }

    private static func check(_ model: NSManagedObjectModel, _ checksum: String, what: String) -> String? {
        let actual = model.versionChecksum
        return actual == checksum ? nil
            : "The version checksum \(checksum) does not match \(what), whose versionChecksum is \(actual)."
    }
}

/// Finds the models a bundle holds: every `.xcdatamodeld` version and every `.xcdatamodel`. For the
/// main bundle also the SwiftPM resource bundles beside the executable and the current directory.
enum ModelLocator {
    static func roots(_ bundle: Bundle) -> [URL] {
        var roots = [bundle.resourceURL, bundle.bundleURL].compactMap { $0 }
        if bundle === Bundle.main {
            // SwiftPM puts an executable's resources in `<Package>_<Target>.resources` next to it.
            let folder = bundle.bundleURL
            for item in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where item.hasSuffix(".resources") {
                roots.append(folder.appendingPathComponent(item))
            }
            roots.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        }
        var seen = Set<String>()
        return roots.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    static func describe(_ bundle: Bundle) -> String { roots(bundle).map(\.path).joined(separator: ", ") }

    static func models(in bundle: Bundle) -> [(name: String, model: NSManagedObjectModel)] {
        var result: [(String, NSManagedObjectModel)] = []
        for root in roots(bundle) {
            guard let items = try? FileManager.default.contentsOfDirectory(atPath: root.path) else { continue }
            for item in items.sorted() {
                let url = root.appendingPathComponent(item)
                if item.hasSuffix(".xcdatamodel"), let model = try? NSManagedObjectModel.load(contentsOf: url) {
                    result.append((url.deletingPathExtension().lastPathComponent, model))
                } else if item.hasSuffix(".xcdatamodeld") {
                    if let model = try? NSManagedObjectModel.load(contentsOf: url) {
                        result.append((url.deletingPathExtension().lastPathComponent, model))
                    }
                    for version in (try? XcodeModelLoader.versions(in: url)) ?? [] {
                        if let model = try? NSManagedObjectModel.load(contentsOf: url.appendingPathComponent(version)) {
                            result.append(((version as NSString).deletingPathExtension, model))
                        }
                    }
                }
            }
        }
        return result
    }
}

/// Foundation's Objective-C name for `Bundle`, so code written against `NSBundle.mainBundle` builds.
public typealias NSBundle = Bundle

extension Bundle {
    /// The main bundle (Objective-C spelling of `Bundle.main`).
    public static var mainBundle: Bundle { .main }
}
