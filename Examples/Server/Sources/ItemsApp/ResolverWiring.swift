// The app wired the Resolver way: every registration in `registerAllServices`, which
// Resolver runs by itself before the first resolve.
import Foundation
import Resolver

extension Resolver.Name {
    /// The greeting of `GET /hello/:name`, a configuration value.
    public static let greeting = Self("greeting")
}

// `@retroactive`: this conforms an imported type to an imported protocol, which is
// Resolver's documented pattern; without it Swift 6 warns.
extension Resolver: @retroactive ResolverRegistering {
    public static func registerAllServices() {
        register(name: .greeting) { ProcessInfo.processInfo.environment["GREETING"] ?? defaultGreeting }
            .scope(.application)
        // One store for the app, under its protocol too.
        register { InMemoryItemStore() }
            .implements((any ItemStore).self)
            .scope(.application)
        // `.graph`, the default scope: one unit of work per resolution, so one per request.
        register { UnitOfWork(store: resolve()) }
        register { ItemRepository(unitOfWork: resolve(), store: resolve()) }
        register { ItemService(unitOfWork: resolve(), repository: resolve()) }
        // Its @Injected properties resolve inside this factory: one graph.
        register { InjectedItemsController() }
    }
}

/// Resolves each request's controller from `Resolver.root`.
public struct ResolverWiring: ServiceWiring {
    public init() {}

    public func controller() -> any ItemsController {
        Resolver.resolve(InjectedItemsController.self)
    }
}
