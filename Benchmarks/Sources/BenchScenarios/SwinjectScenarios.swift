// The scenarios for Swinject 2.10.0, written as its documentation shows.
// Scope mapping: `.application` -> `.container`, `.unique` -> `.transient`,
// `.graph` -> `.graph` (Swinject's default, same meaning).
// Single-thread scenarios use a plain `Container` (Swinject's usual and fastest
// form); their variants on several threads use `container.synchronize()`,
// which Swinject requires for use from several threads.

import BenchFixtures
import Swinject

func swinjectOperation(_ scenario: ResolverScenario, synchronized: Bool) -> any BenchOperation {
    switch scenario {
    case .singleton: return SwinjectSingleton(synchronized: synchronized)
    case .named: return SwinjectNamed(synchronized: synchronized)
    case .transient: return SwinjectTransient(othersRegistered: false, synchronized: synchronized)
    case .transient1000: return SwinjectTransient(othersRegistered: true, synchronized: synchronized)
    case .graph: return SwinjectGraph(synchronized: synchronized)
    case .argument, .typedArgument: return SwinjectArgument()
    case .lazyRead, .register, .mutex, .defaultScope, .coldContainer, .keySingleton, .keyTransient, .keyArgument:
        preconditionFailure("no Swinject operation for \(scenario)")
    }
}

func swinjectRegisterWorkload() -> Workload {
    RegisterWorkload(make: { Container() }, fill: { container in
        forEachGeneratedService(SwinjectRegistrar(container: container))
    })
}

/// The cold-container scenario: a new container, the graph's services
/// registered in its `.container` scope, each resolved once.
func swinjectColdContainer() {
    let container = Container()
    forEachDagService(SwinjectDagRegistrar(container: container))
    forEachDagService(SwinjectDagResolver(container: container))
}

struct SwinjectDagRegistrar: DagServiceVisitor {
    let container: Container

    @inline(__always)
    func visit<Service: DagService>(_: Service.Type) {
        container.register(Service.self) { r in Service.build(SwinjectDagResolving(resolver: r)) }.inObjectScope(.container)
    }
}

struct SwinjectDagResolving: DagResolving {
    let resolver: Swinject.Resolver

    @inline(__always)
    func get<Service: AnyObject>() -> Service { resolver.resolve(Service.self)! }
}

struct SwinjectDagResolver: DagServiceVisitor {
    let container: Container

    @inline(__always)
    func visit<Service: DagService>(_: Service.Type) { sink(container.resolve(Service.self)!) }
}

/// Registers one generated service as an app does,
/// `container.register(GeneratedService0042.self) { _ in GeneratedService0042() }`
/// (specialized for each type: see `GeneratedServiceVisitor`).
struct SwinjectRegistrar: GeneratedServiceVisitor {
    let container: Container

    @inline(__always)
    func visit<Service: GeneratedService>(_: Service.Type) {
        container.register(Service.self) { _ in Service() }
    }
}

final class SwinjectSingleton: BenchOperation, @unchecked Sendable {
    let container = Container()
    let resolver: Swinject.Resolver

    init(synchronized: Bool) {
        container.register(Plain.self) { _ in Plain() }.inObjectScope(.container)
        resolver = synchronized ? container.synchronize() : container
    }

    func run() { sink(resolver.resolve(Plain.self)!) }
}

final class SwinjectNamed: BenchOperation, @unchecked Sendable {
    let container = Container()
    let resolver: Swinject.Resolver

    init(synchronized: Bool) {
        container.register(NamedService.self, name: benchmarkServiceName) { _ in NamedService() }
            .inObjectScope(.container)
        resolver = synchronized ? container.synchronize() : container
    }

    func run() { sink(resolver.resolve(NamedService.self, name: benchmarkServiceName)!) }
}

final class SwinjectTransient: BenchOperation, @unchecked Sendable {
    let container = Container()
    let resolver: Swinject.Resolver

    init(othersRegistered: Bool, synchronized: Bool) {
        if othersRegistered {
            forEachGeneratedService(SwinjectRegistrar(container: container))
        }
        container.register(Plain.self) { _ in Plain() }.inObjectScope(.transient)
        resolver = synchronized ? container.synchronize() : container
    }

    func run() { sink(resolver.resolve(Plain.self)!) }
}

final class SwinjectGraph: BenchOperation, @unchecked Sendable {
    let container = Container()
    let resolver: Swinject.Resolver

    init(synchronized: Bool) {
        container.register(GraphC.self) { _ in GraphC() }
        container.register(GraphB.self) { r in GraphB(c: r.resolve(GraphC.self)!) }
        container.register(GraphA.self) { r in GraphA(b: r.resolve(GraphB.self)!, c: r.resolve(GraphC.self)!) }
        let a = container.resolve(GraphA.self)!
        precondition(a.b.c === a.c, "graph scope must share C within one resolution")
        resolver = synchronized ? container.synchronize() : container
    }

    func run() { sink(resolver.resolve(GraphA.self)!) }
}

final class SwinjectArgument: BenchOperation, @unchecked Sendable {
    let container = Container()

    init() {
        container.register(ArgService.self) { (_, value: Int) in ArgService(value) }
        precondition(container.resolve(ArgService.self, argument: benchmarkArgument)!.value == benchmarkArgument)
    }

    func run() { sink(container.resolve(ArgService.self, argument: benchmarkArgument)!) }
}
