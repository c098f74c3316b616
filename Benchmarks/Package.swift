// swift-tools-version:6.1
// The benchmark package: kept apart from the library so that `Resolver` itself
// has no benchmark dependencies. Run it with `make bench` (and
// `make bench-instructions`) from the repository root; see README.md here.
import Foundation
import PackageDescription

// The library under test: this checkout, or RESOLVER_LIBRARY (make bench BASE=,
// Scripts/library-at.sh). Scenarios of API a base commit may lack are built
// only where the library has it.
let library = Context.environment["RESOLVER_LIBRARY"] ?? ".."
let libraryHasKeys = FileManager.default.fileExists(
    atPath: URL(fileURLWithPath: library, relativeTo: URL(fileURLWithPath: Context.packageDirectory))
        .appendingPathComponent("Sources/Resolver/Keys/ResolverKey.swift").path)

let benchmark = Target.Dependency.product(name: "Benchmark", package: "benchmark")
let benchmarkPlugin = Target.PluginUsage.plugin(name: "BenchmarkPlugin", package: "benchmark")

#if compiler(>=6.3)
let harness = Package.Dependency.package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1",
                                         traits: ["MallocInterposer"])
#else
let harness = Package.Dependency.package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1")
#endif

let package = Package(
    name: "ResolverBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // The library under test, by path: its product `Resolver` (`library` above).
        .package(name: "Resolver", path: library),
        // The harness. Swift 6.3 and later read its main manifest: the malloc
        // interposer only (mallocs per operation). Earlier 6.x toolchains read
        // its `Package@swift-6.2.swift`, which counts mallocs through jemalloc
        // (Debian's libjemalloc-dev; `make bench-deps` installs it there).
        harness,
        // The best-known alternative container.
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
    ],
    targets: [
        // The original Resolver 1.5.1 storage design, rebuilt small, as a baseline.
        .target(name: "BaselineResolver"),
        // Services, generated types, the Workload protocol: no dependencies.
        .target(name: "BenchFixtures", plugins: ["GenerateServicesPlugin"]),
        // Writes BenchFixtures' 1,000 service types at build time, into .build.
        .executableTarget(name: "GenerateServices"),
        .plugin(name: "GenerateServicesPlugin", capability: .buildTool(), dependencies: ["GenerateServices"]),
        // The library's C table, built from its sources (a symlink to
        // ../Sources/CRegistry): it is not a product of the library. Its
        // module map names the module CRegistry (and CRegistry.Testing).
        .target(name: "CRegistryTable"),
        // Family 1 workloads: CRegistry and Dictionary.
        .target(
            name: "BenchTables",
            dependencies: ["BenchFixtures", "CRegistryTable"]
        ),
        // Family 2 workloads: one file per implementation.
        .target(
            name: "BenchScenarios",
            dependencies: [
                "BenchFixtures",
                "BaselineResolver",
                .product(name: "Resolver", package: "Resolver"),
                .product(name: "Swinject", package: "Swinject"),
            ],
            swiftSettings: libraryHasKeys ? [.define("RESOLVER_KEYS")] : []
        ),
        // Registration with the harness and interleaving of the alternatives.
        .target(name: "BenchSupport", dependencies: ["BenchFixtures", benchmark]),

        // The benchmark executables, where the harness looks for them.
        .executableTarget(
            name: "HashTables",
            dependencies: ["BenchTables", "BenchSupport", benchmark],
            path: "Benchmarks/HashTables",
            plugins: [benchmarkPlugin]
        ),
        .executableTarget(
            name: "Resolvers",
            dependencies: ["BenchScenarios", "BenchSupport", benchmark],
            path: "Benchmarks/Resolvers",
            plugins: [benchmarkPlugin]
        ),

        // Runs one resolver scenario under callgrind (make bench-instructions).
        .executableTarget(name: "InstructionCounts", dependencies: ["BenchScenarios", "BenchFixtures"]),
        // make bench-scaling-runs: gains at 2 threads over 1, fresh threads per
        // measurement, one process per run (a client of the public API only).
        .executableTarget(
            name: "ScalingRuns",
            dependencies: [.product(name: "Resolver", package: "Resolver")]
        ),
        // make bench-verify-bursts: concurrent verify() calls beside an async
        // factory that suspends, each burst the first of a fresh process.
        .executableTarget(
            name: "VerifyBursts",
            dependencies: [.product(name: "Resolver", package: "Resolver")]
        ),
        // make bench-async-instructions: a cached resolve, synchronous and with resolveAsync.
        .executableTarget(
            name: "AsyncInstructionCounts",
            dependencies: [.product(name: "Resolver", package: "Resolver")]
        ),
    ]
)
