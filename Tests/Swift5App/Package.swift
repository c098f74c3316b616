// swift-tools-version:6.1
// An app written against the original Resolver 1.5.1, in Swift 5 language
// mode, as its own package: it uses this library the way apps do, through a
// package dependency, so a release build of it exercises the library compiled
// separately from its client. `make test` builds and runs it in debug and
// release; it exits non-zero if any of its checks fails.
import PackageDescription

let package = Package(
    name: "Swift5App",
    dependencies: [
        .package(name: "Resolver", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "Swift5App",
            dependencies: [.product(name: "Resolver", package: "Resolver")]
        ),
    ],
    swiftLanguageModes: [.v5]
)
