import Foundation
import PackagePlugin

/// Extracts a sample of the SwiftUI seed (../shared/seeds/swiftui-app-essentials-wwdc20.txt) into the
/// target that builds it, at build time: the seed's code is never copied into the repository. The
/// target's `seed-sample.json` names the sample and the fixes it needs; `seed-extract` fails the build,
/// naming what is missing, when the seed file or a fix's text is not there.
@main
struct SeedSamples: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let spec = target.directoryURL.appendingPathComponent("seed-sample.json")
        let seed = context.package.directoryURL.deletingLastPathComponent()
            .appendingPathComponent("shared/seeds/swiftui-app-essentials-wwdc20.txt")
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
