import Resolver
import ResolverTesting
import Testing

/// A service whose setup is awaited.
actor Connection {
    let label: String
    init(label: String) async {
        await Task.yield()
        self.label = label
    }
}

/// Parallel tests registering conflicting async singletons: `resolveAsync`,
/// the async factories and the caching scopes' build tasks all see the
/// test's own root.
@Suite struct AsyncTraitTests {
    @Test(.resolver(), arguments: 0..<10)
    func eachTestBuildsItsOwnAsyncSingleton(index: Int) async {
        Resolver.root.register { Mock(greeting: "hello \(index)") as Greeter }
        Resolver.root.register { (r: Resolver) async -> Connection? in
            await Connection(label: Resolver.resolve(Greeter.self).greeting)
        }.scope(.application)
        async let first: Connection = Resolver.resolveAsync()
        async let second: Connection = Resolver.resolveAsync()
        let (a, b) = await (first, second)
        #expect(a === b, "one instance per test, built once")
        #expect(a.label == "hello \(index)")
        #expect(Resolver.resolve(Connection.self) === a, "cached: a synchronous resolve returns it")
    }
}
