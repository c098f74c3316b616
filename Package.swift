// swift-tools-version:6.1
import PackageDescription

// `RESOLVER_INTERNAL_CHECKS=1 swift build` (as `make asan` and `make ubsan`
// do) compiles the C core's internal checks: every table write ends by
// checking the table's layout invariants (`crg_check_invariants`), in the
// manner of swift-collections' COLLECTIONS_INTERNAL_CHECKS. Debug builds
// check that `_locked` calls hold the mutex either way.
let internalChecks: [CSetting] = Context.environment["RESOLVER_INTERNAL_CHECKS"] == nil
    ? [] : [.define("CRG_INTERNAL_CHECKS")]

let package = Package(
    name: "Resolver",
    products: [
        .library(name: "Resolver", targets: ["Resolver"]),
        // A Swift Testing trait: each test with a container of its own.
        .library(name: "ResolverTesting", targets: ["ResolverTesting"]),
    ],
    dependencies: [
        // `make docs`: the `generate-documentation` command. No product uses
        // it, so apps that depend on this package neither fetch nor build it
        // (nor pin it in their Package.resolved).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The C core: the table, read sections and deferred release, the
        // writers' mutex, atomic cells (DESIGN.md). It hashes with xxHash,
        // from the system header xxhash.h (Debian/Ubuntu: libxxhash-dev;
        // macOS: brew install xxhash), which crg_xxhash.h includes, or stops
        // the build with what to install. XXH3 compiles inline: no target
        // and no linker setting here, so nothing links libxxhash and apps
        // do not need it at run time.
        .target(
            name: "CRegistry",
            path: "Sources/CRegistry",
            cSettings: internalChecks
        ),
        .target(
            name: "Resolver",
            dependencies: ["CRegistry"]
        ),
        .target(
            name: "ResolverTesting",
            dependencies: ["Resolver"]
        ),
        // What the test targets use: a failing, counting C allocator, the
        // lock (`Locked`) and the thread starter (`startThread`,
        // `runOnThreads`).
        .target(
            name: "ResolverTestSupport",
            dependencies: ["CRegistry"],
            path: "Tests/Support"
        ),
        .testTarget(
            name: "CRegistryTests",
            dependencies: ["CRegistry", "ResolverTestSupport"]
        ),
        // The front end, one file per concept; Swift 6 language mode, and
        // app-style use of the API in AppStyleTests.swift.
        // Parallel tests with conflicting mocks, through ResolverTesting.
        .testTarget(
            name: "ResolverTestingTests",
            dependencies: ["ResolverTesting", "ResolverTestSupport"]
        ),
        .testTarget(
            name: "ResolverTests",
            dependencies: ["Resolver", "ResolverTesting", "CRegistry", "ResolverTestSupport", "ResolverFailureProbe",
                           "ResolverOneThreadProbe", "ResolverContextProbe", "ResolverTestAppModule"]
        ),
        // An app module's keys, which the tests add contexts to from their
        // own module (`Resolver.onTest(\.key)`).
        .target(
            name: "ResolverTestAppModule",
            dependencies: ["Resolver"],
            path: "Tests/AppModule"
        ),
        // A program the tests run as a child process: it stops in each of
        // the ways a resolve can fail. (Tests/Swift5App, an app written
        // against the original Resolver in Swift 5 mode, is a package of its
        // own; `make test` runs it.)
        .executableTarget(
            name: "ResolverFailureProbe",
            dependencies: ["Resolver", "CRegistry"],
            path: "Tests/Programs/ResolverFailureProbe"
        ),
        // Which context of a registration applies in a program (launch
        // arguments, also set for the process and seen on a new thread, the
        // preview variable, Xcode's test variables, debug and release
        // builds); the tests and `make test-contexts` run it.
        .executableTarget(
            name: "ResolverContextProbe",
            dependencies: ["Resolver", "ResolverTestSupport"],
            path: "Tests/Programs/ResolverContextProbe"
        ),
        // Async factories built once while every job of the global executor
        // runs on one thread (OneThreadExecutor: the runtime's executor
        // hooks, installed by the program); the tests run it.
        .target(
            name: "OneThreadExecutor",
            path: "Tests/Programs/OneThreadExecutor"
        ),
        .executableTarget(
            name: "ResolverOneThreadProbe",
            dependencies: ["Resolver", "OneThreadExecutor", "ResolverTestSupport"],
            path: "Tests/Programs/ResolverOneThreadProbe"
        ),
        // Exercises the library and exits, for LeakSanitizer (make asan).
        .executableTarget(
            name: "ResolverLeakCheck",
            dependencies: ["Resolver", "ResolverTestSupport"],
            path: "Tests/Programs/ResolverLeakCheck"
        ),
        .executableTarget(
            name: "ResolverExample",
            dependencies: ["Resolver"],
            path: "Examples/ResolverExample"
        ),
    ],
    swiftLanguageModes: [.v6]
)
