import Foundation
@testable import Resolver
import ResolverTestSupport
import Testing

extension IndependentTests {
    /// Every thread makes new instances through the registration's own
    /// factory (`ResolverRegistration.call`), borrowed: it must make what
    /// the registration makes on every thread, and go when it goes.
    @Suite struct FactoryCalls {
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

        /// The registration holds the factory, and so what it captures:
        /// replacing the registration lets it go, whichever threads ran it.
        @Test func aReplacedRegistrationReleasesItsFactory() {
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
            #expect(released { captured == nil }, "released with the replaced registration")
        }

        /// A factory replaced by `update(factory:)` (as `implements`-style
        /// wrapping does) wins over the registered one, on every thread.
        @Test func anUpdatedFactoryWinsOverTheRegisteredOne() {
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
