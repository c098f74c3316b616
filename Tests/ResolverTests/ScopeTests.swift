import Foundation
import Resolver
import Testing

extension ResolverScope {
    /// A custom scope the way apps declare one.
    static let session = ResolverScopeCache()
}

extension IndependentTests {
    /// The graph, unique and container scopes, and caching scopes of a
    /// test's own: what they share and for how long.
    @Suite struct Scopes {
        @Test func graphSharesInstancesWithinOneResolution() {
            let resolver = Resolver()
            resolver.register { Leaf() }
            resolver.register { r in Middle(leaf: r.resolve()) }
            resolver.register { r in Top(middle: r.resolve(), leaf: r.resolve()) }
            let top: Top = resolver.resolve()
            #expect(top.middle.leaf === top.leaf)
            let another: Top = resolver.resolve()
            #expect(another.leaf !== top.leaf, "a new top-level resolution makes new instances")
        }

        /// A registration made without a scope behaves as `.graph`: one
        /// instance within a resolution (not `.unique`), a new one in the next
        /// (not a cache, not `.shared` while the first is still held).
        @Test func graphIsTheDefault() {
            final class Pair { let a: Leaf; let b: Leaf; init(a: Leaf, b: Leaf) { self.a = a; self.b = b } }
            #expect(Resolver.defaultScope === ResolverScope.graph)
            let resolver = Resolver()
            resolver.register { Leaf() }
            resolver.register { r in Pair(a: r.resolve(), b: r.resolve()) }.scope(.unique)
            let first: Pair = resolver.resolve()
            let second: Pair = resolver.resolve()
            #expect(first.a === first.b, "one instance within a resolution")
            #expect(first.a !== second.a, "a new one in the next resolution")
        }

        @Test func graphMakesValueTypesAnew() {
            struct Pair { let a: ValueService; let b: ValueService }
            let resolver = Resolver()
            resolver.register { ValueService() }
            resolver.register { r in Pair(a: r.resolve(), b: r.resolve()) }
            let pair: Pair = resolver.resolve()
            #expect(pair.a != pair.b)
        }

        @Test func graphKeepsClassInstancesBehindProtocols() {
            final class Holder { let a: XYZFetching; let b: XYZFetching; init(a: XYZFetching, b: XYZFetching) { self.a = a; self.b = b } }
            let resolver = Resolver()
            resolver.register { XYZService() as XYZFetching }
            resolver.register { r in Holder(a: r.resolve(), b: r.resolve()) }
            let holder: Holder = resolver.resolve()
            #expect(holder.a === holder.b)
        }

        @Test func graphIsPerNameToo() {
            final class Two { let x: Leaf; let y: Leaf; let x2: Leaf
                init(x: Leaf, y: Leaf, x2: Leaf) { self.x = x; self.y = y; self.x2 = x2 } }
            let resolver = Resolver()
            resolver.register(name: "x") { Leaf() }
            resolver.register(name: "y") { Leaf() }
            resolver.register { r in Two(x: r.resolve(name: "x"), y: r.resolve(name: "y"), x2: r.resolve(name: "x")) }
            let two: Two = resolver.resolve()
            #expect(two.x === two.x2)
            #expect(two.x !== two.y)
        }

        /// The graph is keyed by type and name, not by registration: a
        /// factory that resolves one key from two containers (each with a
        /// registration of its own) gets one instance within a resolution;
        /// another name of the same type stays apart.
        @Test func graphSharesAKeyAcrossRegistrations() {
            final class Three { let own: Leaf; let other: Leaf; let otherName: Leaf
                init(own: Leaf, other: Leaf, otherName: Leaf) { self.own = own; self.other = other; self.otherName = otherName } }
            let main = Resolver()
            let other = Resolver()
            main.register(name: "x") { Leaf() }
            other.register(name: "x") { Leaf() }
            other.register(name: "y") { Leaf() }
            main.register { _ in
                Three(own: main.resolve(name: "x"), other: other.resolve(name: "x"), otherName: other.resolve(name: "y"))
            }
            let three: Three = main.resolve()
            #expect(three.own === three.other)
            #expect(three.otherName !== three.own)
            let again: Three = main.resolve()
            #expect(again.own !== three.own, "a new resolution makes new instances")
        }

        /// One instance per registration within a resolution, whatever the
        /// arguments, as 1.5.1's graph scope kept it (Scopes.md).
        @Test func graphKeepsOneInstancePerRegistrationWhateverTheArguments() {
            final class User { let id: Int; init(id: Int) { self.id = id } }
            final class Pair { let a: User; let b: User; init(a: User, b: User) { self.a = a; self.b = b } }
            let resolver = Resolver()
            resolver.register(arguments: Int.self) { _, id in User(id: id) }.scope(.graph)
            resolver.register { r in Pair(a: r.resolve(User.self, arguments: 1), b: r.resolve(User.self, arguments: 2)) }
            let pair: Pair = resolver.resolve()
            #expect(pair.a === pair.b && pair.b.id == 1)
            #expect(resolver.resolve(User.self, arguments: 2).id == 2, "a new resolution makes its own")
        }

        @Test func uniqueAlwaysMakesANewInstance() {
            final class Pair { let a: Leaf; let b: Leaf; init(a: Leaf, b: Leaf) { self.a = a; self.b = b } }
            let resolver = Resolver()
            resolver.register { Leaf() }.scope(.unique)
            resolver.register { r in Pair(a: r.resolve(), b: r.resolve()) }
            let pair: Pair = resolver.resolve()
            #expect(pair.a !== pair.b)
        }

        @Test func containerScopeCachesPerResolvingContainer() {
            let shared = Resolver()
            shared.register { Leaf() }.scope(.container)
            let first = Resolver(child: shared)
            let second = Resolver(child: shared)
            let a1: Leaf = first.resolve(), a2: Leaf = first.resolve()
            let b1: Leaf = second.resolve()
            #expect(a1 === a2)
            #expect(a1 !== b1)
            first.cache.reset()
            #expect(first.resolve(Leaf.self) !== a1)
            #expect(second.resolve(Leaf.self) === b1)
        }

        @Test func containerCacheCanBeReplaced() {
            let resolver = Resolver()
            resolver.register { Leaf() }.scope(.container)
            let a: Leaf = resolver.resolve()
            resolver.cache = ResolverScope.unique
            #expect(resolver.resolve(Leaf.self) !== resolver.resolve(Leaf.self))
            resolver.cache = ResolverScopeCache()
            let b: Leaf = resolver.resolve()
            #expect(b !== a && resolver.resolve(Leaf.self) === b)
        }

        /// A reset while a caching scope builds an instance starts a new
        /// generation: the build returns its instance but does not keep it.
        /// So a factory that resets its own scope leaves its instance
        /// uncached, where 1.5.1 cached it (issue 19; the migration article
        /// lists it).
        @Test func aFactoryThatResetsItsScopeLeavesItsInstanceUncached() {
            let scope = ResolverScopeCache()
            let resolver = Resolver()
            let made = Counter()
            resolver.register { () -> Leaf in
                made.increment()
                scope.reset()
                return Leaf()
            }.scope(scope)
            let a: Leaf = resolver.resolve()
            let b: Leaf = resolver.resolve()
            #expect(a !== b, "1.5.1 returns one instance twice")
            #expect(made.count == 2)

            // The same factory without the reset: kept.
            resolver.register(name: "plain") { () -> Leaf in made.increment(); return Leaf() }.scope(scope)
            let c: Leaf = resolver.resolve(name: "plain")
            #expect(resolver.resolve(Leaf.self, name: "plain") === c)
            #expect(made.count == 3)
        }

        @Test func twoThreadsNeverShareGraphInstances() {
            final class Slow { let leaf: Leaf; init(leaf: Leaf) { self.leaf = leaf } }
            final class Pair { let a: Slow; let b: Leaf; init(a: Slow, b: Leaf) { self.a = a; self.b = b } }
            let resolver = Resolver()
            resolver.register { Leaf() }
            resolver.register { r in usleep(200); return Slow(leaf: r.resolve()) }
            resolver.register { r in Pair(a: r.resolve(), b: r.resolve()) }
            let results = Locked<[Pair]>([])
            runOnThreads(4) { _ in
                for _ in 0..<50 {
                    let pair = resolver.resolve(Pair.self)
                    results.withLock { $0.append(pair) }
                }
            }
            let pairs = results.withLock { $0 }
            #expect(pairs.count == 200)
            #expect(pairs.allSatisfy { $0.a.leaf === $0.b }, "within a resolution, one Leaf")
            #expect(Set(pairs.map { ObjectIdentifier($0.b) }).count == 200, "across resolutions and threads, never shared")
        }
    }
}

extension ResolverTests {
    /// The app-wide caching scopes (`.application`, `.cached`, `.shared`,
    /// whose caches every container without isolated scopes shares, keyed
    /// by type and name) and the app's custom scope `.session`.
    @Suite struct AppWideScopes {
        @Test func applicationKeepsItsInstanceUntilReset() {
            let resolver = Resolver()
            let made = Counter()
            resolver.register { () -> XYZSessionService in made.increment(); return XYZSessionService() }.scope(.application)
            let a: XYZSessionService = resolver.resolve()
            let b: XYZSessionService = resolver.resolve()
            #expect(a === b && made.count == 1)
            ResolverScope.application.reset()
            let c: XYZSessionService = resolver.resolve()
            #expect(c !== a && made.count == 2)
            ResolverScope.application.reset()
        }

        @Test func applicationKeepsValueTypes() {
            let resolver = Resolver()
            resolver.register { ValueService() }.scope(.application)
            #expect(resolver.resolve(ValueService.self) == resolver.resolve(ValueService.self))
            ResolverScope.application.reset()
        }

        @Test func cachedIsResetOnItsOwn() {
            let resolver = Resolver()
            resolver.register { Leaf() }.scope(.cached)
            resolver.register { XYZSessionService() }.scope(.application)
            let leaf: Leaf = resolver.resolve()
            let session: XYZSessionService = resolver.resolve()
            ResolverScope.cached.reset()
            #expect(resolver.resolve(Leaf.self) !== leaf)
            #expect(resolver.resolve(XYZSessionService.self) === session)
            ResolverScope.application.reset()
            ResolverScope.cached.reset()
        }

        @Test func cachesKeyOnTypeAndName() {
            let resolver = Resolver()
            resolver.register(name: "one") { Leaf() }.scope(.cached)
            resolver.register(name: "two") { Leaf() }.scope(.cached)
            let one: Leaf = resolver.resolve(name: "one")
            let two: Leaf = resolver.resolve(name: "two")
            #expect(one !== two)
            #expect(resolver.resolve(Leaf.self, name: "one") === one)
            ResolverScope.cached.reset()
        }

        /// What a caching scope keeps is its service type and name's, not a
        /// registration's (1.5.1: `cacheKey`): a registration that replaces
        /// another, and one of the same type and name in another container,
        /// find the instance the first one built. (So the instance is kept in
        /// the scope's table under that key, with a memo in the registration
        /// for the reads: DESIGN.md, "Caching scopes: the memo and odd
        /// generations".)
        @Test func whatAScopeKeepsIsTheTypeAndNamesNotTheRegistrations() {
            final class KeptByKey {}
            let made = Counter()
            let first = Resolver()
            first.register(name: "k") { () -> KeptByKey in made.increment(); return KeptByKey() }.scope(.cached)
            let built: KeptByKey = first.resolve(name: "k")
            first.register(name: "k") { () -> KeptByKey in made.increment(); return KeptByKey() }.scope(.cached)
            #expect(first.resolve(KeptByKey.self, name: "k") === built)
            let other = Resolver()
            other.register(name: "k") { () -> KeptByKey in made.increment(); return KeptByKey() }.scope(.cached)
            #expect(other.resolve(KeptByKey.self, name: "k") === built)
            #expect(made.count == 1)
            ResolverScope.cached.reset(KeptByKey.self, name: "k")
            #expect(other.resolve(KeptByKey.self, name: "k") !== built)
            #expect(made.count == 2)
            ResolverScope.cached.reset(KeptByKey.self, name: "k")
        }

        @Test func aNilResultIsNeverCached() {
            let resolver = Resolver()
            let calls = Counter()
            resolver.register { () -> Leaf? in calls.increment(); return calls.count >= 3 ? Leaf() : nil }.scope(.cached)
            #expect(resolver.optional(Leaf.self) == nil)
            #expect(resolver.optional(Leaf.self) == nil)
            let made = resolver.optional(Leaf.self)
            #expect(made != nil)
            #expect(resolver.optional(Leaf.self) === made)
            #expect(calls.count == 3)
            ResolverScope.cached.reset()
        }

        @Test func sharedLivesWhileSomeoneHoldsIt() {
            let resolver = Resolver()
            resolver.register { Leaf() }.scope(.shared)
            var held: Leaf? = resolver.resolve(Leaf.self)
            let id = held!.id
            #expect(resolver.resolve(Leaf.self).id == id)
            weak var weakly: Leaf?
            weakly = held
            held = nil
            #expect(weakly == nil, "the scope does not keep it alive")
            #expect(resolver.resolve(Leaf.self).id != id)
        }

        @Test func sharedMakesValueTypesAnew() {
            let resolver = Resolver()
            resolver.register { ValueService() }.scope(.shared)
            #expect(resolver.resolve(ValueService.self) != resolver.resolve(ValueService.self))
        }

        @Test func sharedWorksBehindAProtocol() {
            let resolver = Resolver()
            resolver.register { XYZService() as XYZFetching }.scope(.shared)
            let held: XYZFetching = resolver.resolve()
            #expect(resolver.resolve(XYZFetching.self) === held)
        }

        @Test func customScopesAreCachesOfTheirOwn() {
            let resolver = Resolver()
            resolver.register { XYZSessionService() }.scope(.session)
            let a: XYZSessionService = resolver.resolve()
            #expect(resolver.resolve(XYZSessionService.self) === a)
            ResolverScope.application.reset()
            #expect(resolver.resolve(XYZSessionService.self) === a)
            ResolverScope.session.reset()
            #expect(resolver.resolve(XYZSessionService.self) !== a)
            ResolverScope.session.reset()
        }

        @Test func resetReleasesWhatTheScopeHeld() {
            let resolver = Resolver()
            resolver.register { Leaf() }.scope(.session)
            weak var weakly: Leaf?
            do {
                let held: Leaf = resolver.resolve()
                weakly = held
            }
            #expect(weakly != nil)
            ResolverScope.session.reset()
            #expect(released { weakly == nil })
        }
    }
}
