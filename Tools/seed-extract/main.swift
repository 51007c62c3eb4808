import Foundation

// seed-extract <seed.txt> <seed-sample.json> <output.swift>
//
// Cuts one code sample out of a WWDC seed transcript (from its "• mm:ss - Title" line to the next one),
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
    let sample: String
    let fixes: [Fix]
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
guard let start = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "• " + spec.sample }) else {
    fail("the seed has no sample headed “\(spec.sample)”")
}
var body: [String] = []
for line in lines[(start + 1)...] {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    if trimmed.hasPrefix("• ") { break }
    if !line.isEmpty && !line.hasPrefix("      ") && !trimmed.isEmpty { break }  // The transcript resumes.
    body.append(line.hasPrefix("      ") ? String(line.dropFirst(6)) : trimmed)
}
var code = body.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
var applied: [String] = []
for fix in spec.fixes {
    let count = code.components(separatedBy: fix.replace).count - 1
    guard count == (fix.occurrences ?? 1) else {
        fail(
            "the fix “\(fix.why)” expects “\(fix.replace)” \(fix.occurrences ?? 1) time(s) in “\(spec.sample)”, found it \(count) times"
        )
    }
    code = code.replacingOccurrences(of: fix.replace, with: fix.with)
    applied.append("//   - \(fix.why)")
}
let header = """
    // Generated at build time from the seed's sample “\(spec.sample)” (\(URL(fileURLWithPath: seedPath).lastPathComponent)).
    // Do not edit: the seed is the source. Fixes applied:
    \(applied.joined(separator: "\n"))

    """
do {
    try (header + code + "\n").write(toFile: outputPath, atomically: true, encoding: .utf8)
} catch {
    fail("could not write \(outputPath): \(error)")
}
