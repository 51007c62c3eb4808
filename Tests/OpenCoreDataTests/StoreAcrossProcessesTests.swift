import Foundation
import OpenCoreData
import TestSupport
import Testing

@testable import CoreDataProbe

/// Runs the CoreDataProbe executable (built next to the test binary) with `environment` added to this
/// process's, and returns its standard output's lines and its standard error; throws if it fails.
func runProbe(
    _ command: String, _ store: URL, environment: [String: String] = [:]
) async throws -> (lines: [String], errors: String) {
    try await onOwnThread { try runProbeBlocking(command, store, environment: environment) }
}

private func runProbeBlocking(
    _ command: String, _ store: URL, environment: [String: String]
) throws -> (lines: [String], errors: String) {
    let process = Process()
    process.executableURL = builtExecutable("CoreDataProbe")
    process.arguments = [command, store.path]
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw NSError(
            domain: "CoreDataProbe", code: Int(process.terminationStatus),
            userInfo: [NSLocalizedDescriptionKey: "probe \(command) failed: \(message)"])
    }
    return (String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init), message)
}

@Suite("Store across processes")
struct StoreAcrossProcessesTests {
    /// What the probe's data looks like when written and read in one in-memory store.
    private func expectedDump() throws -> [String] {
        let container = NSPersistentContainer(name: "Probe", managedObjectModel: ProbeModel.make())
        let description = NSPersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))
        description.type = NSInMemoryStoreType
        container.persistentStoreDescriptions = [description]
        container.loadPersistentStores { _, error in if let error { Issue.record(error) } }
        try ProbeData.write(into: container.viewContext)
        container.viewContext.reset()
        return try ProbeData.dump(container.viewContext)
    }

    @Test func anotherProcessReadsExactlyWhatWasSaved() async throws {
        let url = Fixtures.temporaryStoreURL()
        do {
            let container = try ProbeModel.container(at: url)
            try ProbeData.write(into: container.viewContext)
        }
        let dump = try await runProbe("dump", url).lines
        #expect(dump.count == 4)
        #expect(dump == (try expectedDump()))
    }

    @Test func thisProcessReadsExactlyWhatAnotherSaved() async throws {
        let url = Fixtures.temporaryStoreURL()
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = try await runProbe("write", url)
        let container = try ProbeModel.container(at: url)
        let dump = try ProbeData.dump(container.viewContext)
        #expect(dump == (try expectedDump()))
        // Every value really came back (not defaults): spot-check the extremes.
        let first = try #require(dump.first)
        #expect(
            first.contains("int16=-32768") && first.contains("int32=2147483647")
                && first.contains("int64=-9223372036854775808"))
        #expect(first.contains("decimal=19.99") && first.contains("flag=true"))
        #expect(first.contains("parts=alpha-first<alpha"))
        let nils = try #require(dump.last)
        for field in [
            "decimal=nil", "date=nil", "blob=nil", "uuid=nil", "uri=nil", "tags=nil", "placement=nil", "parts=",
        ] {
            #expect(nils.contains(field))
        }
    }

    @Test func everyAttributeTypeKeepsItsSwiftType() throws {
        let url = Fixtures.temporaryStoreURL()
        try ProbeData.write(into: try ProbeModel.container(at: url).viewContext)
        let context = try ProbeModel.container(at: url).viewContext
        let request = NSFetchRequest<Specimen>(entityName: "Specimen")
        request.predicate = NSPredicate(format: "name == %@", "alpha")
        let alpha = try #require(try context.fetch(request).first)
        #expect(alpha.value(forKey: "int16") is Int16)
        #expect(alpha.value(forKey: "int32") is Int32)
        #expect(alpha.value(forKey: "int64") is Int64)
        #expect(alpha.value(forKey: "decimal") is Decimal)
        #expect(alpha.value(forKey: "float") is Float)
        #expect(alpha.value(forKey: "flag") is Bool)
        #expect(alpha.value(forKey: "uuid") is UUID)
        #expect(alpha.value(forKey: "uri") is URL)
        #expect(alpha.tags as? [String] == ["t0", "shared", "ü"])
        #expect(alpha.value(forKeyPath: "placement.position.x") as? Double == 0.25)
        // Nested composite elements are queryable in SQL.
        let nested = NSFetchRequest<Specimen>(entityName: "Specimen")
        nested.predicate = NSPredicate(format: "placement.position.x > 1.0 AND placement.row == 20")
        #expect(try context.fetch(nested).map(\.name) == ["gamma ünïcödé 🛩"])
    }
}
