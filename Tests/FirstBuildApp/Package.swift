// swift-tools-version:6.1
// An app's first build, as a new user makes it: a package that depends on
// Resolver by path and writes the README's first lines. `make
// test-first-build` builds it once without the xxHash header (the build must
// stop with the message that names what to install), once with it (it must
// build and print what the README says), and checks that its binary does not
// ask for libxxhash at run time.
import PackageDescription

let package = Package(
    name: "FirstBuildApp",
    dependencies: [
        .package(name: "Resolver", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "FirstBuildApp",
            dependencies: [.product(name: "Resolver", package: "Resolver")]
        ),
    ]
)
