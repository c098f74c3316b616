// The routes called in-process (HummingbirdTesting's `.router` framework), once with
// each wiring. Resolver's registry is global, so every test that touches it is in this
// suite, which runs serialized, and each starts from `Resolver.reset()`; Swinject gets
// a new container per test.
import Foundation
import Hummingbird
import HummingbirdTesting
import ItemsApp
import Resolver
import Testing

@Suite(.serialized)
struct RoutesTests {
    /// A wiring with nothing stored yet.
    static func freshWiring(_ kind: ContainerKind) -> any ServiceWiring {
        if kind == .resolver {
            Resolver.reset()
        }
        return kind.makeWiring()
    }

    static func json(_ name: String) -> ByteBuffer {
        ByteBuffer(bytes: try! JSONEncoder().encode(NewItem(name: name)))
    }

    static func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
        try JSONDecoder().decode(type, from: Data(response.body.readableBytesView))
    }

    /// What the server checks at start-up: every registration resolves, and the
    /// graph shows each request's unit of work shared by the repository and the
    /// service.
    @Test func theResolverWiringVerifies() {
        Resolver.reset()
        let verification = Resolver.verify()
        #expect(verification.isValid, "\(verification)")
        #expect(verification.resolved.count == 7, "\(verification.resolved)")
        let edges = Set(verification.graph.edges.map { "\($0.from) -> \($0.to)" })
        #expect(edges.isSuperset(of: [
            "ItemService -> UnitOfWork", "ItemService -> ItemRepository",
            "ItemRepository -> UnitOfWork", "InjectedItemsController -> ItemService",
        ]), "\(edges)")
    }

    @Test(arguments: ContainerKind.allCases)
    func helloUsesTheNamedGreeting(kind: ContainerKind) async throws {
        let app = buildApplication(wiring: Self.freshWiring(kind))
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/hello/Ada", method: .get)
            #expect(response.status == .ok)
            #expect(String(buffer: response.body) == "Hello, Ada!")
        }
    }

    @Test(arguments: ContainerKind.allCases)
    func postThenGet(kind: ContainerKind) async throws {
        let app = buildApplication(wiring: Self.freshWiring(kind))
        try await app.test(.router) { client in
            let empty = try await client.execute(uri: "/items", method: .get)
            #expect(empty.status == .ok)
            #expect(try Self.decode([Item].self, empty) == [])

            let created = try await client.execute(
                uri: "/items", method: .post, headers: [.contentType: "application/json"], body: Self.json("lamp"))
            #expect(created.status == .created)
            let lamp = try Self.decode(Item.self, created)
            #expect(lamp == Item(id: 1, name: "lamp"))

            _ = try await client.execute(
                uri: "/items", method: .post, headers: [.contentType: "application/json"], body: Self.json("desk"))

            let one = try await client.execute(uri: "/items/1", method: .get)
            #expect(one.status == .ok)
            #expect(try Self.decode(Item.self, one) == lamp)

            let all = try await client.execute(uri: "/items", method: .get)
            #expect(try Self.decode([Item].self, all) == [lamp, Item(id: 2, name: "desk")])
        }
    }

    @Test(arguments: ContainerKind.allCases)
    func errors(kind: ContainerKind) async throws {
        let app = buildApplication(wiring: Self.freshWiring(kind))
        try await app.test(.router) { client in
            #expect(try await client.execute(uri: "/items/7", method: .get).status == .notFound)
            #expect(try await client.execute(uri: "/items/seven", method: .get).status == .badRequest)

            let blank = try await client.execute(
                uri: "/items", method: .post, headers: [.contentType: "application/json"], body: Self.json("  "))
            #expect(blank.status == .badRequest)
            let long = try await client.execute(
                uri: "/items", method: .post, headers: [.contentType: "application/json"],
                body: Self.json(String(repeating: "x", count: ItemService.nameLimit + 1)))
            #expect(long.status == .badRequest)
            let notJSON = try await client.execute(
                uri: "/items", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: "lamp"))
            #expect(notJSON.status == .badRequest)

            // Nothing was committed.
            let all = try await client.execute(uri: "/items", method: .get)
            #expect(try Self.decode([Item].self, all) == [])
        }
    }

    /// Every request's controller has its own unit of work, shared by its service
    /// and its repository; the store is one for all.
    @Test(arguments: ContainerKind.allCases)
    func graphPerRequestStorePerApp(kind: ContainerKind) throws {
        let wiring = Self.freshWiring(kind)
        let first = wiring.controller()
        let second = wiring.controller()

        #expect(first !== second)
        #expect(first.items.unitOfWork === first.repository.unitOfWork)
        #expect(first.items.unitOfWork === first.items.repository.unitOfWork)
        #expect(second.items.unitOfWork === second.repository.unitOfWork)
        #expect(first.items.unitOfWork !== second.items.unitOfWork)
        #expect(first.items.repository !== second.items.repository)

        #expect(first.repository.store === second.repository.store)
        #expect(first.items.unitOfWork.store === first.repository.store)
    }

    /// The same over HTTP: each POST reports a unit of work of its own.
    @Test(arguments: ContainerKind.allCases)
    func eachPostHasItsOwnUnitOfWork(kind: ContainerKind) async throws {
        let app = buildApplication(wiring: Self.freshWiring(kind))
        try await app.test(.router) { client in
            var seen: Set<String> = []
            for name in ["a", "b", "c"] {
                let response = try await client.execute(
                    uri: "/items", method: .post, headers: [.contentType: "application/json"], body: Self.json(name))
                #expect(response.status == .created)
                let id = try #require(response.headers[.unitOfWork])
                #expect(!seen.contains(id))
                seen.insert(id)
            }
            #expect(seen.count == 3)
        }
    }

    /// Requests on many tasks at once: the store is shared and thread-safe, each
    /// request's unit of work is its own.
    @Test(arguments: ContainerKind.allCases)
    func concurrentPosts(kind: ContainerKind) async throws {
        let count = 64
        let app = buildApplication(wiring: Self.freshWiring(kind))
        try await app.test(.router) { client in
            let units = try await withThrowingTaskGroup(of: String?.self) { group in
                for index in 0..<count {
                    group.addTask {
                        let response = try await client.execute(
                            uri: "/items", method: .post, headers: [.contentType: "application/json"],
                            body: Self.json("item \(index)"))
                        return response.status == .created ? response.headers[.unitOfWork] : nil
                    }
                }
                var units: [String?] = []
                for try await unit in group { units.append(unit) }
                return units
            }
            #expect(units.compactMap { $0 }.count == count)
            #expect(Set(units.compactMap { $0 }).count == count)

            let items = try Self.decode([Item].self, try await client.execute(uri: "/items", method: .get))
            #expect(items.map(\.id) == Array(1...count))
            #expect(Set(items.map(\.name)) == Set((0..<count).map { "item \($0)" }))
        }
    }

    /// Resolver: a mock container in front of `main`, set as `root`. The controller's
    /// `@Injected` properties read `root`, so they see the mock's greeting.
    @Test func resolverMockContainer() async throws {
        Resolver.reset()
        let mock = Resolver(child: Resolver.main)
        mock.register(name: .greeting) { "Bonjour" }
        Resolver.root = mock
        defer { Resolver.reset() }

        let app = buildApplication(wiring: ResolverWiring())
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/hello/Ada", method: .get)
            #expect(String(buffer: response.body) == "Bonjour, Ada!")
        }
    }
}
