// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Resolver",
    products: [
        .library(name: "Resolver", targets: ["Resolver"]),
        // The C table on its own, for C and Swift code that wants it directly.
        .library(name: "CRegistry", targets: ["CRegistry"]),
    ],
    targets: [
        // libxxhash from the system, found through pkg-config.
        .systemLibrary(
            name: "CXXHash",
            path: "Sources/CXXHash",
            pkgConfig: "libxxhash",
            providers: [.apt(["libxxhash-dev"]), .brew(["xxhash"])]
        ),
        // The C hash table under the registry.
        .target(
            name: "CRegistry",
            dependencies: ["CXXHash"],
            path: "Sources/CRegistry"
        ),
        .target(
            name: "Resolver",
            dependencies: ["CRegistry"]
        ),
        .testTarget(
            name: "CRegistryTests",
            dependencies: ["CRegistry"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
