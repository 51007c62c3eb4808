import Foundation

// seed-extract <seed.txt> <seed-sample.json> <output.swift>
//
// Cuts code samples out of a WWDC seed transcript (each from its "• mm:ss - Title" line to the next one; several
// samples are written one after the other),
// removes the transcript's six-space indent, applies the fixes the spec lists (each must match as often as
// the spec says, once by default, or the tool fails naming it), and writes the result with a header saying where it came from.

struct Spec: Decodable {
    struct Fix: Decodable {
        let replace: String
        let with: String
        let why: String
        /// How many times `replace` must occur (default 1); every occurrence is replaced.
        let occurrences: Int?
    }
    /// The sample's heading, as in "12:59 - Document groups".
    let sample: String?
    /// Several samples' headings, written in this order (one target compiling samples that go together).
    let samples: [String]?
    /// The seed file's name in ../shared/seeds (the SwiftUI talk's when absent); read by the SeedSamples plugin.
    let seed: String?
    let fixes: [Fix]

    var headings: [String] { samples ?? sample.map { [$0] } ?? [] }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("seed-extract: error: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count == 4 else { fail("usage: seed-extract <seed.txt> <seed-sample.json> <output.swift>") }
let (seedPath, specPath, outputPath) = (arguments[1], arguments[2], arguments[3])

guard let seed = try? String(contentsOfFile: seedPath, encoding: .utf8) else {
    fail("the seed file \(seedPath) is missing or unreadable; the seed samples are built from it")
}
let spec: Spec
do { spec = try JSONDecoder().decode(Spec.self, from: Data(contentsOf: URL(fileURLWithPath: specPath))) } catch {
    fail("\(specPath): \(error)")
}

let lines = seed.components(separatedBy: "\n")
guard !spec.headings.isEmpty else { fail("\(specPath) names no sample") }
var parts: [String] = []
for heading in spec.headings {
    guard let start = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "• " + heading }) else {
        fail("the seed has no sample headed “\(heading)”")
    }
    var body: [String] = []
    for line in lines[(start + 1)...] {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("• ") { break }
        if !line.isEmpty && !line.hasPrefix("      ") && !trimmed.isEmpty { break }  // The transcript resumes.
        body.append(line.hasPrefix("      ") ? String(line.dropFirst(6)) : trimmed)
    }
    parts.append("// “\(heading)”\n" + body.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines))
}
var code = parts.joined(separator: "\n\n")
var applied: [String] = []
for fix in spec.fixes {
    let count = code.components(separatedBy: fix.replace).count - 1
    guard count == (fix.occurrences ?? 1) else {
        fail(
            "the fix “\(fix.why)” expects “\(fix.replace)” \(fix.occurrences ?? 1) time(s) in “\(spec.headings.joined(separator: "”, “"))”, found it \(count) times"
        )
    }
    code = code.replacingOccurrences(of: fix.replace, with: fix.with)
    applied.append("//   - \(fix.why)")
}
let header = """
    // Generated at build time from the seed's samples “\(spec.headings.joined(separator: "”, “"))” (\(URL(fileURLWithPath: seedPath).lastPathComponent)).
    // Do not edit: the seed is the source. Fixes applied:
    \(applied.joined(separator: "\n"))

    """
do {
    try (header + code + "\n").write(toFile: outputPath, atomically: true, encoding: .utf8)
} catch {
    fail("could not write \(outputPath): \(error)")
}
