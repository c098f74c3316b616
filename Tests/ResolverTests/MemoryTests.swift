import CRegistry
@testable import Resolver
import Testing

/// Waits (as `released` does) until `allocator` has freed all it allocated:
/// a dropped table's memory is freed once no read section that could still
/// see it is open, by whichever thread collects, and other tests' threads
/// may be reading meanwhile. If it has not, the allocator is kept for the
/// rest of the run, so that a later free does not call a released one.
private func allFreed(by allocator: TestAllocator) -> Bool {
    if released({ allocator.live == 0 }) {
        return true
    }
    _ = Unmanaged.passRetained(allocator)
    return false
}

extension IndependentTests {
    /// Nothing lost, nothing leaked: what a resolution and a container
    /// hold is released when they end.
    @Suite struct Memory {
        @Test func graphInstancesAreReleasedWhenTheResolutionEnds() {
            final class Pair { let a: Leaf; let b: Leaf; init(a: Leaf, b: Leaf) { self.a = a; self.b = b } }
            let resolver = Resolver()
            resolver.register { Leaf() }
            resolver.register { r in Pair(a: r.resolve(), b: r.resolve()) }
            weak var leaf: Leaf?
            do {
                let pair: Pair = resolver.resolve()
                leaf = pair.a
                #expect(pair.a === pair.b)
            }
            #expect(leaf == nil, "the per-thread graph does not keep it")
        }

        /// A container's table (its slots, its name copies) is freed with it,
        /// and so are its registrations and what their factories captured.
        @Test func aDroppedContainerFreesItsTable() {
            let allocator = TestAllocator()
            final class Captured {}
            weak var container: Resolver?
            weak var captured: Captured?
            allocator.withAllocator { raw in
                let resolver = Resolver(mutex: registry.mutex, allocator: raw)
                let object = Captured()
                captured = object
                for i in 0..<100 {
                    resolver.register(name: Resolver.Name("service \(i)")) { withExtendedLifetime(object) { i } }
                }
                #expect(resolver.resolve(Int.self, name: "service 42") == 42)
                #expect(allocator.live > 100, "slots and name copies")
                container = resolver
            }
            #expect(container == nil)
            let freed = allFreed(by: allocator)
            #expect(freed && released { captured == nil }, "the C table freed everything it allocated")
        }
    }
}

extension ResolverTests {
    /// What the app-wide scopes hold is released by their resets, and a
    /// failed allocation changes nothing (reported through the registry's
    /// failure hook).
    @Suite struct MemoryOfProcessWideState {
        @Test func resolverResetReleasesTheGlobalScopes() {
            Resolver.reset()
            let resolver = Resolver()
            resolver.register(name: "application") { Leaf() }.scope(.application)
            resolver.register(name: "cached") { Leaf() }.scope(.cached)
            weak var application: Leaf?
            weak var cached: Leaf?
            do {
                application = resolver.resolve(Leaf.self, name: "application")
                cached = resolver.resolve(Leaf.self, name: "cached")
            }
            #expect(application != nil && cached != nil, "the scopes hold them")
            Resolver.reset()
            #expect(released { application == nil && cached == nil })
        }

        @Test func applicationResetReleasesWhatItHeld() {
            let resolver = Resolver()
            resolver.register { Leaf() }.scope(.application)
            resolver.register { ValueService() }.scope(.application)
            weak var held: Leaf?
            do { held = resolver.resolve(Leaf.self) }
            _ = resolver.resolve(ValueService.self)
            #expect(held != nil)
            ResolverScope.application.reset()
            #expect(released { held == nil })
        }

        /// Registration that runs out of memory in the C table is reported,
        /// and leaves the table and every registration exactly as before.
        @Test func aFailedRegistrationChangesNothing() {
            let reports = Locked<[String]>([])
            registry.withLock { registry.failureHook = { message in reports.withLock { $0.append(message) } } }
            defer { registry.withLock { registry.failureHook = nil } }

            let allocator = TestAllocator()
            allocator.withAllocator { raw in
                let resolver = Resolver(mutex: registry.mutex, allocator: raw)
                // Seven keys fill the initial eight slots to the load limit.
                for i in 0..<7 {
                    resolver.register(name: Resolver.Name("n\(i)")) { i }
                }
                resolver.register(name: "n3") { 33 }
                allocator.remaining = 0

                // A new named key needs a name copy; a new unnamed one, growth.
                resolver.register(name: "new") { -1 }
                resolver.register(String.self) { "new" }
                let messages = reports.withLock { $0 }
                #expect(messages.count == 2)
                #expect(messages.first?.contains("could not register 'Int:new': out of memory") == true)
                #expect(resolver.optional(Int.self, name: "new") == nil)
                #expect(resolver.optional(String.self) == nil)
                for i in 0..<7 {
                    #expect(resolver.resolve(Int.self, name: Resolver.Name("n\(i)")) == (i == 3 ? 33 : i))
                }
                // Replacing an existing key retires the old registration
                // through a node from the same allocator: without memory that
                // fails too, is reported, and the old registration stays.
                resolver.register(name: "n5") { 55 }
                #expect(reports.withLock { $0.count } == 3)
                #expect(reports.withLock { $0.last }?.contains("could not register 'Int:n5': out of memory") == true)
                #expect(resolver.resolve(Int.self, name: "n5") == 5)

                allocator.remaining = nil
                resolver.register(name: "new") { -1 }
                #expect(resolver.resolve(Int.self, name: "new") == -1)
                resolver.register(name: "n5") { 55 }
                #expect(resolver.resolve(Int.self, name: "n5") == 55)
            }
            #expect(allFreed(by: allocator), "the dropped C table freed everything it allocated")
        }
    }
}
