// The scenarios for the baseline container (the original 1.5.1 storage design),
// written exactly as the Resolver versions are.

import BaselineResolver
import BenchFixtures

func baselineOperation(_ scenario: ResolverScenario) -> any BenchOperation {
    switch scenario {
    case .singleton: return BaselineSingleton()
    case .named: return BaselineNamed()
    case .transient: return BaselineTransient(othersRegistered: false)
    case .transient1000: return BaselineTransient(othersRegistered: true)
    case .graph: return BaselineGraph()
    case .argument: return BaselineArgument()
    case .lazyRead, .register, .mutex, .typedArgument, .defaultScope, .coldContainer, .keySingleton, .keyTransient,
         .keyArgument:
        preconditionFailure("no baseline operation for \(scenario)")
    }
}

func baselineRegisterWorkload() -> Workload {
    RegisterWorkload(make: { BaselineResolver() }, fill: { resolver in
        forEachGeneratedService(BaselineRegistrar(resolver: resolver))
    })
}

/// Registers one generated service as an app does, `resolver.register { GeneratedService0042() }`
/// (specialized for each type: see `GeneratedServiceVisitor`).
struct BaselineRegistrar: GeneratedServiceVisitor {
    let resolver: BaselineResolver

    @inline(__always)
    func visit<Service: GeneratedService>(_: Service.Type) {
        resolver.register { Service() }
    }
}

final class BaselineSingleton: BenchOperation, @unchecked Sendable {
    let resolver = BaselineResolver()

    init() {
        resolver.register { Plain() }.scope(.application)
    }

    func run() { sink(resolver.resolve(Plain.self)) }
}

final class BaselineNamed: BenchOperation, @unchecked Sendable {
    let resolver = BaselineResolver()

    init() {
        resolver.register(name: benchmarkServiceName) { NamedService() }.scope(.application)
    }

    func run() { sink(resolver.resolve(NamedService.self, name: benchmarkServiceName)) }
}

final class BaselineTransient: BenchOperation, @unchecked Sendable {
    let resolver = BaselineResolver()

    init(othersRegistered: Bool) {
        if othersRegistered {
            forEachGeneratedService(BaselineRegistrar(resolver: resolver))
        }
        resolver.register { Plain() }.scope(.unique)
    }

    func run() { sink(resolver.resolve(Plain.self)) }
}

final class BaselineGraph: BenchOperation, @unchecked Sendable {
    let resolver = BaselineResolver()

    init() {
        resolver.register { GraphC() }
        resolver.register { r in GraphB(c: r.resolve()) }
        resolver.register { r in GraphA(b: r.resolve(), c: r.resolve()) }
        let a: GraphA = resolver.resolve()
        precondition(a.b.c === a.c, "graph scope must share C within one resolution")
    }

    func run() { sink(resolver.resolve(GraphA.self)) }
}

final class BaselineArgument: BenchOperation, @unchecked Sendable {
    let resolver = BaselineResolver()

    init() {
        resolver.register { _, args in ArgService(args()) }
        precondition(resolver.resolve(ArgService.self, args: benchmarkArgument).value == benchmarkArgument)
    }

    func run() { sink(resolver.resolve(ArgService.self, args: benchmarkArgument)) }
}
