// Build-tool plugin of the BenchFixtures target: runs Sources/GenerateServices to
// write the 1,000 benchmark service types and the cold-container scenario's
// graph into this plugin's work directory (under .build), where SwiftPM
// compiles them as part of the target.

import Foundation
import PackagePlugin

@main
struct GenerateServicesPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let services = context.pluginWorkDirectoryURL.appending(path: "GeneratedServices.swift")
        let dag = context.pluginWorkDirectoryURL.appending(path: "GeneratedDag.swift")
        return [
            .buildCommand(
                displayName: "Generating the benchmark service types for \(target.name)",
                executable: try context.tool(named: "GenerateServices").url,
                arguments: [services.path(percentEncoded: false), dag.path(percentEncoded: false)],
                inputFiles: [],
                outputFiles: [services, dag]
            ),
        ]
    }
}
