// The app's domain: items, an in-memory store, and the per-request unit of work that
// a repository facade and a service share. None of it knows which container built it.
import Synchronization

/// An item, as stored and as sent to clients.
public struct Item: Codable, Equatable, Sendable {
    public let id: Int
    public let name: String

    public init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}

/// The body of `POST /items`.
public struct NewItem: Codable, Sendable {
    public let name: String

    public init(name: String) {
        self.name = name
    }
}

/// Why an item was not created.
public enum ItemError: Error, Equatable {
    case blankName
    case nameTooLong(limit: Int)
}

/// Where items live. One per app (`.application` scope): every request and every
/// thread sees the same store, so it guards its state with a lock.
public protocol ItemStore: AnyObject, Sendable {
    func item(id: Int) -> Item?
    func all() -> [Item]
    /// Stores the names as new items in one step, giving them ids, and returns them.
    func insert(_ names: [String]) -> [Item]
}

public final class InMemoryItemStore: ItemStore {
    private struct State {
        var items: [Int: Item] = [:]
        var nextID = 1
    }

    private let state = Mutex(State())

    public init() {}

    public func item(id: Int) -> Item? {
        state.withLock { $0.items[id] }
    }

    public func all() -> [Item] {
        state.withLock { $0.items.values.sorted { $0.id < $1.id } }
    }

    public func insert(_ names: [String]) -> [Item] {
        state.withLock { state in
            names.map { name in
                let item = Item(id: state.nextID, name: name)
                state.items[item.id] = item
                state.nextID += 1
                return item
            }
        }
    }
}

/// The writes of one request, staged by the repository and committed by the service.
///
/// Registered in `.graph` scope (the default in both containers): everything built
/// while resolving one controller gets this same instance, and the next request gets
/// a new one. If the repository and the service held different units of work, the
/// service would commit nothing and `POST /items` would fail.
public final class UnitOfWork {
    private static let counter = Atomic(0)

    /// Tells units of work apart; the server sends it back as `X-Unit-Of-Work`.
    public let id: Int
    public let store: any ItemStore
    private var pending: [String] = []

    public init(store: any ItemStore) {
        self.id = Self.counter.add(1, ordering: .relaxed).newValue
        self.store = store
    }

    func stage(_ name: String) {
        pending.append(name)
    }

    /// Writes what was staged, in one step, and returns the stored items.
    func commit() -> [Item] {
        defer { pending.removeAll() }
        return pending.isEmpty ? [] : store.insert(pending)
    }
}

/// A facade over the store for one request: reads go to the store, writes wait in the
/// unit of work.
public final class ItemRepository {
    public let unitOfWork: UnitOfWork
    public let store: any ItemStore

    public init(unitOfWork: UnitOfWork, store: any ItemStore) {
        self.unitOfWork = unitOfWork
        self.store = store
    }

    public func find(id: Int) -> Item? { store.item(id: id) }
    public func all() -> [Item] { store.all() }
    public func add(name: String) { unitOfWork.stage(name) }
}

/// The rules for new items, and the commit at the end of the request.
public final class ItemService {
    public static let nameLimit = 100

    public let unitOfWork: UnitOfWork
    public let repository: ItemRepository

    public init(unitOfWork: UnitOfWork, repository: ItemRepository) {
        self.unitOfWork = unitOfWork
        self.repository = repository
    }

    public func create(name: String) throws(ItemError) -> Item {
        guard !name.allSatisfy(\.isWhitespace) else { throw .blankName }
        guard name.count <= Self.nameLimit else { throw .nameTooLong(limit: Self.nameLimit) }
        repository.add(name: name)
        // Staged through the repository, committed here: the same unit of work.
        let stored = unitOfWork.commit()
        precondition(stored.count == 1, "the repository and the service do not share a unit of work")
        return stored[0]
    }
}
