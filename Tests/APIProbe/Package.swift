// swift-tools-version:6.1
// A compile-time check of the public surface: every public declaration of the
// original Resolver 1.5.1, used once with its original signature
// (Shared/EveryDeclaration.swift), compiled in Swift 5 and in Swift 6
// language mode. `make test` builds both targets with warnings as errors and
// runs them; each prints "APIProbe OK" when its few checks pass.
//
// Both targets compile the same file: each target's directory holds a
// symbolic link to it (SwiftPM does not let two targets share a path), plus a
// main.swift of its own with the `ResolverRegistering` conformance, spelled as
// each language mode needs it (see those files).
import PackageDescription

let package = Package(
    name: "APIProbe",
    dependencies: [
        .package(name: "Resolver", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "APIProbe5",
            dependencies: [.product(name: "Resolver", package: "Resolver")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .executableTarget(
            name: "APIProbe6",
            dependencies: [.product(name: "Resolver", package: "Resolver")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
