import OpenCoreData

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Which programs may use the health daemon, under which bundle identifier, and what the person decided each may
/// read and share: a JSON file that only the person (or an administrator) edits.
///
/// ```json
/// { "apps": [
///     { "executable": "/opt/meds/bin/Meds", "bundleIdentifier": "org.orchard.meds",
///       "grants": { "medications": ["rxnorm:313782"], "read": ["HKCategoryTypeIdentifierHeadache"],
///                   "share": ["HKCategoryTypeIdentifierHeadache"] } },
///     { "executable": "/opt/orchard/bin/health", "bundleIdentifier": "com.apple.Health" } ] }
/// ```
///
/// `medications` lists concept identifiers (or bare RxNorm codes), or `"*"` for every medication. The program
/// registered as `com.apple.Health` is the Health app: it sees everything and edits the list and the dose log.
///
/// A registry the daemon cannot trust is refused with the reason: the file and its folder must belong to a
/// trusted owner (root, or the user the daemon runs as) and be writable by no one else, and so must each
/// registered executable and every folder above it, so a client cannot rewrite the registry or replace a
/// registered program with its own.
public struct HealthAppRegistry: Sendable {
    /// One registered program.
    public struct App: Codable, Sendable, Equatable {
        /// The program's absolute path, as the kernel reports a running process's executable.
        public var executable: String
        /// The bundle identifier the program is known by.
        public var bundleIdentifier: String
        /// What the person decided it may read and share (nothing when absent).
        public var grants: Grants?

        /// A registered program.
        public init(executable: String, bundleIdentifier: String, grants: Grants? = nil) {
            self.executable = executable
            self.bundleIdentifier = bundleIdentifier
            self.grants = grants
        }
    }

    /// The person's decisions for one app.
    public struct Grants: Codable, Sendable, Equatable {
        /// Medications it may read (concept identifiers or RxNorm codes; `"*"`: all).
        public var medications: [String]
        /// Sample types it may read.
        public var read: [String]
        /// Sample types it may share (save).
        public var share: [String]

        /// Decisions.
        public init(medications: [String] = [], read: [String] = [], share: [String] = []) {
            self.medications = medications
            self.read = read
            self.share = share
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            medications = try container.decodeIfPresent([String].self, forKey: .medications) ?? []
            read = try container.decodeIfPresent([String].self, forKey: .read) ?? []
            share = try container.decodeIfPresent([String].self, forKey: .share) ?? []
        }
    }

    private struct File: Codable {
        var apps: [App]
    }

    /// The registered programs.
    public let apps: [App]

    /// A registry of programs (checked as a loaded file is, except for file ownership).
    public init(apps: [App]) throws {
        var seen = Set<String>()
        for app in apps {
            guard app.executable.hasPrefix("/") else {
                throw HKError(
                    .errorInvalidArgument, "registry: executable \"\(app.executable)\" is not an absolute path")
            }
            guard !app.bundleIdentifier.isEmpty else {
                throw HKError(.errorInvalidArgument, "registry: \(app.executable) has an empty bundle identifier")
            }
            guard seen.insert(app.executable).inserted else {
                throw HKError(.errorInvalidArgument, "registry: \(app.executable) is registered twice")
            }
        }
        self.apps = apps
    }

    /// Loads and checks a registry file. `trustedOwners` are the user IDs that may own it and the registered
    /// programs (root and the daemon's own user, by default).
    public static func load(from url: URL, trustedOwners: Set<UInt32> = [0, geteuid()]) throws -> HealthAppRegistry {
        try checkTrusted(url.path, trustedOwners: trustedOwners, what: "the registry")
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw HKError(.errorInvalidArgument, "registry \(url.path) cannot be read: \(error)")
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch {
            throw HKError(.errorInvalidArgument, "registry \(url.path) is not valid: \(error)")
        }
        let registry = try HealthAppRegistry(apps: file.apps)
        for app in registry.apps {
            try checkTrusted(app.executable, trustedOwners: trustedOwners, what: "registered program")
        }
        return registry
    }

    /// The program registered at a path.
    public func app(executable path: String) -> App? { apps.first { $0.executable == path } }

    /// Refuses a file that someone other than a trusted owner could change: the file and every folder above it
    /// must belong to a trusted owner and be writable by no group or other user (a sticky folder such as /tmp
    /// counts as writable: anyone may add a file there).
    static func checkTrusted(_ path: String, trustedOwners: Set<UInt32>, what: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw HKError(.errorInvalidArgument, "\(what) \(path) does not exist (\(String(cString: strerror(errno))))")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw HKError(.errorInvalidArgument, "\(what) \(path) is not a regular file")
        }
        // The kernel names a running program by its real path: a registered link would never match it.
        let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard real == path else {
            throw HKError(.errorInvalidArgument, "\(what) \(path) is not a real path (it resolves to \(real))")
        }
        var current = path
        while true {
            var entry = stat()
            guard lstat(current, &entry) == 0 else {
                throw HKError(.errorInvalidArgument, "\(what) \(path): \(current) cannot be examined")
            }
            guard trustedOwners.contains(entry.st_uid) else {
                throw HKError(
                    .errorInvalidArgument,
                    "\(what) \(path): \(current) belongs to user \(entry.st_uid), who is not trusted to edit it")
            }
            let isLink = (entry.st_mode & S_IFMT) == S_IFLNK
            guard isLink || entry.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
                throw HKError(
                    .errorInvalidArgument,
                    "\(what) \(path): \(current) is writable by others (mode \(String(entry.st_mode & 0o7777, radix: 8)))"
                )
            }
            if current == "/" { break }
            current = (current as NSString).deletingLastPathComponent
            if current.isEmpty { current = "/" }
        }
    }

    /// The person's decisions as an authorization handler: each app gets what its grants list, nothing more.
    var authorizationHandler: HKClosureAuthorizationHandler {
        let byBundle = Dictionary(apps.map { ($0.bundleIdentifier, $0.grants ?? Grants()) }) { first, _ in first }
        return HKClosureAuthorizationHandler(
            medications: { bundle, offered, _ in
                let grants = byBundle[bundle] ?? Grants()
                if grants.medications.contains("*") { return Set(offered.map(\.medication.identifier)) }
                let listed = Set(grants.medications)
                return Set(
                    offered.filter { medication in
                        listed.contains(medication.medication.identifier.identifier)
                            || medication.medication.relatedCodings.contains {
                                $0.system == HKClinicalCoding.rxNormSystem && listed.contains($0.code)
                            }
                    }.map(\.medication.identifier))
            },
            types: { bundle, share, read in
                let grants = byBundle[bundle] ?? Grants()
                let shareable = Set(grants.share)
                let readable = Set(grants.read)
                return (
                    Set(share.filter { shareable.contains($0.identifier) }),
                    Set(read.filter { readable.contains($0.identifier) })
                )
            })
    }
}
