import CRegistry
@testable import Resolver
import Testing

extension IndependentTests {
    /// A container's `cache` is made with room for the registrations made
    /// there with `.container`, so building their instances grows its table
    /// no more.
    @Suite struct ContainerCacheReserve {
        final class Service<Tag> {}

        static func stats(of scope: ResolverScope?) -> crg_stats {
            var stats = crg_stats()
            precondition(crg_get_stats(scope!.table!.raw, &stats) == 0)
            return stats
        }

        @Test func theCacheHasRoomForEveryContainerScopedRegistration() {
            let resolver = Resolver()
            for index in 0..<150 {
                resolver.register(name: .name(fromString: "c\(index)")) { Service<Int>() }.scope(.container)
            }
            resolver.register { Service<String>() }.scope(.unique)
            let first = resolver.resolve(Service<Int>.self, name: "c0")
            let made = Self.stats(of: resolver.cacheScope)
            #expect(made.capacity >= 150)
            for index in 0..<150 {
                _ = resolver.resolve(Service<Int>.self, name: .name(fromString: "c\(index)"))
            }
            let filled = Self.stats(of: resolver.cacheScope)
            #expect(filled.count == 150)
            #expect(filled.capacity == made.capacity, "building the instances grows nothing")
            #expect(resolver.resolve(Service<Int>.self, name: "c0") === first)
        }

        /// A registration made again counts again; the room stays within the
        /// registrations the container holds.
        @Test func reRegisteringReservesNoMoreThanTheRegistrationsThere() {
            let once = Resolver()
            once.register { Service<Int>() }.scope(.container)
            _ = once.resolve(Service<Int>.self)
            let again = Resolver()
            for _ in 0..<500 {
                again.register { Service<Int>() }.scope(.container)
            }
            _ = again.resolve(Service<Int>.self)
            #expect(Self.stats(of: again.cacheScope).capacity == Self.stats(of: once.cacheScope).capacity)
        }

        @Test func aContainerWithoutContainerScopedRegistrationsReservesNothing() {
            let resolver = Resolver()
            for index in 0..<150 {
                resolver.register(name: .name(fromString: "u\(index)")) { Service<Int>() }.scope(.unique)
            }
            let empty = Self.stats(of: Resolver().cache)
            _ = resolver.cache
            #expect(Self.stats(of: resolver.cacheScope).capacity == empty.capacity)
        }
    }
}
