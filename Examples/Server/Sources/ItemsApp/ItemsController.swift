// The handlers behind the routes. The behaviour is written once, in the protocol
// extension; a wiring supplies a conforming controller with its services.
import Hummingbird
import Resolver

/// What one request's handlers need.
public protocol ItemsController: AnyObject {
    /// The configured greeting (a named registration in both containers).
    var greeting: String { get }
    /// Writes go through the service...
    var items: ItemService { get }
    /// ...reads through the repository. Both hold the same `UnitOfWork`.
    var repository: ItemRepository { get }
}

extension ItemsController {
    public func hello(name: String) -> String {
        "\(greeting), \(name)!"
    }

    public func list() -> [Item] {
        repository.all()
    }

    public func item(id: Int) throws -> Item {
        guard let item = repository.find(id: id) else {
            throw HTTPError(.notFound, message: "no item \(id)")
        }
        return item
    }

    public func create(_ new: NewItem) throws -> Item {
        do {
            return try items.create(name: new.name)
        } catch .blankName {
            throw HTTPError(.badRequest, message: "an item needs a name")
        } catch .nameTooLong(let limit) {
            throw HTTPError(.badRequest, message: "an item's name has at most \(limit) characters")
        }
    }
}

/// The controller as a Resolver app writes it: it declares its services with
/// `@Injected`, and they are resolved when the controller is created.
///
/// Built per request, and itself resolved through Resolver
/// (`register { InjectedItemsController() }`), which is what a Resolver user expects:
/// - per request, because `@Injected` resolves once, at init. A controller built once
///   per app would keep one `.graph` unit of work for every request, and concurrent
///   requests would share its staged writes.
/// - through Resolver rather than `InjectedItemsController()`, because each `@Injected`
///   property on its own is a separate top-level resolution, and so a separate graph:
///   `items` and `repository` would get two units of work. Inside the controller's
///   factory, the three property resolutions are nested in one resolution, one graph.
public final class InjectedItemsController: ItemsController {
    @Injected(name: .greeting) public var greeting: String
    @Injected public var items: ItemService
    @Injected public var repository: ItemRepository

    public init() {}
}

/// The same controller with its services passed in, as Swinject builds it.
public final class ConstructedItemsController: ItemsController {
    public let greeting: String
    public let items: ItemService
    public let repository: ItemRepository

    public init(greeting: String, items: ItemService, repository: ItemRepository) {
        self.greeting = greeting
        self.items = items
        self.repository = repository
    }
}
