// The same app wired through Swinject 2.10.0, for comparison. Constructor injection:
// Swinject has no property wrappers.
import Foundation
import Swinject

/// Resolves each request's controller from a synchronized view of a Swinject container.
public struct SwinjectWiring: ServiceWiring, @unchecked Sendable {
    // `@unchecked`: Swinject's `Resolver` is not `Sendable`. The synchronized resolver
    // that `Container.synchronize()` returns takes the container's lock on every
    // resolve, which is what makes sharing it between request threads safe.
    private let resolver: any Swinject.Resolver

    /// - Parameter container: the registrations; `makeContainer()` by default. Register
    ///   nothing on it afterwards: the wiring resolves from it on many threads.
    public init(container: Container = SwinjectWiring.makeContainer()) {
        self.resolver = container.synchronize()
    }

    public static func makeContainer() -> Container {
        let container = Container()
        container.register(String.self, name: "greeting") { _ in
            ProcessInfo.processInfo.environment["GREETING"] ?? defaultGreeting
        }
        .inObjectScope(.container)
        // Swinject's `.container` scope is Resolver's `.application`: one per container.
        container.register((any ItemStore).self) { _ in InMemoryItemStore() }
            .inObjectScope(.container)
        // `.graph` is Swinject's default too: one instance per top-level resolve.
        container.register(UnitOfWork.self) { r in
            UnitOfWork(store: r.resolve((any ItemStore).self)!)
        }
        container.register(ItemRepository.self) { r in
            ItemRepository(unitOfWork: r.resolve(UnitOfWork.self)!, store: r.resolve((any ItemStore).self)!)
        }
        container.register(ItemService.self) { r in
            ItemService(unitOfWork: r.resolve(UnitOfWork.self)!, repository: r.resolve(ItemRepository.self)!)
        }
        container.register(ConstructedItemsController.self) { r in
            ConstructedItemsController(
                greeting: r.resolve(String.self, name: "greeting")!,
                items: r.resolve(ItemService.self)!,
                repository: r.resolve(ItemRepository.self)!
            )
        }
        return container
    }

    public func controller() -> any ItemsController {
        resolver.resolve(ConstructedItemsController.self)!
    }
}
