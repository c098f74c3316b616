import Foundation
import Resolver
import ResolverTestSupport
import Testing

// No lock of ours is held while user code runs (DESIGN.md): factories,
// `resolveProperties` blocks, `registerAllServices`, decorators, and the
// deinit of every instance the library releases. Each test here runs such
// code, and that code waits until a *new* thread has registered and resolved,
// which needs the registry mutex (registering, a first build in a caching
// scope) and the epoch's (a new thread's first read section). Had the code
// been called under either lock, that thread could not finish: the wait
// times out, the code returns, and the test fails, instead of hanging.
//
// A release may be deferred until no resolve that started before it is still
// running (other test suites run in parallel), so the tests wait for the
// deinit, resolving meanwhile (a thread ending a read section releases what
// is due), rather than expecting it at once.

/// How long user code waits for the other thread before the test fails.
private let patience: Double = 30

/// Whether a new thread could register and resolve within `patience`.
/// `throughTheGate` adds resolves through the public entry points, which
/// wait while `registerAllServices` runs (documented: other threads wait for
/// it), so code running inside `registerAllServices` passes false.
private func anotherThreadResolves(throughTheGate: Bool) -> Bool {
    let resolved = Locked(false)
    let other = startThread {
        let container = Resolver()
        let options = container.register { Leaf() }.scope(ResolverScopeCache())
        var ok = options.registration.resolve(resolver: container, args: nil) != nil
        if throughTheGate {
            ok = ok && container.optional(Leaf.self) != nil
            ok = ok && Resolver.optional(NetworkServicing.self) != nil
        }
        resolved.withLock { $0 = ok }
    }
    return other.finished(within: patience) && resolved.withLock { $0 }
}

/// What the blocking code saw: how often it ran, and how often the other
/// thread could not finish in time.
final class Outcome: Sendable {
    private let counts = Locked<(ran: Int, timedOut: Int)>((0, 0))
    let throughTheGate: Bool

    init(throughTheGate: Bool = true) {
        self.throughTheGate = throughTheGate
    }

    var ran: Int { counts.withLock { $0.ran } }
    var timedOut: Int { counts.withLock { $0.timedOut } }

    /// Called from user code: waits for another thread to resolve.
    func block() {
        let resolved = anotherThreadResolves(throughTheGate: throughTheGate)
        counts.withLock {
            $0.ran += 1
            if !resolved { $0.timedOut += 1 }
        }
    }
}

/// Its deinit waits for another thread to resolve.
final class BlocksInDeinit: @unchecked Sendable {
    let outcome: Outcome?
    init(_ outcome: Outcome?) { self.outcome = outcome }
    deinit { outcome?.block() }
}

/// Waits (resolving meanwhile) until `outcome`'s code has run `times` times;
/// nil if it did and the other thread always finished, else what went wrong.
private func problem(with outcome: Outcome, times: Int = 1, _ what: String) -> String? {
    let nudge = Resolver()
    let ran = eventually(within: patience) {
        _ = nudge.optional(Int.self)
        return outcome.ran >= times
    }
    if !ran || outcome.ran != times {
        return "\(what): ran \(outcome.ran) time(s), expected \(times)"
    }
    if outcome.timedOut > 0 {
        return "\(what): another thread could not register and resolve meanwhile (a lock was held)"
    }
    return nil
}

/// The scopes a factory can run under, by name (test arguments).
private func scope(named name: String) -> ResolverScope {
    switch name {
    case "graph": return .graph
    case "unique": return .unique
    case "shared": return .shared
    case "container": return .container
    default: return ResolverScopeCache()
    }
}

extension ResolverTests {
    @Suite struct ReleaseOutsideLocks {
        init() {
            // The static entry points the other thread uses need
            // registerAllServices to have run (another suite may have reset).
            Resolver.main.registerServices()
        }

        // MARK: User code the library calls

        @Test(arguments: ["graph", "unique", "cache", "shared", "container"])
        func aFactory(scope name: String) {
            let outcome = Outcome()
            let container = Resolver()
            container.register { () -> Leaf in outcome.block(); return Leaf() }.scope(scope(named: name))
            #expect(container.optional(Leaf.self) != nil)
            #expect(problem(with: outcome, "a factory under \(name)") == nil)
        }

        @Test func aResolvePropertiesBlock() {
            let outcome = Outcome()
            let container = Resolver()
            container.register { Leaf() }
                .resolveProperties { _, _ in outcome.block() }
                .scope(ResolverScopeCache())
            #expect(container.optional(Leaf.self) != nil)
            #expect(problem(with: outcome, "a resolveProperties block") == nil)
        }

        /// `registerAllServices` itself, and a release it causes: a
        /// registration made before the first resolve, whose factory captured
        /// the object, replaced by `registerAllServices`. The other thread
        /// registers and resolves without the static entry points, which wait
        /// for `registerAllServices` by design.
        @Test func registerAllServicesAndWhatItReleases() {
            let running = Outcome(throughTheGate: false)
            let released = Outcome(throughTheGate: false)
            registrationHook.withLock { $0 = { running.block() } }
            defer { registrationHook.withLock { $0 = nil } }
            Resolver.reset()
            do {
                let captured = BlocksInDeinit(released)
                Resolver.register(name: .fred) { () -> String in withExtendedLifetime(captured) {}; return "early" }
            }
            #expect(Resolver.resolve(String.self, name: .fred) == "Hello, Fred", "registerAllServices replaced it")
            #expect(problem(with: running, "registerAllServices") == nil)
            #expect(problem(with: released, "a registration registerAllServices replaced") == nil)
        }

        /// Decorators are called in DEBUG builds of the library only.
        @Test func aDecorator() {
            final class Decorated {}
            let outcome = Outcome()
            Resolver.decorate = { service in
                if service is Decorated { outcome.block() }
            }
            defer { Resolver.decorate = nil }
            let container = Resolver()
            container.register { Decorated() }
            #expect(container.optional(Decorated.self) != nil)
            #if DEBUG
            #expect(problem(with: outcome, "a decorator") == nil)
            #else
            #expect(outcome.ran == 0, "release builds never call the decorator")
            #endif
        }

        // MARK: Deinits of instances the library releases

        final class LazyHolder {
            @LazyInjected var service: BlocksInDeinit
            init(_ container: Resolver) { $service.container = container }
        }

        final class WeakLazyHolder {
            @WeakLazyInjected var service: BlocksInDeinit?
            init(_ container: Resolver) { $service.container = container }
        }

        /// A container whose `BlocksInDeinit` is made new on each resolve,
        /// reporting to `outcome`.
        private func uniqueServices(_ outcome: Outcome) -> Resolver {
            let container = Resolver()
            container.register { BlocksInDeinit(outcome) }.scope(.unique)
            return container
        }

        @Test func lazyInjectedSetter() {
            let outcome = Outcome()
            let holder = LazyHolder(uniqueServices(outcome))
            #expect(holder.service.outcome === outcome, "resolved: the wrapper holds the only reference")
            #expect(outcome.ran == 0)
            holder.service = BlocksInDeinit(nil)
            #expect(problem(with: outcome, "the instance a @LazyInjected setter replaced") == nil)
        }

        @Test func lazyInjectedRelease() {
            let outcome = Outcome()
            let holder = LazyHolder(uniqueServices(outcome))
            #expect(holder.service.outcome === outcome)
            #expect(outcome.ran == 0)
            holder.$service.release()
            #expect(problem(with: outcome, "the instance $service.release() dropped") == nil)
            #expect(holder.$service.isEmpty)
        }

        /// A `@WeakLazyInjected` never owns its instance, so the library
        /// releases none: the setter and `release()` only drop the weak
        /// reference. The deinit runs where the app lets go of the instance,
        /// and must not wait for anything the wrapper holds.
        @Test func weakLazyInjectedSetterAndRelease() {
            let viaSetter = Outcome(), viaRelease = Outcome()
            let holder = WeakLazyHolder(Resolver())
            do {
                let held = BlocksInDeinit(viaSetter)
                holder.service = held
                #expect(holder.service === held)
                holder.service = BlocksInDeinit(nil)
            }
            #expect(problem(with: viaSetter, "the instance a @WeakLazyInjected setter replaced") == nil)
            do {
                let held = BlocksInDeinit(viaRelease)
                holder.service = held
                #expect(holder.service === held)
                holder.$service.release()
                #expect(holder.service == nil)
            }
            #expect(problem(with: viaRelease, "the instance $service.release() dropped") == nil)
        }

        @Test(arguments: ["application", "cached", "custom"])
        func aScopeReset(_ name: String) {
            let scope: ResolverScopeCache = switch name {
            case "application": .application
            case "cached": .cached
            default: ResolverScopeCache()
            }
            let outcome = Outcome()
            let container = Resolver()
            container.register { BlocksInDeinit(outcome) }.scope(scope)
            #expect(container.resolve(BlocksInDeinit.self) === container.resolve(BlocksInDeinit.self),
                    "cached: the scope holds the only reference")
            #expect(outcome.ran == 0)
            scope.reset()
            #expect(problem(with: outcome, "an instance \(name).reset() dropped") == nil)
        }

        /// `.shared` holds its instances weakly: the deinit runs where the
        /// app drops the last reference, and the scope's reset releases only
        /// its weak references.
        @Test func aSharedInstanceIsNotHeldByItsScope() {
            let outcome = Outcome()
            let container = Resolver()
            container.register { BlocksInDeinit(outcome) }.scope(.shared)
            do {
                let held: BlocksInDeinit = container.resolve()
                #expect(container.resolve(BlocksInDeinit.self) === held)
            }
            #expect(problem(with: outcome, "a .shared instance nothing holds") == nil)
            ResolverScope.shared.reset()
            #expect(outcome.ran == 1)
        }

        @Test func reRegistering() {
            let outcome = Outcome()
            let container = Resolver()
            do {
                let captured = BlocksInDeinit(outcome)
                container.register { () -> Leaf in withExtendedLifetime(captured) {}; return Leaf() }
            }
            #expect(container.optional(Leaf.self) != nil)
            #expect(outcome.ran == 0)
            container.register { Leaf() }
            #expect(problem(with: outcome, "an object the replaced registration's factory captured") == nil)
        }

        /// `Resolver.reset()` drops `main` (whose registration captured one
        /// object) and the `.application` cache (which held another).
        @Test func resolverReset() {
            let captured = Outcome(), cached = Outcome()
            do {
                let object = BlocksInDeinit(captured)
                Resolver.register(name: "captured") { () -> Leaf in withExtendedLifetime(object) {}; return Leaf() }
            }
            Resolver.register(name: "cached") { BlocksInDeinit(cached) }.scope(.application)
            #expect(Resolver.optional(BlocksInDeinit.self, name: "cached") != nil)
            #expect(captured.ran == 0 && cached.ran == 0)
            Resolver.reset()
            #expect(problem(with: captured, "an object a registration in the old main captured") == nil)
            #expect(problem(with: cached, "an .application instance") == nil)
        }

        /// A container nobody holds any more: its registrations (one
        /// captured an object) and its cache (`.container` scope) go with it.
        @Test func aDroppedContainer() {
            let captured = Outcome(), cached = Outcome()
            var container: Resolver? = Resolver()
            do {
                let object = BlocksInDeinit(captured)
                container?.register { () -> Leaf in withExtendedLifetime(object) {}; return Leaf() }
            }
            container?.register { BlocksInDeinit(cached) }.scope(.container)
            #expect(container?.optional(BlocksInDeinit.self) != nil)
            #expect(captured.ran == 0 && cached.ran == 0)
            container = nil
            #expect(problem(with: captured, "an object a dropped container's registration captured") == nil)
            #expect(problem(with: cached, "an instance in a dropped container's cache") == nil)
        }
    }
}
