import Resolver
import Testing

extension ResolverTests {
    /// `ResolverRegistration`: key, cacheKey, resolve, instantiate, update.
    @Suite struct RegistrationObject {
        @Test func keyAndCacheKey() {
            let resolver = Resolver()
            let unnamed = resolver.register { Leaf() }.registration
            let named = resolver.register(name: "n") { Leaf() }.registration
            let key = Int(bitPattern: ObjectIdentifier(Leaf.self))
            #expect(unnamed.key == key && named.key == key)
            #expect(unnamed.cacheKey == "\(key)")
            #expect(named.cacheKey == "\(key):n")
        }

        @Test func resolveGoesThroughTheScopeAndInstantiateDoesNot() {
            let resolver = Resolver()
            let registration = resolver.register { Leaf() }.scope(.application).registration
            defer { ResolverScope.application.reset() }
            let cached1 = registration.resolve(resolver: resolver, args: nil)
            let cached2 = registration.resolve(resolver: resolver, args: nil)
            let fresh = registration.instantiate(resolver: resolver, args: nil)
            #expect(cached1 === cached2)
            #expect(fresh !== cached1)
            #expect(resolver.resolve(Leaf.self) === cached1)
        }

        @Test func updateWrapsTheFactory() {
            let resolver = Resolver()
            let registration = resolver.register { _, args in (args() as Int) * 2 }.registration
            registration.update { factory in
                { r, args in (factory(r, args) ?? 0) + 1 }
            }
            #expect(resolver.resolve(Int.self, args: 5) == 11)
            registration.update { factory in
                { r, args in (factory(r, args) ?? 0) * 10 }
            }
            #expect(resolver.resolve(Int.self, args: 5) == 110)
        }

        @Test func customScopeCallsInstantiate() {
            final class CountingScope: ResolverScope, @unchecked Sendable {
                let counter = Counter()
                override func resolve<Service>(registration: ResolverRegistration<Service>, resolver: Resolver, args: Any?) -> Service? {
                    counter.increment()
                    return registration.instantiate(resolver: resolver, args: args)
                }
            }
            let scope = CountingScope()
            let resolver = Resolver()
            resolver.register { Leaf() }.scope(scope)
            let a: Leaf = resolver.resolve()
            let b: Leaf = resolver.resolve()
            #expect(a !== b)
            #expect(scope.counter.count == 2)
        }
    }
}
