// The scenarios for this library, through its public API only
// (/work/shared/RESOLVER-API.md): instance containers, so that nothing global
// is shared between scenarios.

import BenchFixtures
import Resolver

func oursWorkload(_ scenario: ResolverScenario) -> Workload {
    switch scenario {
    case .singleton: return LoopWorkload(OursSingleton())
    case .named: return LoopWorkload(OursNamed())
    case .transient: return LoopWorkload(OursTransient(othersRegistered: false))
    case .transient1000: return LoopWorkload(OursTransient(othersRegistered: true))
    case .graph: return LoopWorkload(OursGraph())
    case .argument: return LoopWorkload(OursArgument())
    case .twoThreads: return TwoThreadWorkload(OursSingleton())
    case .register:
        return RegisterWorkload(make: { Resolver() }, fill: { resolver in
            forEachGeneratedService(OursRegistrar(resolver: resolver))
        })
    case .mutex: preconditionFailure("no Resolver variant of \(scenario)")
    }
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

final class OursSingleton: BenchOperation, @unchecked Sendable {
    let resolver = Resolver()

    init() {
        resolver.register { Plain() }.scope(.application)
    }

    func run() { sink(resolver.resolve(Plain.self)) }
}

final class OursNamed: BenchOperation {
    let resolver = Resolver()
    let name = Resolver.Name(benchmarkServiceName)

    init() {
        resolver.register(name: name) { NamedService() }.scope(.application)
    }

    func run() { sink(resolver.resolve(NamedService.self, name: name)) }
}

final class OursTransient: BenchOperation {
    let resolver = Resolver()

    init(othersRegistered: Bool) {
        if othersRegistered {
            forEachGeneratedService(OursRegistrar(resolver: resolver))
        }
        resolver.register { Plain() }.scope(.unique)
    }

    func run() { sink(resolver.resolve(Plain.self)) }
}

final class OursGraph: BenchOperation {
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

final class OursArgument: BenchOperation {
    let resolver = Resolver()

    init() {
        resolver.register { _, args in ArgService(args()) }
        precondition(resolver.resolve(ArgService.self, args: benchmarkArgument).value == benchmarkArgument)
    }

    func run() { sink(resolver.resolve(ArgService.self, args: benchmarkArgument)) }
}
