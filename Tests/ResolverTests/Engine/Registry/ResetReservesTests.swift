import CRegistry
@testable import Resolver
import Testing

extension ResolverTests {
    /// `Resolver.reset()` gives the new `main` room for the registrations the
    /// one it replaces held: registering that batch again (as
    /// `registerAllServices` does after every reset of a test suite) grows
    /// its table no more.
    @Suite struct ResetReserves {
        final class Service<Tag> {}
        enum T0 {}
        enum T1 {}

        static func table(of container: Resolver) -> crg_stats {
            var stats = crg_stats()
            precondition(crg_get_stats(crg_container_table(container.storage.raw), &stats) == 0)
            return stats
        }

        /// Registers 150 distinct services (types and names) into `main`.
        static func registerBatch() {
            for index in 0..<75 {
                Resolver.register(name: .name(fromString: "s\(index)")) { Service<T0>() }
                Resolver.register(name: .name(fromString: "s\(index)")) { Service<T1>() }
            }
        }

        @Test func theNextBatchGrowsNoTable() {
            Resolver.reset()
            Self.registerBatch()
            let first = Self.table(of: Resolver.main)
            #expect(first.count >= 150)

            Resolver.reset()
            let reserved = Self.table(of: Resolver.main)
            #expect(reserved.count == 0)
            #expect(reserved.capacity >= first.count, "room for the batch the replaced main held")

            Self.registerBatch()
            let again = Self.table(of: Resolver.main)
            #expect(again.count == first.count)
            #expect(again.capacity == reserved.capacity, "registering the same batch again grows nothing")
            #expect(Resolver.resolve(Service<T1>.self, name: "s74") !== Resolver.resolve(Service<T1>.self, name: "s74"))
            Resolver.reset()
        }

        /// An empty `main` replaced by a reset leaves the new one at the smallest size.
        @Test func anEmptyMainReservesNothing() {
            Resolver.reset()
            let empty = Self.table(of: Resolver.main)
            Resolver.reset()
            #expect(Self.table(of: Resolver.main).capacity == empty.capacity)
        }
    }
}
