import Foundation
import GRDB
import OpenCoreData
import TestSupport
import Testing

@testable import AircraftMigration

/// `coredata-tool`, run as its own process: checksums, metadata, the lightweight check and finishing
/// deferred work in a later process.
@Suite("coredata-tool")
struct CoreDataToolTests {
    static var tool: URL { builtExecutable("coredata-tool") }

    static let models = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Examples/AircraftMigration/Models")

    /// Runs the tool; returns its exit status and standard output.
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await onOwnThread { try runBlocking(arguments) }
    }

    private static func runBlocking(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func checksumPrintsVersionChecksumAndEntityHashes() async throws {
        let (status, output) = try await Self.run([
            "checksum", Self.models.appendingPathComponent("modelV2.xcdatamodel").path,
        ])
        #expect(status == 0)
        #expect(output.contains("version checksum: \(v2ModelChecksum)"))
        let model = v2ModelReference.resolvedModel
        for (name, hash) in model.entityVersionHashesByName {
            #expect(output.contains("  \(name): \(hash.base64EncodedString())"))
        }
    }

    @Test func checkSaysWhetherAChangeIsLightweight() async throws {
        let yes = try await Self.run([
            "check", Self.models.appendingPathComponent("modelV1.xcdatamodel").path,
            Self.models.appendingPathComponent("modelV2.xcdatamodel").path,
        ])
        #expect(yes.status == 0)
        #expect(yes.output.contains("lightweight: yes (\(v1ModelChecksum) -> \(v2ModelChecksum))"))
        #expect(yes.output.contains("add entity FlightData"))
        #expect(yes.output.contains("add Aircraft.flightParameters"))

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "orchard-tool-\(UUID().uuidString)/bad.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Aircraft" representedClassName="NSManagedObject" syncable="YES">
                <attribute name="aircraftType" optional="YES" attributeType="String"/>
                <attribute name="tailNumber" attributeType="Integer 64"/>
            </entity>
        </model>
        """.write(to: folder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let no = try await Self.run([
            "check", Self.models.appendingPathComponent("modelV1.xcdatamodel").path, folder.path,
        ])
        #expect(no.status == 1)
        #expect(no.output.contains("lightweight: no"))
        #expect(no.output.contains("Aircraft.tailNumber changes type from String to Integer 64"))
    }

    @Test func metadataShowsVersionAndPendingWorkAndFinishDeferredCompletesItInALaterProcess() async throws {
        let url = MF.url()
        let expected = try FlightDataScenario.makeV1Store(at: url, count: 25)
        guard
            let container = try loadMigratedContainer(
                path: url.path, myModel: v3ModelReference.resolvedModel, deferred: true)
        else {
            Issue.record("no container")
            return
        }
        for store in container.persistentStoreCoordinator.persistentStores {
            try container.persistentStoreCoordinator.remove(store)
        }

        let before = try await Self.run([
            "metadata", url.path, "--model", Self.models.appendingPathComponent("modelV3.xcdatamodel").path,
            "--model", Self.models.appendingPathComponent("modelV1.xcdatamodel").path,
        ])
        #expect(before.status == 0)
        #expect(before.output.contains("store version: \(v3ModelChecksum)"))
        #expect(before.output.contains("deferred work pending: true"))
        #expect(before.output.contains("modelV3.xcdatamodel: matches the store"))
        #expect(before.output.contains("modelV1.xcdatamodel: differs (\(v1ModelChecksum))"))
        #expect(try MF.columns(url, "ZAIRCRAFT").contains("ZFLIGHTDATA"))

        let pending = try MF.metadata(url)[OrchardDeferredLightweightMigrationTasksKey] as? [String] ?? []
        #expect(!pending.isEmpty)
        let one = try await Self.run(["finish-deferred", url.path, "--one"])
        #expect(one.status == 0)
        #expect(one.output.contains("finished 1 deferred task(s); \(pending.count - 1) pending"))
        let rest = try await Self.run(["finish-deferred", url.path])
        #expect(rest.status == 0)
        #expect(rest.output.contains("; 0 pending"))

        let after = try await Self.run(["metadata", url.path])
        #expect(after.output.contains("deferred work pending: false"))
        #expect(try MF.metadata(url)[NSPersistentStoreDeferredLightweightMigrationOptionKey] == nil)
        #expect(try !MF.columns(url, "ZAIRCRAFT").contains("ZFLIGHTDATA"))
        #expect(try MF.sql(url) { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
        guard let reopened = NSPersistentContainer(path: url.path, managedObjectModel: v3ModelReference.resolvedModel)
        else { return }
        reopened.loadPersistentStores { _, error in #expect(error == nil) }
        #expect(
            FlightDataScenario.problems(
                expected: expected, found: try FlightDataScenario.flightData(in: reopened), aircraftCount: 25) == [])
    }

    @Test func badInputIsAClearError() async throws {
        let missing = try await Self.run(["metadata", "/nonexistent/store.sqlite"])
        #expect(missing.status != 0)
        #expect(missing.output.contains("/nonexistent/store.sqlite"))
        let noModel = try await Self.run(["checksum", "/nonexistent/model.xcdatamodel"])
        #expect(noModel.status != 0)
        #expect(noModel.output.contains("/nonexistent/model.xcdatamodel"))
    }
}
