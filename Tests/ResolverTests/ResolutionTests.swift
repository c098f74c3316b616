import Resolver
import Testing

extension IndependentTests {
    /// `resolve` and `optional` on a container.
    @Suite struct Resolution {
        @Test func instanceResolveAndOptional() {
            let resolver = Resolver()
            resolver.register { Leaf() }
            let leaf: Leaf = resolver.resolve()
            let maybe: Leaf? = resolver.optional()
            #expect(leaf.id != maybe?.id, "graph scope: a new instance per top-level resolve")
            #expect(resolver.optional(Middle.self) == nil)
        }

        @Test func namedLookupNeverFallsBackAndTheReverse() {
            let resolver = Resolver()
            resolver.register { "unnamed" }
            resolver.register(name: "fred") { "fred" }
            #expect(resolver.optional(String.self, name: "barney") == nil)
            #expect(resolver.resolve(String.self, name: "fred") == "fred")
            #expect(resolver.resolve(String.self) == "unnamed")
            let onlyNamed = Resolver()
            onlyNamed.register(name: "fred") { 1 }
            #expect(onlyNamed.optional(Int.self) == nil)
        }

        @Test func factoryReturningNilMakesOptionalNil() {
            let resolver = Resolver()
            resolver.register { nil as Leaf? }
            #expect(resolver.optional(Leaf.self) == nil)
        }

        @Test func factoryGetsTheContainerResolveWasCalledOn() {
            let parent = Resolver()
            let child = Resolver()
            parent.add(child: child)
            final class Box { let resolver: Resolver; init(_ r: Resolver) { resolver = r } }
            child.register { r in Box(r) }
            let box: Box = parent.resolve()
            #expect(box.resolver === parent)
        }

        @Test func valueTypesResolve() {
            let resolver = Resolver()
            resolver.register { ValueService() }
            let a: ValueService = resolver.resolve()
            let b: ValueService = resolver.resolve()
            #expect(a != b)
        }
    }
}

extension ResolverTests {
    /// The static `resolve` and `optional`, which read the app-wide `root`.
    @Suite struct ResolutionThroughRoot {
        @Test func staticResolveReadsRoot() {
            Resolver.reset()
            let mock = Resolver(child: Resolver.main)
            mock.register { "mocked" }
            Resolver.main.register { "real" }
            #expect(Resolver.resolve(String.self) == "real")
            Resolver.root = mock
            defer { Resolver.root = Resolver.main }
            #expect(Resolver.resolve(String.self) == "mocked")
            #expect(Resolver.optional(String.self) == "mocked")
        }
    }
}
