import Foundation
import Testing

extension IndependentTests {
    /// CRegistry compiles xxHash inline (XXH_INLINE_ALL): only the header is
    /// needed, at build time. An app built with the library must not need
    /// the shared library libxxhash when it runs (README, Package.swift).
    @Suite struct Linkage {
        /// The libraries an executable asks the dynamic loader for: the
        /// dynamic section's NEEDED entries (Linux) or the load commands
        /// (macOS).
        static func neededLibraries(of executable: URL) throws -> String {
            #if canImport(Darwin)
            let listing = try runTool("otool", ["-L", executable.path])
            #else
            let listing = try runTool("readelf", ["-d", executable.path])
            #endif
            #expect(listing.status == 0 && !listing.signaled, "the listing tool failed: \(listing.output)")
            return listing.output
        }

        /// ResolverFailureProbe is an app of the library, built with the
        /// tests (they depend on it), in whatever configuration they are.
        @Test func anAppDoesNotLoadLibxxhash() throws {
            guard let app = builtProgram("ResolverFailureProbe") else {
                throw ProgramNotBuilt(name: "ResolverFailureProbe")
            }
            let needed = try Linkage.neededLibraries(of: app)
            #expect(needed.contains("libswiftCore"), "the listing names the libraries the app loads: \(needed)")
            #expect(!needed.lowercased().contains("xxhash"), "the app needs libxxhash at run time: \(needed)")
        }
    }
}
