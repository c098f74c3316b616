import CRegistry
import CRegistry.Testing
import Foundation
@testable import Resolver
import Testing

extension ResolverTests {
    /// The per-thread cache of cached instances (crg_tcache.h): a cached
    /// resolve answered from it must never outlive a write. Each test fills
    /// the cache (two resolves: the first finds and remembers, the second
    /// hits), makes one kind of write, and checks the next resolve sees it.
    @Suite struct ThreadCache {
        final class Service: @unchecked Sendable { let id = Serial.next() }

        /// Resolves twice (filling this thread's cache) and returns the instance.
        func warm(_ resolver: Resolver, name: Resolver.Name? = nil) -> Service {
            let first = resolver.resolve(Service.self, name: name)
            let second = resolver.resolve(Service.self, name: name)
            #expect(first === second)
            return second
        }

        @Test func aHitReturnsTheCachedInstanceWithoutALookup() {
            let resolver = Resolver(child: nil, isolatedScopes: true)
            resolver.register { Service() }.scope(.application)
            let service = warm(resolver)
            let version = crg_tcache_version()
            #expect(version & 1 == 0, "no write in progress")
            #expect(resolver.resolve(Service.self) === service)
            #expect(crg_tcache_version() == version, "a resolve writes no version")
        }

        @Test func reRegisteringIsSeenAtOnce() {
            let resolver = Resolver(child: nil, isolatedScopes: true)
            resolver.register { Service() }.scope(.application)
            let old = warm(resolver)
            resolver.register { Service() }.scope(.cached)
            #expect(resolver.resolve(Service.self) !== old)
        }

        /// A transient resolve remembers its registration, not an instance:
        /// each resolve still makes a new one, and a new registration replaces
        /// the remembered one at once.
        @Test func aRememberedRegistrationMakesNewInstancesAndIsReplacedAtOnce() {
            final class Made: @unchecked Sendable { let by: String; init(_ by: String) { self.by = by } }
            let resolver = Resolver()
            resolver.register { Made("first") }.scope(.unique)
            let one = resolver.resolve(Made.self)
            let two = resolver.resolve(Made.self)
            let three = resolver.resolve(Made.self)
            #expect(one !== two && two !== three && one.by == "first" && three.by == "first")
            resolver.register { Made("second") }.scope(.graph)
            #expect(resolver.resolve(Made.self).by == "second")
            #expect(resolver.resolve(Made.self).by == "second")
            #expect(resolver.optional(Made.self, name: "other") == nil)
        }

        @Test func namedRegistrationsAreCachedApart() {
            let resolver = Resolver(child: nil, isolatedScopes: true)
            resolver.register(name: "a") { Service() }.scope(.application)
            resolver.register(name: "b") { Service() }.scope(.application)
            resolver.register { Service() }.scope(.application)
            let a = warm(resolver, name: "a")
            let b = warm(resolver, name: "b")
            let unnamed = warm(resolver)
            #expect(a !== b && b !== unnamed && a !== unnamed)
            let dynamicName = Resolver.Name(String("a"))
            #expect(resolver.resolve(Service.self, name: dynamicName) === a, "another spelling of the name")
        }

        @Test func aScopeResetIsSeenAtOnce() {
            let resolver = Resolver()
            let scope = ResolverScopeCache()
            resolver.register { Service() }.scope(scope)
            let old = warm(resolver)
            scope.reset()
            #expect(resolver.resolve(Service.self) !== old)
        }

        @Test func changingTheScopeIsSeenAtOnce() {
            let resolver = Resolver(child: nil, isolatedScopes: true)
            let options = resolver.register { Service() }.scope(.application)
            let old = warm(resolver)
            options.scope(.unique)
            let next = resolver.resolve(Service.self)
            #expect(next !== old && resolver.resolve(Service.self) !== next)
        }

        @Test func aRegistrationInTheParentShadowsTheChildAtOnce() {
            let child = Resolver(child: nil, isolatedScopes: true)
            let parent = Resolver(child: child, isolatedScopes: true)
            child.register { Service() }.scope(.application)
            let fromChild = warm(parent)
            // Another scope: the parent's `.application` cache still holds the
            // instance it cached under this type (caches key on type and name).
            parent.register { Service() }.scope(.cached)
            #expect(parent.resolve(Service.self) !== fromChild)
        }

        @Test func replacingAContainersCacheIsSeenAtOnce() {
            let resolver = Resolver()
            resolver.register { Service() }.scope(.container)
            let old = warm(resolver)
            resolver.cache = ResolverScopeCache()
            #expect(resolver.resolve(Service.self) !== old)
        }

        @Test func containersDoNotShareEntries() {
            let one = Resolver(child: nil, isolatedScopes: true)
            let two = Resolver(child: nil, isolatedScopes: true)
            one.register { Service() }.scope(.application)
            two.register { Service() }.scope(.application)
            #expect(warm(one) !== warm(two))
        }

        /// Containers made and dropped in a loop reuse addresses: a new one
        /// must never answer with a dropped one's instance.
        @Test func aNewContainerAtAnOldAddressFindsNothingOld() {
            var seen = Set<ObjectIdentifier>()
            for _ in 0..<200 {
                let resolver = Resolver(child: nil, isolatedScopes: true)
                resolver.register { Service() }.scope(.application)
                let service = warm(resolver)
                #expect(seen.insert(ObjectIdentifier(service)).inserted || true)
                #expect(service.id == resolver.resolve(Service.self).id)
                let fresh = Resolver(child: nil, isolatedScopes: true)
                #expect(fresh.optional(Service.self) == nil, "nothing registered in a new container")
                withExtendedLifetime(service) {}
            }
        }

        /// A write on another thread that has returned is seen by this
        /// thread's next resolve (linearizable), while this thread's cache
        /// held the old instance.
        @Test func aWriteOnAnotherThreadIsSeenAfterItReturns() {
            let resolver = Resolver()
            let scope = ResolverScopeCache()
            resolver.register { Service() }.scope(scope)
            for _ in 0..<100 {
                let old = warm(resolver)
                let written = Locked(false)
                let thread = Thread {
                    scope.reset()
                    written.withLock { $0 = true }
                }
                thread.start()
                #expect(eventually(within: 10) { written.withLock { $0 } })
                #expect(resolver.resolve(Service.self) !== old)
            }
        }

        #if DEBUG
        /// The decorator sees every resolve, cached ones too.
        @Test func theDecoratorSeesCachedResolves() {
            let resolver = Resolver(child: nil, isolatedScopes: true)
            resolver.register { Service() }.scope(.application)
            _ = warm(resolver)
            let calls = Locked(0)
            Resolver.decorate = { @Sendable _ in calls.withLock { $0 += 1 } }
            defer { Resolver.decorate = nil }
            _ = resolver.resolve(Service.self)
            _ = resolver.resolve(Service.self)
            #expect(calls.withLock { $0 } == 2)
        }
        #endif
    }
}
