// swift-tools-version:6.2
// An app module with default MainActor isolation (Xcode 26's default for new
// app targets): every declaration without an isolation of its own is
// isolated to the main actor, closures written in it included. `make test`
// builds it with warnings as errors and runs it; it prints
// "DefaultIsolationApp OK" when its checks pass.
import PackageDescription

let package = Package(
    name: "DefaultIsolationApp",
    dependencies: [
        .package(name: "Resolver", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "DefaultIsolationApp",
            dependencies: [.product(name: "Resolver", package: "Resolver")],
            swiftSettings: [.swiftLanguageMode(.v6), .defaultIsolation(MainActor.self)]
        ),
    ]
)
