import Foundation
import PackagePlugin

/// Extracts samples of a seed (../shared/seeds/, the SwiftUI talk's unless the spec names another `seed`) into the
/// target that builds them, at build time: the seed's code is never copied into the repository. The target's
/// `seed-sample.json` names the samples and the fixes they need; `seed-extract` fails the build, naming what is
/// missing, when the seed file or a fix's text is not there.
@main
struct SeedSamples: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let spec = target.directoryURL.appendingPathComponent("seed-sample.json")
        struct Named: Decodable { let seed: String? }
        let named = try JSONDecoder().decode(Named.self, from: Data(contentsOf: spec)).seed
        let seed = context.package.directoryURL.deletingLastPathComponent()
            .appendingPathComponent("shared/seeds/" + (named ?? "swiftui-app-essentials-wwdc20.txt"))
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("SeedSample.swift")
        return [
            .buildCommand(
                displayName: "Extracting the seed sample for \(target.name)",
                executable: try context.tool(named: "seed-extract").url,
                arguments: [seed.path, spec.path, output.path],
                inputFiles: [seed, spec],
                outputFiles: [output])
        ]
    }
}
