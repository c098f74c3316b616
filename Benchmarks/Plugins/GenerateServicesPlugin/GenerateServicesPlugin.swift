// Build-tool plugin of the BenchFixtures target: runs Sources/GenerateServices to
// write the 1,000 benchmark service types into this plugin's work directory
// (under .build), where SwiftPM compiles them as part of the target.

import Foundation
import PackagePlugin

@main
struct GenerateServicesPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "GeneratedServices.swift")
        return [
            .buildCommand(
                displayName: "Generating the benchmark service types for \(target.name)",
                executable: try context.tool(named: "GenerateServices").url,
                arguments: [output.path(percentEncoded: false)],
                inputFiles: [],
                outputFiles: [output]
            ),
        ]
    }
}
