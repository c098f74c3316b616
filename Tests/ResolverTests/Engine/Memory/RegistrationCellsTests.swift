@testable import Resolver
import Testing

extension ResolverTests {
    /// Registrations take their published cells from slabs that 64 of them
    /// share, and a slab is freed once every registration carved from it has
    /// ended and the carver has moved on. (Alone among the tests: another
    /// test's registrations would take blocks meanwhile.)
    @Suite struct RegistrationCellSlabs {
        final class Service<Tag> {}

        @Test func sixtyFourRegistrationsShareOneAllocation() {
            let made = RegistrationCells.slabsMade
            var resolver: Resolver? = Resolver()
            for index in 0..<640 {
                resolver?.register(name: .name(fromString: "s\(index)")) { Service<Int>() }
            }
            #expect(RegistrationCells.slabsMade - made == 10)

            // Each registration's cells are its own: scopes and instances stay apart.
            resolver?.register(name: "cached") { Service<Int>() }.scope(.container)
            resolver?.register(name: "unique") { Service<Int>() }.scope(.unique)
            let cached = resolver?.resolve(Service<Int>.self, name: "cached")
            #expect(resolver?.resolve(Service<Int>.self, name: "cached") === cached)
            #expect(resolver?.resolve(Service<Int>.self, name: "unique") !== resolver?.resolve(Service<Int>.self, name: "unique"))
            resolver = nil
        }

        @Test func aSlabIsFreedWhenItsRegistrationsHaveEnded() {
            collectRetired()
            let before = RegistrationCells.slabsNotFreed
            var resolver: Resolver? = Resolver()
            for index in 0..<(64 * 5) {
                resolver?.register(name: .name(fromString: "s\(index)")) { Service<String>() }
            }
            #expect(RegistrationCells.slabsNotFreed - before >= 4)
            resolver = nil
            collectRetired()
            // What stays is at most the slab the carver carves from now.
            #expect(RegistrationCells.slabsNotFreed - before <= 1)
        }
    }
}
