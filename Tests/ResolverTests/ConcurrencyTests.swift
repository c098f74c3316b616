import Foundation
import Resolver
import Synchronization
import Testing

extension ResolverTests {
    /// Exactly-once builds, no deadlock across threads, and consistency
    /// while registrations change.
    @Suite struct Concurrency {
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
            // NSLock rather than Synchronization.Mutex: on Linux the latter
            // blocks with raw futex calls that ThreadSanitizer cannot see.
            final class IDs: @unchecked Sendable {
                let lock = NSLock()
                var values: [Int] = []
                func add(_ id: Int) { lock.lock(); values.append(id); lock.unlock() }
            }
            let start = DispatchSemaphore(value: 0)
            let ids = IDs()
            let group = DispatchGroup()
            for _ in 0..<16 {
                group.enter()
                Thread.detachNewThread {
                    start.wait()
                    ids.add(resolver.resolve(XYZSessionService.self).id)
                    group.leave()
                }
            }
            for _ in 0..<16 { start.signal() }
            group.wait()
            #expect(runs.count == 1)
            let all = ids.values
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
            final class Held: @unchecked Sendable {
                let lock = NSLock()
                var services: [XYZSessionService] = []
                func add(_ service: XYZSessionService) { lock.lock(); services.append(service); lock.unlock() }
            }
            let start = DispatchSemaphore(value: 0)
            let held = Held()
            let group = DispatchGroup()
            for _ in 0..<16 {
                group.enter()
                Thread.detachNewThread {
                    start.wait()
                    held.add(resolver.resolve(XYZSessionService.self))
                    group.leave()
                }
            }
            for _ in 0..<16 { start.signal() }
            group.wait()
            let all = held.services
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
            Thread.detachNewThread {
                inFactory.wait()
                _ = resolver.resolve(Leaf.self)
                otherDone.signal()
            }
            #expect(resolver.resolve(Waiting.self).otherThreadResolved)
            ResolverScope.cached.reset()
        }

        /// Same, when the waiting factory builds an `.application` service
        /// and the other thread needs a different one.
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
            Thread.detachNewThread {
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
            let group = DispatchGroup()
            for _ in 0..<3 {
                group.enter()
                Thread.detachNewThread {
                    while !stop.load(ordering: .relaxed) {
                        let value = resolver.resolve(String.self)
                        if !value.hasPrefix("v") { bad.add(1, ordering: .relaxed) }
                        resolved.add(1, ordering: .relaxed)
                    }
                    group.leave()
                }
            }
            for i in 1...20_000 {
                let text = "v\(i)"
                if i % 2 == 0 {
                    resolver.register { text }.scope(.unique)
                } else {
                    resolver.register { text }.scope(ResolverScopeCache())
                }
            }
            stop.store(true, ordering: .relaxed)
            group.wait()
            #expect(bad.load(ordering: .relaxed) == 0)
            #expect(resolved.load(ordering: .relaxed) > 0)
            #expect(resolver.resolve(String.self) == "v20000")
        }
    }
}
