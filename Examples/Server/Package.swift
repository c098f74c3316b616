// swift-tools-version:6.2
// The server example: a Hummingbird 2 app whose route handlers get each request's
// services from Resolver. A package of its own so that the library keeps no server
// dependencies.
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
    ],
    targets: [
        // Services, routes and the wiring.
        .target(
            name: "ItemsApp",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Resolver", package: "Resolver"),
            ]
        ),
        // The server.
        .executableTarget(
            name: "ItemsServer",
            dependencies: [
                "ItemsApp",
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
