// swift-tools-version:6.2
// The server example: a Hummingbird 2 app whose route handlers get each request's
// services from Resolver, or, for comparison, from Swinject. A package of its own so
// that the library keeps no server dependencies; build, test and load it from the
// repository root with `make example-server` and `make load` (see README.md here).
import PackageDescription

let package = Package(
    name: "ResolverServerExample",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "ItemsServer", targets: ["ItemsServer"]),
    ],
    dependencies: [
        // The library, by path: product and module `Resolver`.
        .package(name: "Resolver", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.0.0"),
        .package(url: "https://github.com/Swinject/Swinject.git", exact: "2.10.0"),
    ],
    targets: [
        // Services, routes and the two wirings.
        .target(
            name: "ItemsApp",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Resolver", package: "Resolver"),
                .product(name: "Swinject", package: "Swinject"),
            ]
        ),
        // The server: CONTAINER=resolver|swinject picks the wiring.
        .executableTarget(
            name: "ItemsServer",
            dependencies: [
                "ItemsApp",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Resolver", package: "Resolver"),
            ]
        ),
        // The routes called in-process, for both wirings.
        .testTarget(
            name: "ItemsAppTests",
            dependencies: [
                "ItemsApp",
                .product(name: "Resolver", package: "Resolver"),
                .product(name: "Swinject", package: "Swinject"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
