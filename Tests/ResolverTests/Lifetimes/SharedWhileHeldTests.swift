import Foundation
@testable import Resolver
import Testing

// A `.shared` instance is kept while it is held (issue 42): a build that
// replaces a dead entry of its scope must not make another build of the
// same scope, under way at that moment (the service that depends on it),
// keep nothing. Each test uses a container with isolated scopes, so its
// `.shared` scope is its own.

/// A store that a shared service depends on.
final class HeldStore: @unchecked Sendable {
    let serial = Serial.next()
}

/// A shared service with a shared dependency.
final class HeldService: @unchecked Sendable {
    let store: HeldStore
    let serial = Serial.next()
    init(store: HeldStore) { self.store = store }
}

extension ResolverKeys {
    fileprivate var heldStore: ResolverKey<HeldStore> { ResolverKey { HeldStore() }.scope(.shared) }
    fileprivate var heldService: ResolverKey<HeldService> {
        ResolverKey { r in HeldService(store: r.resolve(\.heldStore)) }.scope(.shared)
    }
}

extension IndependentTests {
    @Suite struct SharedWhileHeld {
        /// Resolves twice while the first instance is held: the same one.
        /// Both dependencies are released between rounds, so every round
        /// after the first replaces two dead entries.
        private func roundsKeepTheHeldInstance(_ resolve: () -> HeldService) {
            for round in 0..<4 {
                let first = resolve()
                let second = resolve()
                #expect(first === second, "round \(round): a second instance while the first is held")
                #expect(first.store === second.store)
            }
        }

        @Test func aHeldSharedServiceWithASharedDependencyIsReturnedAgainByType() {
            let resolver = Resolver(child: nil, isolatedScopes: true)
            resolver.register { HeldStore() }.scope(.shared)
            resolver.register { r in HeldService(store: r.resolve()) }.scope(.shared)
            roundsKeepTheHeldInstance { resolver.resolve() }
        }

        @Test func aHeldSharedServiceWithASharedDependencyIsReturnedAgainByName() {
            let resolver = Resolver(child: nil, isolatedScopes: true)
            resolver.register(name: "store") { HeldStore() }.scope(.shared)
            resolver.register(name: "service") { r in HeldService(store: r.resolve(name: "store")) }.scope(.shared)
            roundsKeepTheHeldInstance { resolver.resolve(name: "service") }
        }

        @Test func aHeldSharedServiceWithASharedDependencyIsReturnedAgainByKey() {
            let resolver = Resolver(child: nil, isolatedScopes: true)
            roundsKeepTheHeldInstance { resolver.resolve(\.heldService) }
        }

        @Test func aHeldSharedServiceWithASharedDependencyIsReturnedAgainAsync() async {
            let resolver = Resolver(child: nil, isolatedScopes: true)
            resolver.register { HeldStore() }.scope(.shared)
            resolver.register { r in HeldService(store: r.resolve()) }.scope(.shared)
            for round in 0..<4 {
                let first: HeldService = await resolver.resolveAsync()
                let second: HeldService = await resolver.resolveAsync()
                #expect(first === second, "round \(round): a second instance while the first is held")
            }
        }

        @Test func aHeldSharedServiceWithAnAsyncSharedDependencyIsReturnedAgain() async {
            let resolver = Resolver(child: nil, isolatedScopes: true)
            resolver.register { () async -> HeldStore in
                await Task.yield()
                return HeldStore()
            }.scope(.shared)
            resolver.register { (r: Resolver) async -> HeldService in
                HeldService(store: await r.resolveAsync())
            }.scope(.shared)
            for round in 0..<4 {
                let first: HeldService = await resolver.resolveAsync()
                let second: HeldService = await resolver.resolveAsync()
                #expect(first === second, "round \(round): a second instance while the first is held")
            }
        }

        /// Resetting one service drops the builds of that service only: a
        /// build of another service of the scope, under way at that moment,
        /// keeps its instance.
        @Test func resettingOneServiceDuringAnotherServicesBuildKeepsThatBuild() {
            let scope = ResolverScopeCache()
            let resolver = Resolver()
            let made = Counter()
            resolver.register { Leaf() }.scope(scope)
            resolver.register { () -> XYZSessionService in
                made.increment()
                scope.reset(Leaf.self)
                return XYZSessionService()
            }.scope(scope)
            let leaf: Leaf = resolver.resolve()
            let first: XYZSessionService = resolver.resolve()
            #expect(resolver.resolve(XYZSessionService.self) === first)
            #expect(made.count == 1)
            #expect(resolver.resolve(Leaf.self) !== leaf, "the reset service is built again")
        }

        /// A reset of one service while it is being built: that build keeps
        /// nothing, so the next resolve builds it again.
        @Test func resettingAServiceDuringItsOwnBuildKeepsNothing() {
            let scope = ResolverScopeCache()
            let resolver = Resolver()
            resolver.register { () -> Leaf in
                scope.reset(Leaf.self)
                return Leaf()
            }.scope(scope)
            let first: Leaf = resolver.resolve()
            #expect(resolver.resolve(Leaf.self) !== first)
        }
    }
}
