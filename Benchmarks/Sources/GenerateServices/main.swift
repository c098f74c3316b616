// Writes the benchmark's service fixtures, at build time: run by
// Plugins/GenerateServicesPlugin for the BenchFixtures target, into the plugin's
// work directory under .build (nothing generated is committed).
//
//   GenerateServices OUTPUT.swift
//
// The "register" and "transient-1000" scenarios need many real, distinct Swift
// types (distinct type identities, as an app has), not 1,000 names for one
// type. Swift cannot declare types in a loop, so this writes them out, with
// one generic function that walks them all. The registration code itself is
// written by hand, once per container, in Sources/BenchScenarios (a
// `GeneratedServiceVisitor`); see `GeneratedServiceVisitor` in
// Sources/BenchFixtures/Fixtures.swift on why each registration is still a
// call specialized for its concrete type.

import Foundation

/// How many service types: the register scenario's batch size, and how many
/// other services the transient-1000 scenario registers.
let count = 1_000

func typeName(_ index: Int) -> String { String(format: "GeneratedService%04d", index) }

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: GenerateServices OUTPUT.swift\n".utf8))
    exit(2)
}

var source = """
    // GENERATED at build time by Benchmarks/Sources/GenerateServices (run by
    // Plugins/GenerateServicesPlugin) into .build: do not edit.
    // \(count) distinct service types for the register and transient-1000 scenarios.

    public let generatedServiceCount = \(count)


    """
for index in 0..<count {
    source += "public final class \(typeName(index)): GeneratedService { public init() {} }\n"
}
source += """

    /// Calls `visitor.visit(_:)` once for each generated type, in order, each
    /// call with its concrete type (see `GeneratedServiceVisitor`).
    @inlinable
    public func forEachGeneratedService<Visitor: GeneratedServiceVisitor>(_ visitor: Visitor) {

    """
for index in 0..<count {
    source += "    visitor.visit(\(typeName(index)).self)\n"
}
source += "}\n"

try source.write(toFile: arguments[1], atomically: true, encoding: .utf8)
