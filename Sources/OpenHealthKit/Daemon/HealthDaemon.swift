import Logging
import OpenCoreData
import OpenNetwork

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `orchard-healthd`'s core: it alone opens the health store, and serves apps over a Unix domain socket.
///
/// Who a client is comes from the kernel (`SO_PEERCRED`: its user, its process, and through `/proc` the program it
/// runs), mapped to a bundle identifier by the ``HealthAppRegistry``; what it may see is decided by the person's
/// grants there and enforced here, by the same filters an in-process store applies. A client never learns what was
/// denied: it sees no data.
///
/// The store directory is created `0700` and the store's files `0600` (the daemon runs under `umask 077`), so only
/// the daemon's user can open them: run the daemon as a user of its own (see docs) and apps, running as the person,
/// cannot read the file around it. A client that sends garbage is disconnected; one that floods waits (each
/// connection has at most `maximumCallsInFlight` calls running) while the others are served. Every write is one
/// SQLite transaction, so a killed daemon loses nothing it had answered for.
public final class HealthDaemon: Sendable {
    /// Where the daemon keeps its files and whom it serves.
    public struct Configuration: Sendable {
        /// The folder holding `HealthStore.sqlite` (created `0700`; an existing one must be `0700` and the daemon's).
        public var storeDirectory: URL
        /// The Unix domain socket apps connect to.
        public var socketPath: String
        /// The registry of programs and the person's grants (reloaded when it changes).
        public var registryURL: URL
        /// The users whose processes may connect (by default the daemon's own user).
        public var allowedUsers: Set<UInt32>
        /// The users who may own the registry and registered programs (root and the daemon's user).
        public var trustedOwners: Set<UInt32>
        /// The most calls of one connection running at once; further messages wait unread.
        public var maximumCallsInFlight: Int = 16

        /// A configuration.
        public init(
            storeDirectory: URL, socketPath: String, registryURL: URL, allowedUsers: Set<UInt32> = [geteuid()],
            trustedOwners: Set<UInt32> = [0, geteuid()]
        ) {
            self.storeDirectory = storeDirectory
            self.socketPath = socketPath
            self.registryURL = registryURL
            self.allowedUsers = allowedUsers
            self.trustedOwners = trustedOwners
        }
    }

    typealias Stack = Coder<HealthWire.Response, HealthWire.Request, HealthWireCoder>

    /// The daemon's configuration.
    public let configuration: Configuration
    let state = DaemonState()
    let logger = Logger(label: "orchard-healthd")

    /// A daemon with a configuration (nothing is opened until ``run(onReady:)``).
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Opens the store, listens, and serves until the calling task is cancelled. Fails with the reason when the
    /// store folder, the registry or the socket cannot be used as they must.
    public func run(onReady: (@Sendable () -> Void)? = nil) async throws {
        umask(0o077)
        let database = try openStore()
        try loadRegistry(force: true)
        try prepareSocket()
        state.database = database
        let path = configuration.socketPath
        let mode: mode_t = configuration.allowedUsers == [geteuid()] ? 0o600 : 0o666
        let listener = NetworkListener(for: .unix(path: path)) {
            Coder(sending: HealthWire.Response.self, receiving: HealthWire.Request.self, using: HealthWireCoder()) {
                TCP()
            }
            .maximumMessageSize(HealthWire.maximumMessageSize)
        }
        listener.onStateUpdate { [logger] _, state in
            guard state == .ready else { return }
            // Who may connect is checked per connection; the mode keeps other users out when only the
            // daemon's own user is served.
            if chmod(path, mode) != 0 {
                logger.error("cannot set the mode of \(path): \(String(cString: strerror(errno)))")
            }
            onReady?()
        }
        defer { unlink(path) }
        try await listener.run { [self] connection in
            await serve(connection)
        }
    }

    // MARK: Files

    private func openStore() throws -> HealthDatabase {
        let directory = configuration.storeDirectory.path
        var info = stat()
        if stat(directory, &info) != 0 {
            guard mkdir(directory, 0o700) == 0 else {
                throw HKError(
                    .errorDatabaseInaccessible,
                    "cannot create the store folder \(directory): \(String(cString: strerror(errno)))")
            }
        } else {
            guard (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == geteuid(), info.st_mode & 0o077 == 0 else {
                throw HKError(
                    .errorDatabaseInaccessible,
                    "the store folder \(directory) must be the daemon's own (user \(geteuid())) with mode 700;"
                        + " it belongs to user \(info.st_uid) with mode \(String(info.st_mode & 0o7777, radix: 8))")
            }
        }
        let url = configuration.storeDirectory.appendingPathComponent("HealthStore.sqlite")
        let database = try HealthDatabase(url: url)
        // Files made before the daemon owned them (or under a wider umask) are narrowed now.
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: url.path + suffix) {
            guard chmod(url.path + suffix, 0o600) == 0 else {
                throw HKError(
                    .errorDatabaseInaccessible,
                    "cannot make \(url.path + suffix) private: \(String(cString: strerror(errno)))")
            }
        }
        return database
    }

    /// Refuses to take over a socket another daemon answers on; removes a stale one.
    private func prepareSocket() throws {
        let path = configuration.socketPath
        let folder = (path as NSString).deletingLastPathComponent
        if !FileManager.default.fileExists(atPath: folder) {
            let mode: mode_t = configuration.allowedUsers == [geteuid()] ? 0o700 : 0o755
            // chmod after mkdir: the daemon's umask (077) would narrow the mode mkdir is given.
            guard mkdir(folder, mode) == 0, chmod(folder, mode) == 0 else {
                throw HKError(
                    .errorDatabaseInaccessible,
                    "cannot create the socket folder \(folder): \(String(cString: strerror(errno)))")
            }
        }
        if FileManager.default.fileExists(atPath: path) && SocketProbe.answers(path) {
            throw HKError(.errorDatabaseInaccessible, "another health daemon is already listening at \(path)")
        }
    }

    /// Loads the registry when its file changed (or when forced); a registry that became invalid refuses every
    /// new client until it is mended, rather than serving under rules no one can check.
    func loadRegistry(force: Bool = false) throws {
        let url = configuration.registryURL
        var info = stat()
        let stamp =
            stat(url.path, &info) == 0
            ? "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec).\(info.st_size).\(info.st_ino)" : ""
        if !force, stamp == state.registryStamp, state.registry != nil { return }
        do {
            state.registry = try HealthAppRegistry.load(from: url, trustedOwners: configuration.trustedOwners)
            state.registryStamp = stamp
        } catch {
            state.registry = nil
            state.registryStamp = stamp
            throw error
        }
    }
}

/// The daemon's shared state, under a lock.
final class DaemonState: @unchecked Sendable {  // Unchecked: every field is read and written under `lock`.
    private let lock = NSLock()
    private var _database: HealthDatabase?
    private var _registry: HealthAppRegistry?
    private var _registryStamp = ""
    private var stores: [String: HKHealthStore] = [:]

    var database: HealthDatabase? {
        get { lock.withLock { _database } }
        set { lock.withLock { _database = newValue } }
    }
    var registry: HealthAppRegistry? {
        get { lock.withLock { _registry } }
        set { lock.withLock { _registry = newValue } }
    }
    var registryStamp: String {
        get { lock.withLock { _registryStamp } }
        set { lock.withLock { _registryStamp = newValue } }
    }

    /// The store of an app (one per bundle identifier, over the shared database), deciding by the registry of the
    /// moment.
    func store(for bundleIdentifier: String) -> HKHealthStore? {
        lock.withLock {
            if let store = stores[bundleIdentifier] { return store }
            guard let database = _database else { return nil }
            let store = HKHealthStore(
                database: database, bundleIdentifier: bundleIdentifier,
                authorizationHandler: RegistryAuthorizationHandler(state: self))
            stores[bundleIdentifier] = store
            return store
        }
    }
}

/// Asks the registry of the moment (an app whose registry entry went away gets nothing).
struct RegistryAuthorizationHandler: HKAuthorizationHandler {
    let state: DaemonState

    func perObjectReadAuthorization(
        bundleIdentifier: String, medications: [HKUserAnnotatedMedication], current: Set<String>
    ) async -> Set<HKHealthConceptIdentifier> {
        // No valid registry: the person's decisions cannot be read, so nothing is granted.
        guard let handler = state.registry?.authorizationHandler else { return [] }
        return await handler.perObjectReadAuthorization(
            bundleIdentifier: bundleIdentifier, medications: medications, current: current)
    }

    func typeAuthorization(
        bundleIdentifier: String, toShare: Set<HKSampleType>, read: Set<HKObjectType>
    ) async -> (
        share: Set<HKSampleType>, read: Set<HKObjectType>
    ) {
        // No valid registry: nothing is granted (as above).
        guard let handler = state.registry?.authorizationHandler else { return ([], []) }
        return await handler.typeAuthorization(bundleIdentifier: bundleIdentifier, toShare: toShare, read: read)
    }
}

/// Whether something accepts connections on a Unix domain socket path.
enum SocketProbe {
    static func answers(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8.prefix(107)) + [0]
        // Safe because `sun_path` holds 108 bytes and at most 107 plus a terminating zero are copied.
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        // Safe because `address` is a complete sockaddr_un and the length passed is its size.
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0
    }
}
