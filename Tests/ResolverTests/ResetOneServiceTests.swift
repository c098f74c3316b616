import Dispatch
import Foundation
@testable import Resolver
import Testing

extension IndependentTests {
    /// `scope.reset(Service.self, name:)` on scopes of the test's own: one
    /// service's instance goes, the others stay.
    @Suite struct ResetOneService {
        final class Other: @unchecked Sendable { let id = Serial.next() }

        /// Registers `Leaf`, `Leaf` named "x" and `Other` in `scope`, resolves
        /// each, resets `Leaf` (unnamed) and then "x", checking what is built
        /// again each time.
        func checkResettingOneService(_ scope: ResolverScope, in resolver: Resolver = Resolver()) {
            resolver.register { Leaf() }.scope(scope)
            resolver.register(name: "x") { Leaf() }.scope(scope)
            resolver.register { Other() }.scope(scope)
            let leaf = resolver.resolve(Leaf.self)
            let named = resolver.resolve(Leaf.self, name: "x")
            let other = resolver.resolve(Other.self)
            scope.reset(Leaf.self)
            let newLeaf = resolver.resolve(Leaf.self)
            #expect(newLeaf !== leaf, "the reset service is built again")
            #expect(resolver.resolve(Leaf.self) === newLeaf, "and kept")
            #expect(resolver.resolve(Leaf.self, name: "x") === named, "the same type under a name stays")
            #expect(resolver.resolve(Other.self) === other, "other services stay")
            scope.reset(Leaf.self, name: "x")
            #expect(resolver.resolve(Leaf.self, name: "x") !== named)
            #expect(resolver.resolve(Leaf.self) === newLeaf)
            #expect(resolver.resolve(Other.self) === other)
            withExtendedLifetime((leaf, named, other)) {}
        }

        @Test func aCacheBuildsTheResetServiceAgainAndKeepsTheOthers() {
            checkResettingOneService(ResolverScopeCache())
        }

        @Test func aTimeToLiveScopeBuildsTheResetServiceAgainAndKeepsTheOthers() {
            checkResettingOneService(ResolverScopeTimeToLive(.seconds(60), clock: TestClock()))
        }

        /// A shared instance that is still held elsewhere is dropped too.
        @Test func aSharedScopeForgetsTheResetServiceEvenWhileItIsHeld() {
            checkResettingOneService(ResolverScopeShare())
        }

        /// A container's `cache` (the `.container` scope's instances) is a
        /// `ResolverScopeCache`; `.container` itself keeps nothing.
        @Test func aContainersCacheBuildsTheResetServiceAgain() {
            let resolver = Resolver()
            resolver.register { Leaf() }.scope(.container)
            resolver.register { Other() }.scope(.container)
            let leaf = resolver.resolve(Leaf.self)
            let other = resolver.resolve(Other.self)
            ResolverScope.container.reset(Leaf.self)
            #expect(resolver.resolve(Leaf.self) === leaf, "the container scope keeps nothing of its own")
            resolver.cache.reset(Leaf.self)
            #expect(resolver.resolve(Leaf.self) !== leaf)
            #expect(resolver.resolve(Other.self) === other)

            checkResettingOneService(Resolver().cache)
        }

        /// A service whose factory takes arguments is kept under the
        /// service's key, as every other (so are the instances kept per
        /// argument list, where a registration asks for them): resetting the
        /// key drops it.
        @Test func aServiceMadeWithArgumentsIsBuiltAgain() {
            let scope = ResolverScopeCache()
            let resolver = Resolver()
            resolver.register { _, args in Middle(leaf: args()) }.scope(scope)
            let leaf = Leaf()
            let middle = resolver.resolve(Middle.self, args: leaf)
            #expect(resolver.resolve(Middle.self, args: leaf) === middle)
            scope.reset(Middle.self)
            #expect(resolver.resolve(Middle.self, args: leaf) !== middle)
        }

        @Test func scopesThatKeepNothingHaveNothingToReset() {
            let resolver = Resolver()
            resolver.register { Leaf() }.scope(.graph)
            resolver.register(name: "u") { Leaf() }.scope(.unique)
            ResolverScope.graph.reset(Leaf.self)
            ResolverScope.unique.reset(Leaf.self, name: "u")
            ResolverScope.container.reset(Leaf.self)
            #expect(resolver.resolve(Leaf.self) !== resolver.resolve(Leaf.self))
            #expect(resolver.resolve(Leaf.self, name: "u") !== resolver.resolve(Leaf.self, name: "u"))
        }

        /// Resetting a service the scope has never built is harmless.
        @Test func resettingAServiceTheScopeNeverBuiltChangesNothing() {
            let scope = ResolverScopeCache()
            let resolver = Resolver()
            resolver.register { Leaf() }.scope(scope)
            let leaf = resolver.resolve(Leaf.self)
            let generation = registry.withLock { scope.generation }
            scope.reset(Other.self)
            scope.reset(Leaf.self, name: "never")
            #expect(registry.withLock { scope.generation } == generation, "no change of entries")
            #expect(resolver.resolve(Leaf.self) === leaf)
        }

        /// A build of the service under way when it is reset returns its
        /// instance to the threads that asked (the builder and one that
        /// joined it), but does not keep it (S1).
        @Test func aBuildUnderWayWhenItsServiceIsResetKeepsNothing() {
            let scope = ResolverScopeCache()
            expectAResetDuringABuildKeepsNothing(scope: scope) { scope.reset(Leaf.self) }
        }

        /// A reset of a service the scope neither holds nor builds leaves the
        /// scope's generation alone: a build of another service under way
        /// still keeps its instance.
        @Test func resettingAServiceNeitherHeldNorBuildingLeavesOtherBuildsAlone() {
            let scope = ResolverScopeCache()
            let held = HeldBuild(in: scope)
            let built = Locked<Int?>(nil)
            let builder = held.startBuilding(into: built)
            scope.reset(Other.self)
            held.release()
            #expect(builder.finished(within: 10))
            #expect(held.resolver.resolve(Leaf.self).id == built.withLock { $0 })
            #expect(held.made.count == 1)
        }
    }
}

extension ResolverTests {
    /// `reset(_:name:)` on the app-wide `.application` and `.shared`.
    @Suite struct ResetOneAppWideService {
        final class Settings: @unchecked Sendable { let id = Serial.next() }
        final class Account: @unchecked Sendable { let id = Serial.next() }

        @Test func applicationBuildsTheResetServiceAgainAndKeepsTheOthers() {
            let resolver = Resolver()
            resolver.register { Settings() }.scope(.application)
            resolver.register { Account() }.scope(.application)
            let settings = resolver.resolve(Settings.self)
            let account = resolver.resolve(Account.self)
            #expect(resolver.resolve(Settings.self) === settings, "warm: this thread's cache holds it")
            ResolverScope.application.reset(Account.self)
            #expect(resolver.resolve(Account.self) !== account)
            #expect(resolver.resolve(Settings.self) === settings)
            ResolverScope.application.reset(Settings.self)
            #expect(resolver.resolve(Settings.self) !== settings)
            ResolverScope.application.reset()
        }

        @Test func sharedForgetsTheResetServiceWhileItIsHeld() {
            let resolver = Resolver()
            resolver.register { Settings() }.scope(.shared)
            resolver.register { Account() }.scope(.shared)
            let settings = resolver.resolve(Settings.self)
            let account = resolver.resolve(Account.self)
            ResolverScope.shared.reset(Settings.self)
            #expect(resolver.resolve(Settings.self) !== settings)
            #expect(resolver.resolve(Account.self) === account)
            withExtendedLifetime((settings, account)) {}
            ResolverScope.shared.reset()
        }
    }
}
