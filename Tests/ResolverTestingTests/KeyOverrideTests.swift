import Resolver
import ResolverTesting
import Testing

// An override through a key inside a `.resolver()` test registers in that
// test's root (issue 43): it ends with the test and never reaches a test
// running beside it; registrations by type keep 1.5.1's `main`.

protocol KeyedService: Sendable {
    var name: String { get }
}

struct LiveKeyedService: KeyedService {
    let name = "live"
}

struct SpyKeyedService: KeyedService {
    let name: String
}

extension ResolverKeys {
    fileprivate var overriddenInTests: ResolverKey<any KeyedService> {
        ResolverKey { LiveKeyedService() }.scope(.application)
    }
}

@Suite struct KeyOverridesInTests {
    @Test(.resolver(), arguments: 0..<10)
    func anOverrideInAResolverTestRegistersInTheTestsRoot(index: Int) async throws {
        Resolver.register(\.overriddenInTests) { SpyKeyedService(name: "spy \(index)") }
        #expect(Resolver.resolve(\.overriddenInTests).name == "spy \(index)")
        // Let the other tests register theirs meanwhile.
        try await Task.sleep(for: .milliseconds(Int.random(in: 1...10)))
        #expect(Resolver.resolve(\.overriddenInTests).name == "spy \(index)", "no other test's override")
        #expect(Resolver.main.resolve(\.overriddenInTests).name == "live", "main is untouched")
    }

    @Test(.resolver())
    func anOverrideReplacesTheInstanceTheTestsScopeKept() {
        let live = Resolver.resolve(\.overriddenInTests)
        #expect(live.name == "live")
        Resolver.register(\.overriddenInTests) { SpyKeyedService(name: "spy") }
        #expect(Resolver.resolve(\.overriddenInTests).name == "spy")
        Resolver.reset(\.overriddenInTests)
        #expect(Resolver.resolve(\.overriddenInTests).name == "live", "the key is as declared again")
    }

    /// Without the trait, the app-wide root: no test's override reached it.
    @Test func theAppWideKeyIsUntouched() {
        #expect(Resolver.resolve(\.overriddenInTests).name == "live")
    }
}
