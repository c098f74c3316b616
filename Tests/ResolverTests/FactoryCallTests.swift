import CRegistry
import Foundation
@testable import Resolver
import ResolverTestSupport
import Testing

extension IndependentTests {
    /// Each thread makes new instances through a copy of the factory of its
    /// own (`ResolverRegistration.Producer`), so that no reference count is
    /// shared between threads on that path. The copies must make what the
    /// registration makes, and go when it goes.
    @Suite struct Producers {
        final class Captured: Sendable {}
        final class Tagged: Sendable {
            let tag: Int
            init(_ tag: Int) { self.tag = tag }
        }

        @Test func everyThreadMakesWhatTheRegistrationMakes() {
            let resolver = Resolver()
            resolver.register { Leaf() }.scope(.unique)
            resolver.register(name: "n") { r in Middle(leaf: r.resolve()) }.scope(.unique)
            let failures = Locked(0)
            runOnThreads(4) { _ in
                for _ in 0..<200 {
                    let first: Middle = resolver.resolve(name: "n")
                    let second: Middle = resolver.resolve(name: "n")
                    if first === second || first.leaf === second.leaf {
                        failures.withLock { $0 += 1 }
                    }
                }
            }
            #expect(failures.withLock { $0 } == 0, ".unique makes a new instance on every thread, every time")
        }

        /// Producers hold the factory, and so what it captures: replacing the
        /// registration must let all of them go, from every thread's slot.
        @Test func aReplacedRegistrationReleasesEveryThreadsProducer() {
            let resolver = Resolver()
            weak var captured: Captured?
            do {
                let object = Captured()
                captured = object
                resolver.register { () -> Leaf in _ = object; return Leaf() }.scope(.unique)
            }
            runOnThreads(3) { _ in _ = resolver.resolve(Leaf.self) }
            _ = resolver.resolve(Leaf.self)
            #expect(captured != nil, "the registration's factory holds it")
            resolver.register { Leaf() }.scope(.unique)
            #expect(released { captured == nil }, "released with the replaced registration and its producers")
        }

        /// A factory replaced by `update(factory:)` (as `implements`-style
        /// wrapping does) wins over the producers made from the original.
        @Test func anUpdatedFactoryWinsOverTheProducers() {
            let resolver = Resolver()
            let registration = resolver.register { Tagged(1) }.scope(.unique).registration
            #expect(resolver.resolve(Tagged.self).tag == 1)
            runOnThreads(2) { _ in _ = resolver.resolve(Tagged.self) }
            registration.update { _ in { _, _ in Tagged(2) } }
            #expect(resolver.resolve(Tagged.self).tag == 2)
            let seen = Locked<[Int]>([])
            runOnThreads(2) { _ in
                let tag = resolver.resolve(Tagged.self).tag
                seen.withLock { $0.append(tag) }
            }
            #expect(seen.withLock { $0 } == [2, 2])
        }
    }
}

extension ResolverTests {
    /// Thread numbers are process-wide, and this suite leaves more thread
    /// records than producer slots behind. A thread takes the free record
    /// with the lowest number, so the threads that come after are numbered
    /// below the slots again, each with a producer of its own.
    @Suite struct ProducerSlots {
        /// Threads numbered past the producers' slots share the last one:
        /// 80 threads alive at once get 80 numbers, and all resolve.
        @Test func threadsPastTheSlotsStillResolve() {
            let resolver = Resolver()
            resolver.register { Leaf() }.scope(.unique)
            let count = ResolverRegistration<Leaf>.producerSlots + 16
            let arrived = Locked(0)
            let results = Locked<[Int: Bool]>([:])
            runOnThreads(count) { index in
                crg_read_begin()
                let number = Int(crg_thread_index())
                crg_read_end()
                // Stay alive until every thread has its number, so that
                // none is reused and some are past the slots.
                arrived.withLock { $0 += 1 }
                while arrived.withLock({ $0 }) < count { usleep(100) }
                let first = resolver.resolve(Leaf.self)
                let second = resolver.resolve(Leaf.self)
                results.withLock { $0[number] = first !== second }
            }
            let numbers = results.withLock { $0 }
            #expect(numbers.count == count, "every thread running at once has a number of its own")
            #expect(numbers.keys.contains { $0 >= ResolverRegistration<Leaf>.producerSlots })
            #expect(numbers.values.allSatisfy { $0 })
            let later = Locked(Int.max)
            runOnThreads(1) { _ in
                crg_read_begin()
                later.withLock { $0 = Int(crg_thread_index()) }
                crg_read_end()
            }
            #expect(later.withLock { $0 } < ResolverRegistration<Leaf>.producerSlots,
                    "a thread after them takes a low free number, not the last one freed")
        }
    }
}
