import Foundation
import Testing

/// OpenCoreData's unsafe code stays behind its fences: only the handle types listed here use raw pointers,
/// unmanaged references, unchecked casts or unchecked exclusivity, and each such line says why it is safe.
@Suite("Unsafe code is fenced")
struct UnsafeFenceTests {
    /// The files allowed to hold unsafe code: one small handle type per structure.
    static let handles: Set<String> = [
        "Object/TypeIdentity.swift",  // casts between a generic type and itself; String's immortal bit
        "Object/PayloadView.swift",  // an object's payload as its subclass
        "Object/ManagedFastPath.swift",  // the @Managed getter's unretained read
        "Object/ManagedSlotTable.swift",  // the @Managed slot table's entry buffer
        "Object/RowBlock+Storage.swift",  // a row block's buffers, and one row's slots
        "Object/UnretainedObject.swift",  // the registry's and batch groups' unretained objects
        "Object/ObjectData.swift",  // unchecked exclusivity on an object's values
        "Object/NSManagedObject.swift",  // unchecked exclusivity on an object's payload
        "Context/ObjectRegistry+Table.swift",  // the registry's entry buffer
        "Context/ObjectConstruction.swift",  // the thread-specific payload handoff
        "Context/ClassChecker.swift",  // fetched objects as the request's result type
        "Context/NSManagedObjectContext.swift",  // unchecked exclusivity on the batch groups (under a lock)
        "SQLite/SQLiteBinding.swift",  // binding values to SQLite's C API
        "SQLite/SQLColumns.swift",  // reading result columns from SQLite's C API
        "SQLite/SQLCore+Fetch.swift",  // GRDB's reentrant read
    ]

    /// Whether a line uses something unsafe.
    static func isUnsafe(_ code: String) -> Bool {
        [
            "Unsafe", "unsafe", "Unmanaged", "pthread_", "assumingMemoryBound", "withMemoryRebound",
            "exclusivity(unchecked)",
        ]
        .contains { code.contains($0) }
    }

    static var sources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/OpenCoreData")
    }

    /// Every line of code (not a comment) that uses something unsafe: file (relative), line number, text,
    /// and whether a "Safe because" comment is on it or on one of the three lines above.
    static func unsafeLines() throws -> [(file: String, line: Int, text: String, justified: Bool)] {
        var result: [(String, Int, String, Bool)] = []
        let root = sources.standardizedFileURL.path + "/"
        let files = try #require(FileManager.default.enumerator(atPath: root)).compactMap { $0 as? String }
        for file in files.sorted() where file.hasSuffix(".swift") {
            let lines = try String(contentsOfFile: root + file, encoding: .utf8).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//"), isUnsafe(code) else { continue }
                let nearby = lines[max(0, index - 3)...index]
                result.append((file, index + 1, code, nearby.contains { $0.contains("Safe because") }))
            }
        }
        return result
    }

    @Test func unsafeCodeLivesOnlyInTheHandleTypes() throws {
        let lines = try Self.unsafeLines()
        #expect(!lines.isEmpty, "the scan found nothing: is \(Self.sources.path) the sources folder?")
        let outside = lines.filter { !Self.handles.contains($0.file) }
        let list = outside.map { "\($0.file):\($0.line): \($0.text)" }.joined(separator: "\n")
        #expect(outside.isEmpty, "unsafe code outside the handle types:\n\(list)")
    }

    @Test func everyUnsafeLineSaysWhyItIsSafe() throws {
        let unexplained = try Self.unsafeLines().filter { !$0.justified }
        let list = unexplained.map { "\($0.file):\($0.line): \($0.text)" }.joined(separator: "\n")
        #expect(unexplained.isEmpty, "unsafe lines with no \"Safe because\" comment:\n\(list)")
    }

    @Test func everyHandleFileExists() {
        for file in Self.handles {
            #expect(FileManager.default.fileExists(atPath: Self.sources.appendingPathComponent(file).path), "\(file)")
        }
    }
}
