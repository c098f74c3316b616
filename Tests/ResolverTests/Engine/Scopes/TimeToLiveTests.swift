import Dispatch
import Foundation
@testable import Resolver
import Synchronization
import Testing

/// A clock whose time moves only when a test moves it (`advance(by:)`), and
/// which counts how often it was read. Atomics, not a lock: reading it on
/// many threads must not order them (see `Serial`).
final class TestClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        let offset: Duration

        func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private let nanoseconds = Atomic<Int64>(0)
    private let readCount = Atomic<Int>(0)

    var now: Instant {
        readCount.add(1, ordering: .relaxed)
        return Instant(offset: .nanoseconds(nanoseconds.load(ordering: .relaxed)))
    }

    /// How often `now` was read.
    var readings: Int {
        readCount.load(ordering: .relaxed)
    }

    var minimumResolution: Duration {
        .nanoseconds(1)
    }

    /// Moves the time on by `duration` (nanoseconds at most).
    func advance(by duration: Duration) {
        let (seconds, attoseconds) = duration.components
        nanoseconds.add(seconds * 1_000_000_000 + attoseconds / 1_000_000_000, ordering: .relaxed)
    }

    /// Nothing sleeps on this clock: the tests move it.
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        preconditionFailure("TestClock does not sleep; advance it")
    }
}

extension IndependentTests {
    /// `ResolverScopeTimeToLive`: a cache whose instances are built again
    /// once their life has passed, once per life however many threads ask.
    @Suite struct TimeToLive {
        @Test func aLiveInstanceIsReturnedUntilItsLifeEndsThenRebuiltOnce() {
            let clock = TestClock()
            let scope = ResolverScopeTimeToLive(.seconds(10), clock: clock)
            let resolver = Resolver()
            let made = Counter()
            resolver.register { () -> Leaf in
                made.increment()
                return Leaf()
            }.scope(scope)
            let first = resolver.resolve(Leaf.self)
            clock.advance(by: .seconds(10) - .nanoseconds(1))
            #expect(resolver.resolve(Leaf.self) === first, "alive until its life has passed")
            #expect(made.count == 1)
            clock.advance(by: .nanoseconds(1))
            let second = resolver.resolve(Leaf.self)
            #expect(second !== first, "built again once its life has passed")
            #expect(resolver.resolve(Leaf.self) === second)
            #expect(made.count == 2)
            clock.advance(by: .seconds(25))
            #expect(resolver.resolve(Leaf.self) !== second)
            #expect(made.count == 3, "however long it has been expired, one build")
        }

        /// The life is measured from the end of the build, not its start.
        @Test func aLifeStartsWhenTheBuildEnds() {
            let clock = TestClock()
            let scope = ResolverScopeTimeToLive(.seconds(10), clock: clock)
            let resolver = Resolver()
            resolver.register { () -> Leaf in
                clock.advance(by: .seconds(4))
                return Leaf()
            }.scope(scope)
            let first = resolver.resolve(Leaf.self)
            clock.advance(by: .seconds(9))
            #expect(resolver.resolve(Leaf.self) === first, "4 s into the build, 9 s after it")
            clock.advance(by: .seconds(1))
            #expect(resolver.resolve(Leaf.self) !== first)
        }

        @Test func aResolveOfALiveInstanceReadsTheClockOnce() {
            let clock = TestClock()
            let scope = ResolverScopeTimeToLive(.seconds(10), clock: clock)
            let resolver = Resolver()
            resolver.register { Leaf() }.scope(scope)
            resolver.register(name: "named") { Leaf() }.scope(scope)
            _ = resolver.resolve(Leaf.self)
            _ = resolver.resolve(Leaf.self, name: "named")
            for name: Resolver.Name? in [nil, "named", nil, "named"] {
                let before = clock.readings
                _ = resolver.resolve(Leaf.self, name: name)
                #expect(clock.readings - before == 1)
            }
        }

        /// Value types, protocol types and names each keep an entry of their
        /// own, and each expires.
        @Test func valuesProtocolsAndNamesExpireToo() {
            let clock = TestClock()
            let scope = ResolverScopeTimeToLive(.seconds(1), clock: clock)
            let resolver = Resolver()
            resolver.register { ValueService() }.scope(scope)
            resolver.register { XYZService() as XYZFetching }.scope(scope)
            resolver.register(name: "a") { Leaf() }.scope(scope)
            resolver.register(name: "b") { Leaf() }.scope(scope)
            let value = resolver.resolve(ValueService.self)
            let fetching = resolver.resolve(XYZFetching.self)
            let a = resolver.resolve(Leaf.self, name: "a")
            let b = resolver.resolve(Leaf.self, name: "b")
            #expect(a !== b)
            #expect(resolver.resolve(ValueService.self) == value)
            #expect(resolver.resolve(XYZFetching.self) === fetching)
            #expect(resolver.resolve(Leaf.self, name: "a") === a)
            clock.advance(by: .seconds(1))
            #expect(resolver.resolve(ValueService.self) != value)
            #expect(resolver.resolve(XYZFetching.self) !== fetching)
            #expect(resolver.resolve(Leaf.self, name: "a") !== a)
            #expect(resolver.resolve(Leaf.self, name: "b") !== b)
        }

        /// The thread's cache of cached instances has no clock: it never
        /// keeps a time-to-live instance, so moving the clock (which takes no
        /// lock, and so empties no thread's cache) is seen at once.
        @Test func theThreadCacheNeverReturnsAnExpiredInstance() {
            let clock = TestClock()
            let scope = ResolverScopeTimeToLive(.seconds(10), clock: clock)
            let resolver = Resolver()
            resolver.register { Leaf() }.scope(scope)
            let results = Locked<[Int]>([])
            let thread = startThread {
                let first = resolver.resolve(Leaf.self)
                let again = resolver.resolve(Leaf.self)
                clock.advance(by: .seconds(10))
                let afterExpiry = resolver.resolve(Leaf.self)
                let afterThat = resolver.resolve(Leaf.self)
                results.withLock { $0 = [first.id, again.id, afterExpiry.id, afterThat.id] }
            }
            #expect(thread.finished(within: 10))
            let ids = results.withLock { $0 }
            #expect(ids.count == 4)
            #expect(ids[0] == ids[1] && ids[1] != ids[2] && ids[2] == ids[3])
        }

        /// Every thread asking once the life has passed gets the one
        /// instance built again: one build, not one per thread.
        @Test func threadsAskingOnceTheLifeHasPassedBuildOnce() {
            let clock = TestClock()
            let scope = ResolverScopeTimeToLive(.seconds(10), clock: clock)
            let resolver = Resolver()
            let made = Counter()
            resolver.register { () -> Leaf in
                made.increment()
                usleep(20_000)
                return Leaf()
            }.scope(scope)
            var previous = resolver.resolve(Leaf.self).id
            for life in 2...4 {
                clock.advance(by: .seconds(10))
                let ids = Locked<[Int]>([])
                #expect(runOnThreads(8, within: 20) { _ in
                    let id = resolver.resolve(Leaf.self).id
                    ids.withLock { $0.append(id) }
                })
                let all = ids.withLock { $0 }
                #expect(all.count == 8 && Set(all).count == 1, "one instance for every thread")
                #expect(all.first != previous)
                #expect(made.count == life, "one build per life")
                previous = all.first ?? previous
            }
        }

        /// Threads resolving without pause while another moves the clock on,
        /// a life at a time: never more than one build per life, and every
        /// build is the one its askers share (each build's instance reaches
        /// at least the thread that built it).
        @Test func threadsResolvingAcrossManyLivesBuildAtMostOncePerLife() {
            let clock = TestClock()
            let scope = ResolverScopeTimeToLive(.seconds(1), clock: clock)
            let resolver = Resolver()
            let made = Counter()
            resolver.register { () -> Leaf in
                made.increment()
                return Leaf()
            }.scope(scope)
            let lives = 40
            let stop = Atomic<Bool>(false)
            let seen = Locked(Set<Int>())
            #expect(runOnThreads(4, within: 60) { index in
                if index == 0 {
                    for _ in 0..<lives {
                        usleep(1_000)
                        clock.advance(by: .seconds(1))
                    }
                    usleep(1_000)
                    stop.store(true, ordering: .relaxed)
                    return
                }
                var ids = Set<Int>()
                while !stop.load(ordering: .relaxed) {
                    ids.insert(resolver.resolve(Leaf.self).id)
                }
                ids.insert(resolver.resolve(Leaf.self).id)
                seen.withLock { $0.formUnion(ids) }
            })
            let distinct = seen.withLock { $0.count }
            #expect(made.count <= lives + 1, "at most one build per life")
            #expect(made.count == distinct, "no build made an instance nobody got")
        }

        /// Renewing an expired instance replaces its entry in place: a build
        /// of another service of the scope under way at that moment still
        /// keeps its instance (a reset would stop it: S1).
        @Test func renewingAnExpiredInstanceLetsBuildsOfOthersKeepTheirs() {
            final class Slow: @unchecked Sendable { let id = Serial.next() }
            let clock = TestClock()
            let scope = ResolverScopeTimeToLive(.seconds(10), clock: clock)
            let resolver = Resolver()
            let slowMade = Counter()
            let building = DispatchSemaphore(value: 0)
            let proceed = DispatchSemaphore(value: 0)
            resolver.register { Leaf() }.scope(scope)
            resolver.register { () -> Slow in
                slowMade.increment()
                if slowMade.count == 1 {
                    building.signal()
                    proceed.wait()
                }
                return Slow()
            }.scope(scope)
            let first = resolver.resolve(Leaf.self)
            clock.advance(by: .seconds(10))
            let slow = Locked<Int?>(nil)
            let builder = startThread {
                let id = resolver.resolve(Slow.self).id
                slow.withLock { $0 = id }
            }
            building.wait()
            #expect(resolver.resolve(Leaf.self) !== first, "renewed while Slow builds")
            proceed.signal()
            #expect(builder.finished(within: 10))
            #expect(resolver.resolve(Slow.self).id == slow.withLock { $0 }, "Slow's build was kept")
            #expect(slowMade.count == 1)
        }

        @Test func resetDropsLiveInstances() {
            let clock = TestClock()
            let scope = ResolverScopeTimeToLive(.seconds(10), clock: clock)
            let resolver = Resolver()
            resolver.register { Leaf() }.scope(scope)
            resolver.register(name: "other") { Leaf() }.scope(scope)
            let first = resolver.resolve(Leaf.self)
            let other = resolver.resolve(Leaf.self, name: "other")
            scope.reset()
            let second = resolver.resolve(Leaf.self)
            #expect(second !== first)
            #expect(resolver.resolve(Leaf.self, name: "other") !== other)
            #expect(resolver.resolve(Leaf.self) === second, "a new life: kept again")
        }

        /// A registration made by hand, under a key other than its type's,
        /// expires as the others do.
        @Test func aHandMadeRegistrationExpiresToo() {
            let clock = TestClock()
            let scope = ResolverScopeTimeToLive(.seconds(10), clock: clock)
            let resolver = Resolver()
            let registration = ResolverRegistration<Leaf>(resolver: resolver, key: 41, name: nil) { _, _ in Leaf() }
            let first = scope.resolve(registration: registration, resolver: resolver, args: nil)
            #expect(first != nil)
            #expect(scope.resolve(registration: registration, resolver: resolver, args: nil) === first)
            clock.advance(by: .seconds(10))
            let second = scope.resolve(registration: registration, resolver: resolver, args: nil)
            #expect(second != nil && second !== first)
            #expect(scope.resolve(registration: registration, resolver: resolver, args: nil) === second)
        }

        /// A verification's sandbox copies the scope, with its life and its
        /// clock: it neither makes nor keeps the app's instances.
        @Test func aVerificationSandboxCopiesTheScopeWithItsLifeAndClock() throws {
            let clock = TestClock()
            let scope = ResolverScopeTimeToLive(.seconds(10), clock: clock)
            clock.advance(by: .seconds(3))
            let copy = try #require(scope.makeSandboxCopy() as? ResolverScopeTimeToLive)
            #expect(copy !== scope)
            #expect(copy.timeToLive == .seconds(10))
            let before = clock.readings
            #expect(copy.life?.elapsed() == 3_000_000_000 && scope.life?.elapsed() == 3_000_000_000)
            #expect(clock.readings == before + 2, "the copy reads the same clock")

            let resolver = Resolver()
            let made = Counter()
            resolver.register { () -> Leaf in
                made.increment()
                return Leaf()
            }.scope(scope)
            let result = resolver.verify()
            #expect(result.isValid, "\(result)")
            #expect(made.count == 1, "built in the sandbox")
            _ = resolver.resolve(Leaf.self)
            #expect(made.count == 2, "the app's scope kept nothing of the sandbox's")
        }
    }
}

extension ResolverTests {
    /// `resolveAsync` of an async factory in a time-to-live scope, run while
    /// no other test runs (as `AsyncFactories`).
    @Suite struct TimeToLiveAsync {
        @Test func anExpiredAsyncServiceIsBuiltOnceForTwentyTasks() async {
            let clock = TestClock()
            let scope = ResolverScopeTimeToLive(.seconds(10), clock: clock)
            let resolver = Resolver()
            let gates = [Gate(), Gate()]
            let runs = Locked(0)
            resolver.register { () async -> AsyncStore? in
                let run = runs.withLock { $0 += 1; return $0 }
                await gates[min(run, 2) - 1].wait()
                return await AsyncStore()
            }.scope(scope)

            func askTwentyTasks(openingGate gate: Gate) async -> Set<ObjectIdentifier> {
                await withTaskGroup(of: ObjectIdentifier.self) { group in
                    for _ in 0..<20 {
                        group.addTask { ObjectIdentifier(await resolver.resolveAsync(AsyncStore.self)) }
                    }
                    #expect(await eventually(within: 10) { await gate.arrivals == 1 })
                    await gate.openUp()
                    var ids = Set<ObjectIdentifier>()
                    for await id in group { ids.insert(id) }
                    return ids
                }
            }

            let first = await askTwentyTasks(openingGate: gates[0])
            #expect(first.count == 1 && runs.withLock { $0 } == 1)
            clock.advance(by: .seconds(10))
            let second = await askTwentyTasks(openingGate: gates[1])
            #expect(second.count == 1 && runs.withLock { $0 } == 2, "one build for the new life")
            #expect(first != second)
            #expect(ObjectIdentifier(await resolver.resolveAsync(AsyncStore.self)) == second.first)
            #expect(ObjectIdentifier(resolver.resolve(AsyncStore.self)) == second.first,
                    "a synchronous resolve returns the live instance")
            #expect(await gates[1].arrivals == 1)
        }
    }
}
