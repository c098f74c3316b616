// The scenarios for this library, through its public API only
// (/work/shared/RESOLVER-API.md): instance containers, so that nothing global
// is shared between scenarios.

import BenchFixtures
import Resolver

func oursOperation(_ scenario: ResolverScenario) -> any BenchOperation {
    switch scenario {
    case .singleton: return OursSingleton()
    case .named: return OursNamed()
    case .transient: return OursTransient(othersRegistered: false)
    case .transient1000: return OursTransient(othersRegistered: true)
    case .defaultScope: return OursDefaultScope()
    case .graph: return OursGraph()
    case .argument: return OursArgument()
    case .typedArgument: return OursTypedArgument()
    case .lazyRead: return OursLazyRead()
#if RESOLVER_KEYS
    case .keySingleton: return OursKeySingleton()
    case .keyTransient: return OursKeyTransient()
    case .keyArgument: return OursKeyArgument()
#else
    case .keySingleton, .keyTransient, .keyArgument: preconditionFailure("the library has no keys: \(scenario)")
#endif
    case .register, .mutex, .coldContainer: preconditionFailure("no Resolver operation for \(scenario)")
    }
}

func oursRegisterWorkload() -> Workload {
    RegisterWorkload(make: { Resolver() }, fill: { resolver in
        forEachGeneratedService(OursRegistrar(resolver: resolver))
    })
}

/// Registers one generated service as an app does, `resolver.register { GeneratedService0042() }`
/// (specialized for each type: see `GeneratedServiceVisitor`).
struct OursRegistrar: GeneratedServiceVisitor {
    let resolver: Resolver

    @inline(__always)
    func visit<Service: GeneratedService>(_: Service.Type) {
        resolver.register { Service() }
    }
}

/// The cold-container scenario: a new container, the graph's services
/// registered as an app does (`.scope(.container)`, each factory resolving
/// its dependencies), each resolved once.
func oursColdContainer() {
    let resolver = Resolver()
    forEachDagService(OursDagRegistrar(resolver: resolver))
    forEachDagService(OursDagResolver(resolver: resolver))
}

struct OursDagRegistrar: DagServiceVisitor {
    let resolver: Resolver

    @inline(__always)
    func visit<Service: DagService>(_: Service.Type) {
        resolver.register { r in Service.build(OursDagResolving(resolver: r)) }.scope(.container)
    }
}

struct OursDagResolving: DagResolving {
    let resolver: Resolver

    @inline(__always)
    func get<Service: AnyObject>() -> Service { resolver.resolve() }
}

struct OursDagResolver: DagServiceVisitor {
    let resolver: Resolver

    @inline(__always)
    func visit<Service: DagService>(_: Service.Type) { sink(resolver.resolve(Service.self)) }
}

final class OursSingleton: BenchOperation, @unchecked Sendable {
    let resolver = Resolver()

    init() {
        resolver.register { Plain() }.scope(.application)
    }

    func run() { sink(resolver.resolve(Plain.self)) }
}

final class OursNamed: BenchOperation, @unchecked Sendable {
    let resolver = Resolver()
    let name = Resolver.Name(benchmarkServiceName)

    init() {
        resolver.register(name: name) { NamedService() }.scope(.application)
    }

    func run() { sink(resolver.resolve(NamedService.self, name: name)) }
}

final class OursTransient: BenchOperation, @unchecked Sendable {
    let resolver = Resolver()

    init(othersRegistered: Bool) {
        if othersRegistered {
            forEachGeneratedService(OursRegistrar(resolver: resolver))
        }
        resolver.register { Plain() }.scope(.unique)
    }

    func run() { sink(resolver.resolve(Plain.self)) }
}

/// `register { Plain() }` without `.scope(...)`: Resolver's default scope,
/// `.graph`, with nothing else in the resolution.
final class OursDefaultScope: BenchOperation, @unchecked Sendable {
    let resolver = Resolver()

    init() {
        resolver.register { Plain() }
    }

    func run() { sink(resolver.resolve(Plain.self)) }
}

final class OursGraph: BenchOperation, @unchecked Sendable {
    let resolver = Resolver()

    init() {
        resolver.register { GraphC() }
        resolver.register { r in GraphB(c: r.resolve()) }
        resolver.register { r in GraphA(b: r.resolve(), c: r.resolve()) }
        let a = resolver.resolve(GraphA.self)
        precondition(a.b.c === a.c, "graph scope must share C within one resolution")
    }

    func run() { sink(resolver.resolve(GraphA.self)) }
}

final class OursArgument: BenchOperation, @unchecked Sendable {
    let resolver = Resolver()

    init() {
        resolver.register { _, args in ArgService(args()) }
        precondition(resolver.resolve(ArgService.self, args: benchmarkArgument).value == benchmarkArgument)
    }

    func run() { sink(resolver.resolve(ArgService.self, args: benchmarkArgument)) }
}

final class OursTypedArgument: BenchOperation, @unchecked Sendable {
    let resolver = Resolver()

    init() {
        resolver.register(arguments: Int.self) { _, value in ArgService(value) }.scope(.unique)
        precondition(resolver.resolve(ArgService.self, arguments: benchmarkArgument).value == benchmarkArgument)
    }

    func run() { sink(resolver.resolve(ArgService.self, arguments: benchmarkArgument)) }
}

/// Each thread reads the `@LazyInjected` property of an object of its own that
/// already holds its instance (as each request handler or view model has its
/// own). The instances are distinct (`.unique`), so nothing but the wrapper's
/// read path could make threads share a cache line. Each thread makes its
/// object (and so its instance) on its first operation, from its own allocator
/// arena: objects made back to back by one thread could share cache lines, and
/// their reference counts would then contend falsely.
final class OursLazyRead: BenchOperation, @unchecked Sendable {
    final class Owner: @unchecked Sendable {
        @LazyInjected var service: Plain

        init(container: Resolver) {
            _service = LazyInjected(container: container)
        }
    }

    let resolver = Resolver()
    /// One slot per thread of the widest scaling variant, written only by its thread.
    private let threads = scalingThreadCounts.last ?? 1
    private let owners: UnsafeMutablePointer<Owner?>

    init() {
        resolver.register { Plain() }.scope(.unique)
        owners = .allocate(capacity: threads)
        owners.initialize(repeating: nil, count: threads)
    }

    deinit {
        owners.deinitialize(count: threads)
        owners.deallocate()
    }

    func run() { run(thread: 0) }

    func run(thread: Int) {
        if let owner = owners[thread] {
            sink(owner.service)
            return
        }
        let owner = Owner(container: resolver)
        _ = owner.service
        owners[thread] = owner
    }
}
