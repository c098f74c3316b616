import Foundation
import Resolver
import Synchronization
import Testing

extension IndependentTests {
    /// Exactly-once builds, no deadlock across threads, and consistency
    /// while registrations change.
    @Suite struct Concurrency {
        /// A factory that waits for another thread, which builds another
        /// service meanwhile, completes: here both are in caching scopes
        /// (`ResolverScopeCache`, the class of `.application`) of the test's
        /// own. (Holding one lock through every factory, as the original
        /// does, deadlocks here; the timeout turns that into a failure.)
        @Test func anApplicationFactoryMayWaitForAnotherBuild() {
            final class First { let ok: Bool; init(_ ok: Bool) { self.ok = ok } }
            final class Second {}
            let resolver = Resolver()
            let inFactory = DispatchSemaphore(value: 0)
            let otherDone = DispatchSemaphore(value: 0)
            resolver.register { () -> First in
                inFactory.signal()
                return First(otherDone.wait(timeout: .now() + 10) == .success)
            }.scope(ResolverScopeCache())
            resolver.register { Second() }.scope(ResolverScopeCache())
            startThread {
                inFactory.wait()
                _ = resolver.resolve(Second.self)
                otherDone.signal()
            }
            #expect(resolver.resolve(First.self).ok)
        }

        /// Threads that resolve while another re-registers always get a whole
        /// registration: one of the factories, with its own scope.
        @Test func reRegisteringWhileResolving() {
            let resolver = Resolver()
            resolver.register { "v0" }
            let stop = Atomic<Bool>(false)
            let bad = Atomic<Int>(0)
            let resolved = Atomic<Int>(0)
            runOnThreads(4) { thread in
                guard thread > 0 else {
                    for i in 1...20_000 {
                        let text = "v\(i)"
                        if i % 2 == 0 {
                            resolver.register { text }.scope(.unique)
                        } else {
                            resolver.register { text }.scope(ResolverScopeCache())
                        }
                    }
                    stop.store(true, ordering: .relaxed)
                    return
                }
                while !stop.load(ordering: .relaxed) {
                    let value = resolver.resolve(String.self)
                    if !value.hasPrefix("v") { bad.add(1, ordering: .relaxed) }
                    resolved.add(1, ordering: .relaxed)
                }
            }
            #expect(bad.load(ordering: .relaxed) == 0)
            #expect(resolved.load(ordering: .relaxed) > 0)
            #expect(resolver.resolve(String.self) == "v20000")
        }
    }
}

extension ResolverTests {
    /// Exactly-once builds and waits across threads in the app-wide caching
    /// scopes.
    @Suite struct ConcurrencyInAppWideScopes {
        /// 16 threads released together ask for one `.application` service
        /// whose factory is slow: one factory run, one instance for all.
        @Test(arguments: [ResolverScope.application, ResolverScope.cached, ResolverScopeCache()])
        func cachingScopesBuildExactlyOnce(scope: ResolverScope) {
            let resolver = Resolver()
            let runs = Counter()
            resolver.register { () -> XYZSessionService in
                runs.increment()
                usleep(50_000)
                return XYZSessionService()
            }.scope(scope)
            let ids = Locked<[Int]>([])
            runOnThreads(16) { _ in
                let id = resolver.resolve(XYZSessionService.self).id
                ids.withLock { $0.append(id) }
            }
            #expect(runs.count == 1)
            let all = ids.withLock { $0 }
            #expect(all.count == 16 && Set(all).count == 1)
            scope.reset()
        }

        /// `.shared` builds once too: threads asking at the same moment, and
        /// holding what they get, all hold one instance.
        @Test func sharedScopeBuildsOnceForConcurrentRequests() {
            let resolver = Resolver()
            let runs = Counter()
            resolver.register { () -> XYZSessionService in
                runs.increment()
                usleep(20_000)
                return XYZSessionService()
            }.scope(.shared)
            let held = Locked<[XYZSessionService]>([])
            runOnThreads(16) { _ in
                let service = resolver.resolve(XYZSessionService.self)
                held.withLock { $0.append(service) }
            }
            let all = held.withLock { $0 }
            #expect(runs.count == 1)
            #expect(Set(all.map(ObjectIdentifier.init)).count == 1)
        }

        /// A factory that waits for another thread, which resolves in turn,
        /// completes. (Holding one lock through every factory, as the original
        /// does, deadlocks here; the timeout turns that into a failure.)
        @Test func aFactoryMayWaitForAThreadThatResolves() {
            final class Waiting { let otherThreadResolved: Bool; init(_ ok: Bool) { otherThreadResolved = ok } }
            let resolver = Resolver()
            let inFactory = DispatchSemaphore(value: 0)
            let otherDone = DispatchSemaphore(value: 0)
            resolver.register { () -> Waiting in
                inFactory.signal()
                return Waiting(otherDone.wait(timeout: .now() + 10) == .success)
            }
            resolver.register { Leaf() }.scope(.cached)
            startThread {
                inFactory.wait()
                _ = resolver.resolve(Leaf.self)
                otherDone.signal()
            }
            #expect(resolver.resolve(Waiting.self).otherThreadResolved)
            ResolverScope.cached.reset()
        }
    }
}
