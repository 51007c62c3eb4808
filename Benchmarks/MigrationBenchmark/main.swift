// OpenCoreData migration benchmark, release mode, workload and baseline in one run on copies of the
// same 1,000,000-row store file:
// 1. Lightweight migration (add an attribute, rename one, add an index) through addPersistentStore with
//    the automatic-migration options, vs the same change as hand-written SQL. Target: at most 1.5x.
// 2. Dropping an attribute: the foreground part with NSPersistentStoreDeferredLightweightMigrationOptionKey
//    vs the whole migration without it. Target: at most 10%.
//
//   swift run -c release MigrationBenchmark [rows]
import Foundation
import GRDB
import OpenCoreData

let rows = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 1_000_000 : 1_000_000
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("orchard-migration-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

func item(_ attributes: [NSAttributeDescription]) -> NSManagedObjectModel {
    let entity = NSEntityDescription(name: "Item")
    entity.properties = attributes
    let model = NSManagedObjectModel()
    model.entities = [entity]
    return model
}

func attribute(_ name: String, _ type: NSAttributeType, rid: String? = nil, indexed: Bool = false) -> NSAttributeDescription {
    let a = NSAttributeDescription(name: name, type: type)
    a.renamingIdentifier = rid
    a.isIndexed = indexed
    return a
}

let v1 = item([attribute("name", .stringAttributeType), attribute("value", .integer64AttributeType), attribute("note", .stringAttributeType)])
let v2 = item([attribute("name", .stringAttributeType), attribute("value", .integer64AttributeType, indexed: true),
               attribute("comment", .stringAttributeType, rid: "note"), attribute("rating", .integer64AttributeType)])
let dropped = item([attribute("name", .stringAttributeType), attribute("value", .integer64AttributeType)])
let automatic: [AnyHashable: Any] = [NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true]

func time(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// A copy of the store, flushed to disk before anything is timed: otherwise the first fsync of a timed
/// run (a commit or checkpoint) also writes back the copy's dirty pages, charging the copy to that run.
func copy(_ from: URL, _ name: String) throws -> URL {
    let to = folder.appendingPathComponent(name)
    try FileManager.default.copyItem(at: from, to: to)
    let handle = try FileHandle(forUpdating: to)
    try handle.synchronize()
    try handle.close()
    return to
}

func migrate(_ url: URL, to model: NSManagedObjectModel, options: [AnyHashable: Any]) throws {
    let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
    let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: options)
    try coordinator.remove(store)
}

// The V1 store: OpenCoreData lays it out, GRDB fills it fast.
let original = folder.appendingPathComponent("v1.sqlite")
try migrate(original, to: v1, options: [:])
let filling = try DatabaseQueue(path: original.path)
let fillTime = try time {
    try filling.write { db in
        let statement = try db.makeStatement(sql: "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZNAME, ZVALUE, ZNOTE) VALUES (?, 1, 1, ?, ?, ?)")
        for i in 1...rows {
            try statement.execute(arguments: [i, "item \(i)", (i &* 7919) % 1_000_003, "note for item number \(i)"])
        }
        try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = 1", arguments: [rows])
    }
    try filling.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
}
try filling.close()
print("store: \(rows) rows (filled in \(String(format: "%.2f", fillTime)) s)")

// 1. Lightweight migration vs hand-written SQL, alternating on fresh copies; each side's best of three
// counts (single runs swing with the disk's flushes).
var migrationTime = Double.infinity, sqlTime = Double.infinity
for round in 0..<3 {
    let forMigration = try copy(original, "lightweight-\(round).sqlite")
    let forSQL = try copy(original, "handwritten-\(round).sqlite")
    migrationTime = min(migrationTime, try time { try migrate(forMigration, to: v2, options: automatic) })
    sqlTime = min(sqlTime, try time {
        let queue = try DatabaseQueue(path: forSQL.path)
        try queue.write { db in
            try db.execute(sql: "ALTER TABLE ZITEM ADD COLUMN ZRATING INTEGER")
            try db.execute(sql: "ALTER TABLE ZITEM RENAME COLUMN ZNOTE TO ZCOMMENT")
            try db.execute(sql: "CREATE INDEX ZITEM_VALUE_INDEX ON ZITEM (ZVALUE)")
        }
        try queue.close()
    })
    try? FileManager.default.removeItem(at: forMigration)
    try? FileManager.default.removeItem(at: forSQL)
}
print(String(format: "lightweight migration (add, rename, index): OpenCoreData %.3f s, hand-written SQL %.3f s, ratio %.2fx (target <= 1.5x; best of 3)",
             migrationTime, sqlTime, migrationTime / sqlTime))

// 2. Dropping an attribute: deferred foreground part vs the whole migration.
let forDeferred = try copy(original, "deferred.sqlite")
let forImmediate = try copy(original, "immediate.sqlite")
let immediateTime = try time { try migrate(forImmediate, to: dropped, options: automatic) }
var deferredOptions = automatic
deferredOptions[NSPersistentStoreDeferredLightweightMigrationOptionKey] = true
let deferredTime = try time { try migrate(forDeferred, to: dropped, options: deferredOptions) }
let finishTime = try time {
    let coordinator = NSPersistentStoreCoordinator(managedObjectModel: dropped)
    let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: forDeferred, options: nil)
    try coordinator.finishDeferredLightweightMigration()
    try coordinator.remove(store)
}
print(String(format: "drop attribute: deferred foreground %.3f s, without deferral %.3f s, ratio %.1f%% (target <= 10%%); deferred work later %.3f s",
             deferredTime, immediateTime, 100 * deferredTime / immediateTime, finishTime))
