// This library through its static API, the way apps use it: registrations in
// `Resolver.main`, resolves from `Resolver.root`, property wrappers without a
// container. Only public API, so that the same file builds against earlier
// commits (Scripts/scaling.py --base).

import Resolver

let resolverScenarios: [Scenario] = [
    Scenario(name: "singleton", implementation: "Resolver") { ResolverSingleton() },
    Scenario(name: "named singleton", implementation: "Resolver") { ResolverNamedSingleton() },
    Scenario(name: "transient", implementation: "Resolver") { ResolverTransient() },
    Scenario(name: "graph A(B)", implementation: "Resolver") { ResolverGraph() },
    Scenario(name: "@LazyInjected read", implementation: "Resolver") { ResolverLazyRead() },
]

/// Each scenario resolves a type of its own, so that registering one
/// scenario never replaces another's registration in `Resolver.main`.
final class SingletonService: Sendable { init() {} }
final class TransientService: Sendable { init() {} }
final class LazyService: Sendable { init() {} }

final class ResolverSingleton: Operation {
    init() {
        Resolver.register { SingletonService() }.scope(.application)
        _ = Resolver.resolve(SingletonService.self)
    }

    func run() { sink(Resolver.resolve(SingletonService.self)) }
}

final class ResolverNamedSingleton: Operation {
    init() {
        Resolver.register(name: "fred") { Named() }.scope(.application)
        _ = Resolver.resolve(Named.self, name: "fred")
    }

    // A string-literal name, as apps write it.
    func run() { sink(Resolver.resolve(Named.self, name: "fred")) }
}

final class ResolverTransient: Operation {
    init() {
        Resolver.register { TransientService() }.scope(.unique)
    }

    func run() { sink(Resolver.resolve(TransientService.self)) }
}

final class ResolverGraph: Operation {
    init() {
        Resolver.register { GraphB() }
        Resolver.register { r in GraphA(b: r.resolve()) }
    }

    func run() { sink(Resolver.resolve(GraphA.self)) }
}

/// Each thread reads the `@LazyInjected` property of an object of its own
/// that already holds its instance (as each request handler or view model
/// has its own). The instances are distinct (`.unique`), so nothing but the
/// wrapper's read path could make threads share a cache line. Each thread
/// makes its object (and so its instance) on its first operation, from its
/// own allocator arena: objects made back to back by one thread could share
/// cache lines, and their reference counts would then contend falsely.
final class ResolverLazyRead: Operation, @unchecked Sendable {
    final class Owner: @unchecked Sendable {
        @LazyInjected var service: LazyService
    }

    /// One slot per thread, written only by its thread.
    let owners = UnsafeMutablePointer<Owner?>.allocate(capacity: 64)

    init() {
        Resolver.register { LazyService() }.scope(.unique)
        owners.initialize(repeating: nil, count: 64)
    }

    func run() { run(thread: 0) }

    func run(thread: Int) {
        if let owner = owners[thread] {
            sink(owner.service)
            return
        }
        let owner = Owner()
        _ = owner.service
        owners[thread] = owner
    }
}
