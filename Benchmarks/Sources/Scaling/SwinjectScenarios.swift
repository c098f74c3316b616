// Swinject 2.10.0, through a `synchronize()`d container, as Swinject requires
// when several threads resolve. Scopes: `.container` is Resolver's
// `.application`, `.transient` its `.unique`, `.graph` the same as Resolver's.

import Swinject

let swinjectScenarios: [Scenario] = [
    Scenario(name: "singleton", implementation: "Swinject") { SwinjectSingleton() },
    Scenario(name: "transient", implementation: "Swinject") { SwinjectTransient() },
    Scenario(name: "graph A(B)", implementation: "Swinject") { SwinjectGraph() },
]

final class SwinjectSingleton: Operation, @unchecked Sendable {
    let resolver: Swinject.Resolver

    init() {
        let container = Container()
        container.register(Plain.self) { _ in Plain() }.inObjectScope(.container)
        resolver = container.synchronize()
        _ = resolver.resolve(Plain.self)
    }

    func run() { sink(resolver.resolve(Plain.self)!) }
}

final class SwinjectTransient: Operation, @unchecked Sendable {
    let resolver: Swinject.Resolver

    init() {
        let container = Container()
        container.register(Plain.self) { _ in Plain() }.inObjectScope(.transient)
        resolver = container.synchronize()
    }

    func run() { sink(resolver.resolve(Plain.self)!) }
}

final class SwinjectGraph: Operation, @unchecked Sendable {
    let resolver: Swinject.Resolver

    init() {
        let container = Container()
        container.register(GraphB.self) { _ in GraphB() }
        container.register(GraphA.self) { r in GraphA(b: r.resolve(GraphB.self)!) }
        resolver = container.synchronize()
    }

    func run() { sink(resolver.resolve(GraphA.self)!) }
}
