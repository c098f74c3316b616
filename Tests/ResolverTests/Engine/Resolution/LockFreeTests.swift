import CRegistry
import Foundation
@testable import Resolver
import Synchronization
import Testing

/// Resolves take no process-wide lock (DESIGN.md): shown by structure, not by
/// timing. Another thread takes the registry's mutex, the lock every writer
/// takes, and parks holding it; each kind of resolve must still complete.
extension ResolverTests {
    @Suite struct LockFree {
        /// A thread that holds the registry mutex until told to let go.
        final class WriterParked: @unchecked Sendable {
            private let holding = DispatchSemaphore(value: 0)
            private let letGo = DispatchSemaphore(value: 0)
            private let done = DispatchSemaphore(value: 0)

            init() {
                startThread { [self] in
                    registry.withLock {
                        holding.signal()
                        letGo.wait()
                    }
                    done.signal()
                }
                holding.wait()
            }

            func release() {
                letGo.signal()
                done.wait()
            }
        }

        /// Runs `body` on another thread and reports whether it finished
        /// within five seconds (a resolve that waited for the parked lock
        /// would not).
        func completes(_ body: @escaping @Sendable () -> Void) -> Bool {
            startThread(body).finished(within: 5)
        }

        final class Service: @unchecked Sendable { let id = Serial.next() }
        final class Dependent: @unchecked Sendable {
            let service: Service
            init(service: Service) { self.service = service }
        }
        final class Owner: @unchecked Sendable {
            @LazyInjected var lazy: Service
            @WeakLazyInjected var weakLazy: Service?
            @Injected(name: "application") var injected: Service
        }

        @Test func everyKindOfResolveCompletesWhileTheWriteLockIsHeld() {
            Resolver.reset()
            let parent = Resolver()
            let child = Resolver()
            parent.add(child: child)
            child.register(name: "in child") { Service() }.scope(.application)
            for (name, scope) in [("application", ResolverScope.application), ("cached", .cached),
                                  ("shared", .shared), ("unique", .unique), ("graph", .graph),
                                  ("container", .container), ("custom", ResolverScope.session)] {
                parent.register(name: Resolver.Name(name)) { Service() }.scope(scope)
                Resolver.register(name: Resolver.Name(name)) { Service() }.scope(scope)
            }
            parent.register { r in Dependent(service: r.resolve(name: "graph")) }
            Resolver.register { r in Dependent(service: r.resolve(name: "graph")) }
            Resolver.register { Service() }.scope(.application)
            // Everything that builds or creates something once does it now,
            // before the lock is taken: registration, cached instances, the
            // container's cache, the property wrappers' first reads.
            let shared: Service = parent.resolve(name: "shared")
            let rootShared: Service = Resolver.resolve(name: "shared")
            for name in ["application", "cached", "container", "custom", "in child"] {
                _ = parent.resolve(Service.self, name: Resolver.Name(name))
                _ = Resolver.optional(Service.self, name: Resolver.Name(name))
            }
            let owner = Owner()
            _ = owner.lazy
            let held = owner.weakLazy

            let parked = WriterParked()
            defer { parked.release() }
            for name in ["application", "cached", "shared", "unique", "graph", "container", "custom"] {
                #expect(completes { _ = parent.resolve(Service.self, name: Resolver.Name(name)) },
                        "\(name) through a given container")
                #expect(completes { _ = Resolver.resolve(Service.self, name: Resolver.Name(name)) },
                        "\(name) through root")
            }
            #expect(completes { _ = parent.resolve(Service.self, name: "in child") }, "through a child")
            #expect(completes { _ = parent.resolve(Dependent.self) }, "a graph through a given container")
            #expect(completes { _ = Resolver.resolve(Dependent.self) }, "a graph through root (the thread's snapshot)")
            #expect(completes { _ = parent.optional(Int.self) }, "a miss")
            #expect(completes { _ = owner.lazy }, "@LazyInjected holding its instance")
            #expect(completes { _ = owner.weakLazy }, "@WeakLazyInjected holding its instance")
            #expect(completes { _ = Owner().injected }, "@Injected, resolving a cached instance")
            withExtendedLifetime((shared, rootShared, held)) {}
        }

        /// A property wrapper shared by several threads is read by them at
        /// once: its getter does not mutate it (ThreadSanitizer would report
        /// an access race on the property itself if it did).
        @Test func threadsReadOneLazyPropertyAtOnce() {
            let resolver = Resolver()
            resolver.register { Service() }.scope(.unique)
            final class Shared: @unchecked Sendable {
                @LazyInjected var service: Service
                @WeakLazyInjected var weakService: Service?
            }
            let object = Shared()
            object.$service.container = resolver
            object.$weakService.container = resolver
            let first = Atomic<Int>(0)
            let differed = Atomic<Int>(0)
            runOnThreads(4) { _ in
                for _ in 0..<2_000 {
                    let id = object.service.id
                    if first.compareExchange(expected: 0, desired: id, ordering: .relaxed).exchanged == false,
                       first.load(ordering: .relaxed) != id {
                        differed.add(1, ordering: .relaxed)
                    }
                    _ = object.weakService
                }
            }
            #expect(differed.load(ordering: .relaxed) == 0, "every thread sees the one instance kept")
        }

        final class Versioned: @unchecked Sendable {
            let version: Int
            init(_ version: Int) { self.version = version }
        }
        final class Epoched: @unchecked Sendable {
            let epoch: Int
            init(_ epoch: Int) { self.epoch = epoch }
        }

        /// Readers resolve while a writer re-registers, resets scopes, swaps
        /// `root` and calls `Resolver.reset()`. Every value a reader gets was
        /// valid at some moment of its call: a new instance comes from a
        /// registration that was current during the call (its version lies
        /// between the last registration finished before the call and the
        /// last one started before it returned); a cached instance was built
        /// after the last scope reset finished before the call. Run under
        /// ThreadSanitizer and AddressSanitizer (make tsan, make asan), it
        /// also shows nothing is read after its release.
        @Test func readersOnlySeeValuesValidDuringTheirCall() {
            Resolver.reset()
            let resolver = Resolver()
            let alternate = Resolver(child: resolver)
            let started = Atomic<Int>(0), finished = Atomic<Int>(0)
            let resetsStarted = Atomic<Int>(0), resetsFinished = Atomic<Int>(0)
            let stop = Atomic<Bool>(false)
            let bad = Atomic<Int>(0), reads = Atomic<Int>(0)
            resolver.register { Versioned(0) }.scope(.unique)
            resolver.register { Epoched(resetsStarted.load(ordering: .acquiring)) }.scope(.cached)
            Resolver.root = resolver

            runOnThreads(5) { thread in
                if thread == 0 {
                    for i in 1...20_000 {
                        started.store(i, ordering: .releasing)
                        resolver.register { Versioned(i) }.scope(i % 2 == 0 ? .unique : .graph)
                        finished.store(i, ordering: .releasing)
                        if i % 10 == 0 {
                            resetsStarted.add(1, ordering: .acquiringAndReleasing)
                            ResolverScope.cached.reset()
                            resetsFinished.add(1, ordering: .acquiringAndReleasing)
                        }
                        if i % 50 == 0 { Resolver.root = i % 100 == 0 ? resolver : alternate }
                        if i % 500 == 0 { Resolver.reset(); Resolver.root = resolver }
                    }
                    stop.store(true, ordering: .releasing)
                } else {
                    while !stop.load(ordering: .acquiring) {
                        let before = finished.load(ordering: .acquiring)
                        let value = thread % 2 == 0 ? resolver.resolve(Versioned.self)
                                                    : (Resolver.optional(Versioned.self) ?? Versioned(before))
                        let after = started.load(ordering: .acquiring)
                        if value.version < before || value.version > after { bad.add(1, ordering: .relaxed) }
                        let resets = resetsFinished.load(ordering: .acquiring)
                        if resolver.resolve(Epoched.self).epoch < resets { bad.add(1, ordering: .relaxed) }
                        reads.add(1, ordering: .relaxed)
                    }
                }
            }
            #expect(bad.load(ordering: .relaxed) == 0)
            #expect(reads.load(ordering: .relaxed) > 1_000, "readers ran alongside the writer")
            Resolver.reset()
            ResolverScope.cached.reset()
        }
    }
}
