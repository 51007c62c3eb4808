import Foundation
import Testing

/// OpenCoreData's folders are layers: the SQLite layer below knows the model and predicates, never the objects,
/// contexts and stores above it; the model and predicate layers know no SQL at all.
@Suite("Layers")
struct LayerTests {
    static var sources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/OpenCoreData")
    }

    /// Each (file, line, name) in `folder` whose code (comments aside) names one of `names` as a whole word.
    static func mentions(in folder: String, of names: [String]) throws -> [String] {
        let directory = sources.appendingPathComponent(folder)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".swift")
        }
        #expect(!files.isEmpty, "\(folder) has no Swift files")
        let pattern = try NSRegularExpression(pattern: "\\b(" + names.joined(separator: "|") + ")\\b")
        var found: [String] = []
        for file in files.sorted() {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            for (index, line) in text.components(separatedBy: "\n").enumerated() {
                let code = line.components(separatedBy: "//").first ?? ""
                let range = NSRange(code.startIndex..., in: code)
                if let match = pattern.firstMatch(in: code, range: range), let name = Range(match.range, in: code) {
                    found.append("\(folder)/\(file):\(index + 1): \(code[name])")
                }
            }
        }
        return found
    }

    @Test func theSQLiteLayerKnowsNoObjectContextOrStore() throws {
        let above = [
            "NSManagedObject", "NSManagedObjectID", "NSManagedObjectContext", "NSPersistentStore",
            "NSPersistentStoreCoordinator", "NSPersistentContainer", "ObjectData", "ObjectRegistry", "BatchGroup",
            "RelationshipObjects", "SaveWriter", "NSMergePolicy", "NSMergeConflict", "NSFetchRequest",
            "MigrationDriver", "StagedMigration",
        ]
        let found = try Self.mentions(in: "SQLite", of: above)
        #expect(found.isEmpty, "SQLite/ reaches up: \(found.joined(separator: "; "))")
    }

    @Test func theModelAndPredicateLayersKnowNoSQL() throws {
        let sql = ["SQLCore", "RowWriter", "StoreSchema", "RowCodec", "PredicateSQL", "SaveWriter", "GRDB", "Database"]
        for folder in ["Model", "Query", "Support"] {
            let found = try Self.mentions(in: folder, of: sql)
            #expect(found.isEmpty, "\(folder)/ knows the SQL layer: \(found.joined(separator: "; "))")
        }
    }

    @Test func everySourceFileIsInALayerFolder() throws {
        let layers: Set<String> = [
            "Support", "Model", "Query", "SQLite", "Object", "Context", "Fetch", "Persistence", "Migration",
        ]
        let entries = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
        for entry in entries where !entry.hasSuffix(".swift") {
            #expect(
                layers.contains(entry), "Sources/OpenCoreData/\(entry) is not one of the layers ARCHITECTURE.md names")
        }
    }
}
