import Foundation
import GRDB
import OpenCoreData
import TestSupport
import Testing

@testable import MigrationCrashWorker

/// A child process migrating a large store is killed with SIGKILL at random moments; after each kill the
/// store opens, passes `PRAGMA integrity_check`, is at a known version and has lost nothing. The next
/// run resumes from where the killed one stopped; a store that reached V3 starts over from V1.
@Suite("Migration crash safety")
struct MigrationCrashTests {
    static let aircraftCount = 5_000
    /// How many migrations are killed: 50, or `ORCHARD_MIGRATION_KILLS`. scripts/sanitize asks for fewer, since
    /// under a sanitizer every child runs several times slower and what that run looks for is a memory or thread
    /// error on the migration's paths, which a handful of kills already walks; the plain run keeps all 50.
    static let kills: Int = {
        guard let text = ProcessInfo.processInfo.environment["ORCHARD_MIGRATION_KILLS"] else { return 50 }
        guard let count = Int(text), count > 0 else {
            fatalError("ORCHARD_MIGRATION_KILLS must be a positive whole number, not \"\(text)\"")
        }
        return count
    }()

    static var worker: URL { builtExecutable("MigrationCrashWorker") }

    static func run(_ arguments: [String], killAfter delay: Double? = nil) async throws -> Int32 {
        try await onOwnThread { try runBlocking(arguments, killAfter: delay) }
    }

    private static func runBlocking(_ arguments: [String], killAfter delay: Double?) throws -> Int32 {
        let process = Process()
        process.executableURL = worker
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        try process.run()
        if let delay {
            let deadline = Date().addingTimeInterval(delay)
            while process.isRunning && Date() < deadline { usleep(1_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    static func copyStore(_ from: URL, to: URL) throws {
        for suffix in ["", "-wal", "-shm"] {
            let target = URL(fileURLWithPath: to.path + suffix)
            try? FileManager.default.removeItem(at: target)
            let source = URL(fileURLWithPath: from.path + suffix)
            if FileManager.default.fileExists(atPath: source.path) {
                try FileManager.default.copyItem(at: source, to: target)
            }
        }
    }

    /// Checks the store after a kill; returns its version (1, 2 or 3).
    static func check(_ url: URL) throws -> Int {
        // It opens with OpenCoreData at the model its metadata names.
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        let checksum = metadata[NSStoreModelVersionChecksumKey] as? String
        let models = [CrashModels.v1, CrashModels.v2, CrashModels.v3]
        guard let index = models.firstIndex(where: { $0.versionChecksum == checksum }) else {
            Issue.record("store at unknown version \(checksum ?? "nil")")
            return 0
        }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: models[index])
        let store = try coordinator.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let count = try context.performAndWait {
            try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Aircraft"))
        }
        #expect(count == aircraftCount)
        try coordinator.remove(store)

        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        try queue.read { db in
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
            let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('ZAIRCRAFT')")
            let hasFlightData = columns.contains("ZFLIGHTDATA")
            let hasTable = try db.tableExists("ZFLIGHTDATA")
            let sql =
                "SELECT a.ZTAILNUMBER, \(hasFlightData ? "a.ZFLIGHTDATA" : "NULL"), "
                + (hasTable
                    ? "(SELECT COUNT(*) FROM ZFLIGHTDATA f WHERE f.ZAIRCRAFT = a.Z_PK), (SELECT f.ZDATA FROM ZFLIGHTDATA f WHERE f.ZAIRCRAFT = a.Z_PK)"
                    : "0, NULL")
                + " FROM ZAIRCRAFT a"
            var seen = 0
            var lost: [String] = []
            let rows = try Row.fetchCursor(db, sql: sql)
            while let row = try rows.next() {
                seen += 1
                let tail: String = row[0]
                let i = Int(tail.dropFirst())! - 100_000
                let expected = CrashModels.data(i)
                let inline: Data? = index == 2 ? nil : row[1]
                let moved: Int = row[2]
                let linked: Data? = row[3]
                let ok: Bool
                switch (expected, inline, moved) {
                case (nil, nil, 0): ok = true
                case (let e?, let d?, 0): ok = d == e
                case (let e?, nil, 1): ok = linked == e
                default: ok = false
                }
                if !ok { lost.append(tail) }
            }
            #expect(seen == aircraftCount)
            #expect(lost.isEmpty, "flight data lost or duplicated for \(lost.prefix(5))")
        }
        return index + 1
    }

    @Test func killedMigrationsLeaveAConsistentStore() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("orchard-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pristine = folder.appendingPathComponent("v1.sqlite")
        let url = folder.appendingPathComponent("store.sqlite")
        #expect(try await Self.run(["create", pristine.path, String(Self.aircraftCount)]) == 0)
        // How long an uninterrupted migration takes here, to spread the kills over it.
        try Self.copyStore(pristine, to: url)
        let start = Date()
        #expect(try await Self.run(["migrate", url.path]) == 0)
        let full = max(Date().timeIntervalSince(start), 0.05)
        #expect(try Self.check(url) == 3)

        var generator = SystemRandomNumberGenerator()
        var versions: [Int: Int] = [:]
        try Self.copyStore(pristine, to: url)
        for _ in 0..<Self.kills {
            let delay = Double.random(in: 0...(full * 1.1), using: &generator)
            _ = try await Self.run(["migrate", url.path], killAfter: delay)
            let version = try Self.check(url)
            versions[version, default: 0] += 1
            let pending =
                try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)[
                    NSPersistentStoreDeferredLightweightMigrationOptionKey] as? Bool ?? false
            if version == 3 && !pending { try Self.copyStore(pristine, to: url) }
        }
        // The last interrupted store resumes and completes.
        #expect(try await Self.run(["migrate", url.path]) == 0)
        #expect(try Self.check(url) == 3)
        #expect(versions.values.reduce(0, +) == Self.kills)
    }
}
