// The same app with its services built by hand, no container: the limit the
// container wirings are measured against (`make load` prints Resolver ÷
// hand-wired).
import Foundation

/// Builds each request's controller directly: one store and one greeting for
/// the app, a new unit of work, repository and service per request, as the
/// container wirings' scopes give.
public struct HandWiring: ServiceWiring {
    private let greeting: String
    private let store: any ItemStore

    public init() {
        greeting = ProcessInfo.processInfo.environment["GREETING"] ?? defaultGreeting
        store = InMemoryItemStore()
    }

    public func controller() -> any ItemsController {
        let unitOfWork = UnitOfWork(store: store)
        let repository = ItemRepository(unitOfWork: unitOfWork, store: store)
        return ConstructedItemsController(
            greeting: greeting,
            items: ItemService(unitOfWork: unitOfWork, repository: repository),
            repository: repository
        )
    }
}
