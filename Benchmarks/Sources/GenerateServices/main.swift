// Writes the benchmark's service fixtures, at build time: run by
// Plugins/GenerateServicesPlugin for the BenchFixtures target, into the plugin's
// work directory under .build (nothing generated is committed).
//
//   GenerateServices SERVICES.swift DAG.swift
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
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: GenerateServices SERVICES.swift DAG.swift\n".utf8))
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

// MARK: - The cold-container scenario's graph

/// The cold-container scenario's services: a random DAG (fixed seed) of
/// `dagCount` classes, each taking its dependencies in its initializer, as
/// in an app (and the published studies of Swift DI performance that
/// generate such graphs): service `i` depends on between 5 and 15 distinct
/// services of lower index (fewer near the bottom), 1,800 to 1,900 edges.
let dagCount = 190

func dagName(_ index: Int) -> String { String(format: "DagService%03d", index) }

func dagSource() -> String {
    var random = SplitMix64(seed: 0x5EED_DA6)
    var dependencies: [[Int]] = []
    for index in 0..<dagCount {
        let wanted = min(index, 5 + Int(random.next() % 11))
        var chosen = Set<Int>()
        while chosen.count < wanted {
            chosen.insert(Int(random.next() % UInt64(index)))
        }
        dependencies.append(chosen.sorted())
    }
    let edges = dependencies.reduce(0) { $0 + $1.count }
    var source = """
        // GENERATED at build time by Benchmarks/Sources/GenerateServices (run by
        // Plugins/GenerateServicesPlugin) into .build: do not edit.
        // The cold-container scenario's graph: \(dagCount) services, \(edges) dependencies.

        public let dagServiceCount = \(dagCount)
        public let dagEdgeCount = \(edges)


        """
    for (index, deps) in dependencies.enumerated() {
        let name = dagName(index)
        let fields = deps.enumerated().map { "    public let d\($0.offset): \(dagName($0.element))\n" }.joined()
        let parameters = deps.enumerated().map { "_ d\($0.offset): \(dagName($0.element))" }.joined(separator: ", ")
        let assignments = deps.indices.map { "self.d\($0) = d\($0); " }.joined()
        let gets = deps.map { _ in "r.get()" }.joined(separator: ", ")
        source += """
            public final class \(name): DagService {
            \(fields)    public init(\(parameters)) { \(assignments)}
                @inlinable public static func build<R: DagResolving>(_ r: R) -> \(name) { \(name)(\(gets)) }
            }

            """
    }
    source += """

        /// Calls `visitor.visit(_:)` once for each service of the graph, from
        /// the last (which nothing depends on) to the first, each call with
        /// its concrete type.
        @inlinable
        public func forEachDagService<Visitor: DagServiceVisitor>(_ visitor: Visitor) {

        """
    for index in (0..<dagCount).reversed() {
        source += "    visitor.visit(\(dagName(index)).self)\n"
    }
    source += """
        }

        /// The same objects built by hand: each service once, in an order
        /// that builds its dependencies first, each passed to `body`.
        @inlinable
        public func buildDagByHand(_ body: (AnyObject) -> Void) {

        """
    for (index, deps) in dependencies.enumerated() {
        let arguments = deps.map { "s\($0)" }.joined(separator: ", ")
        source += "    let s\(index) = \(dagName(index))(\(arguments)); body(s\(index))\n"
    }
    source += "}\n"
    return source
}

/// SplitMix64, as BenchFixtures' (this tool does not depend on it).
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

// Last: top-level code runs in order, so the graph's constants above are set.
try dagSource().write(toFile: arguments[2], atomically: true, encoding: .utf8)
