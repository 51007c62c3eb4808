import Foundation
import Testing

/// The Book Club example is the seed's code with only the import changed (the example target compiling
/// is the other half of this check).
@Suite struct ExampleSourceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let seed = root.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/seeds/swiftui-app-essentials-wwdc20.txt")
    static let seedFallback = URL(fileURLWithPath: "/work/shared/seeds/swiftui-app-essentials-wwdc20.txt")
    static var seedFile: URL? {
        [seed, seedFallback].first { FileManager.default.fileExists(atPath: $0.path) }
    }

    @Test(.enabled(if: seedFile != nil)) func bookClubIsTheSeedsSceneStorageSampleWithOnlyTheImportChanged() throws {
        let seedText = try String(contentsOf: try #require(Self.seedFile), encoding: .utf8)
        let start = try #require(seedText.range(of: "12:07 - Scene storage"))
        let end = try #require(seedText.range(of: "12:59 - Document groups"))
        let sample = seedText[start.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .dropFirst().dropLast()
            .map { $0.hasPrefix("      ") ? String($0.dropFirst(6)) : String($0) }
            .joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        let example = try String(contentsOf: Self.root.appendingPathComponent("Examples/BookClub/BookClubApp.swift"), encoding: .utf8)
        let lines = example.split(separator: "\n", omittingEmptySubsequences: false)
        let imports = lines.filter { $0.hasPrefix("import ") }
        #expect(imports == ["import SwiftUIWeb"])
        let code = lines.filter { !$0.hasPrefix("import ") && !$0.hasPrefix("//") }
            .joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(code == sample)
    }
}
