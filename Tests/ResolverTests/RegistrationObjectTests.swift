import Foundation
import Resolver
import Testing

private final class S5 { let id = Serial.next() }
private final class S6 { let id = Serial.next() }

/// A registration made by hand, under `key` rather than its type's.
private func handMadeRegistration<Service>(_ key: Int, name: Resolver.Name? = nil, in resolver: Resolver,
                                          _ factory: @escaping () -> Service) -> ResolverRegistration<Service> {
    ResolverRegistration(resolver: resolver, key: key, name: name) { _, _ in factory() }
}

extension IndependentTests {
    /// `ResolverRegistration`: key, cacheKey, instantiate, update, custom
    /// scopes, hand-made registrations in a scope of the test's own.
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

        @Test func aHandMadeRegistrationIsBuiltOnceAcrossThreads() {
            let scope = ResolverScopeCache()
            let resolver = Resolver()
            let made = Counter()
            let registration = handMadeRegistration(7, in: resolver) { () -> S5 in
                made.increment()
                usleep(20_000)
                return S5()
            }
            let ids = Locked<[Int]>([])
            let finished = runOnThreads(8, within: 10) { _ in
                let id = scope.resolve(registration: registration, resolver: resolver, args: nil)?.id ?? -1
                ids.withLock { $0.append(id) }
            }
            #expect(finished)
            #expect(made.count == 1)
            let all = ids.withLock { $0 }
            #expect(all.count == 8 && Set(all).count == 1)
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

extension ResolverTests {
    /// `ResolverRegistration` through the app-wide caches.
    ///
    /// Hand-made registrations and the caching scopes (issue 19): 1.5.1
    /// kept a registration's instance under its `cacheKey`, "key" or
    /// "key:name", and `register` gives every registration the key of its
    /// type. So hand-made registrations under two keys cache two
    /// instances, and one whose key is not its type's does not share the
    /// instance of the ordinary registration.
    @Suite struct RegistrationObjectInAppWideScopes {
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

        @Test func handMadeRegistrationsUnderTwoKeysCacheTwoInstances() {
            defer { ResolverScope.cached.reset() }
            let resolver = Resolver()
            let one = handMadeRegistration(1, in: resolver) { S5() }
            let two = handMadeRegistration(2, in: resolver) { S5() }
            let a = ResolverScope.cached.resolve(registration: one, resolver: resolver, args: nil)
            let b = ResolverScope.cached.resolve(registration: two, resolver: resolver, args: nil)
            #expect(a != nil && b != nil)
            #expect(a !== b, "keys 1 and 2 are two cache keys")
            #expect(ResolverScope.cached.resolve(registration: one, resolver: resolver, args: nil) === a)
            #expect(ResolverScope.cached.resolve(registration: two, resolver: resolver, args: nil) === b)
            // Key and name: "1" and "1:n" are two keys, "1:n" is one.
            let named = handMadeRegistration(1, name: "n", in: resolver) { S5() }
            let namedAgain = handMadeRegistration(1, name: "n", in: resolver) { S5() }
            let c = ResolverScope.cached.resolve(registration: named, resolver: resolver, args: nil)
            #expect(c !== a && c !== b)
            #expect(ResolverScope.cached.resolve(registration: namedAgain, resolver: resolver, args: nil) === c)
            // Through the registration's own scope, and in the other caching scopes.
            ResolverOptions(registration: one).scope(.cached)
            #expect(one.resolve(resolver: resolver, args: nil) === a)
            for scope in [ResolverScopeCache(), ResolverScope.shared] as [ResolverScope] {
                let x = scope.resolve(registration: one, resolver: resolver, args: nil)
                let y = scope.resolve(registration: two, resolver: resolver, args: nil)
                #expect(x !== y && x !== a)
                #expect(scope.resolve(registration: one, resolver: resolver, args: nil) === x)
                #expect(scope.resolve(registration: two, resolver: resolver, args: nil) === y)
            }
        }

        @Test func aHandMadeRegistrationDoesNotShareTheOrdinaryCachedInstance() {
            defer { ResolverScope.cached.reset() }
            let resolver = Resolver()
            resolver.register { S5() }.scope(.cached)
            let ordinary: S5 = resolver.resolve()
            let handMade = handMadeRegistration(1, in: resolver) { S5() }
            let made = ResolverScope.cached.resolve(registration: handMade, resolver: resolver, args: nil)
            #expect(made != nil && made !== ordinary, "1.5.1 makes a second instance")
            #expect(ResolverScope.cached.resolve(registration: handMade, resolver: resolver, args: nil) === made)
            #expect(resolver.resolve(S5.self) === ordinary)

            // The other direction: the hand-made one cached first.
            ResolverScope.cached.reset()
            let first = ResolverScope.cached.resolve(registration: handMade, resolver: resolver, args: nil)
            let second: S5 = resolver.resolve()
            #expect(first != nil && second !== first)
            #expect(resolver.resolve(S5.self) === second)

            // The container scope: the container's cache keys the same way.
            let container = Resolver()
            container.register { S6() }.scope(.container)
            let inContainer: S6 = container.resolve()
            let handMadeS6 = handMadeRegistration(1, in: container) { S6() }
            ResolverOptions(registration: handMadeS6).scope(.container)
            let handMadeInContainer = handMadeS6.resolve(resolver: container, args: nil)
            #expect(handMadeInContainer != nil && handMadeInContainer !== inContainer)
            #expect(handMadeS6.resolve(resolver: container, args: nil) === handMadeInContainer)
            #expect(container.resolve(S6.self) === inContainer)
        }

        @Test func aHandMadeRegistrationWithItsTypesKeySharesTheOrdinaryInstance() {
            defer { ResolverScope.cached.reset() }
            let resolver = Resolver()
            resolver.register(name: "n") { S5() }.scope(.cached)
            let ordinary: S5 = resolver.resolve(name: "n")
            let typeKey = Int(bitPattern: ObjectIdentifier(S5.self))
            let handMade = handMadeRegistration(typeKey, name: "n", in: resolver) { S5() }
            #expect(handMade.cacheKey == resolver.register(name: "n") { S5() }.scope(.cached).registration.cacheKey)
            #expect(ResolverScope.cached.resolve(registration: handMade, resolver: resolver, args: nil) === ordinary,
                    "one cacheKey, one instance, as in 1.5.1")
        }

        @Test func handMadeRegistrationsOfTwoTypesUnderOneKeyShareItsEntry() {
            defer { ResolverScope.cached.reset() }
            let resolver = Resolver()
            let s5 = handMadeRegistration(1, in: resolver) { S5() }
            let s6 = handMadeRegistration(1, in: resolver) { S6() }
            let a1 = ResolverScope.cached.resolve(registration: s5, resolver: resolver, args: nil)
            #expect(ResolverScope.cached.resolve(registration: s5, resolver: resolver, args: nil) === a1)
            let b1 = ResolverScope.cached.resolve(registration: s6, resolver: resolver, args: nil)
            #expect(b1 != nil)
            #expect(ResolverScope.cached.resolve(registration: s6, resolver: resolver, args: nil) === b1)
            // The entry "1" now holds an S6: an S5 is made again and replaces it.
            let a2 = ResolverScope.cached.resolve(registration: s5, resolver: resolver, args: nil)
            #expect(a2 != nil && a2 !== a1)
            // A protocol registration under that key finds the instance that
            // conforms (1.5.1's `as? Service`).
            let asAny = handMadeRegistration(1, in: resolver) { S6() as AnyObject }
            #expect(ResolverScope.cached.resolve(registration: asAny, resolver: resolver, args: nil) === a2)
            // Value types too.
            let int = handMadeRegistration(3, in: resolver) { Serial.next() }
            let string = handMadeRegistration(3, in: resolver) { "s\(Serial.next())" }
            let i1 = ResolverScope.cached.resolve(registration: int, resolver: resolver, args: nil)
            #expect(ResolverScope.cached.resolve(registration: int, resolver: resolver, args: nil) == i1)
            let s1 = ResolverScope.cached.resolve(registration: string, resolver: resolver, args: nil)
            #expect(ResolverScope.cached.resolve(registration: string, resolver: resolver, args: nil) == s1)
            #expect(ResolverScope.cached.resolve(registration: int, resolver: resolver, args: nil) != i1)
        }
    }
}
