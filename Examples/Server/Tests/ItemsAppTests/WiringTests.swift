// Picking the container, and replacing a Swinject registration the way Swinject users
// do in tests. (This file imports Swinject and not Resolver: both modules declare a
// `Resolver`. Resolver's own mock test is in RoutesTests, with the other tests that
// touch its global registry.)
import Hummingbird
import HummingbirdTesting
import ItemsApp
import Swinject
import Testing

struct WiringTests {
    @Test func containerFromTheEnvironment() throws {
        #expect(try ContainerKind(environment: [:]) == .resolver)
        #expect(try ContainerKind(environment: ["CONTAINER": ""]) == .resolver)
        #expect(try ContainerKind(environment: ["CONTAINER": "resolver"]) == .resolver)
        #expect(try ContainerKind(environment: ["CONTAINER": "swinject"]) == .swinject)
        #expect(try ContainerKind(environment: ["CONTAINER": "Swinject"]) == .swinject)
        #expect(try ContainerKind(environment: ["CONTAINER": "hand"]) == .hand)
        #expect(throws: ContainerKind.UnknownContainer.self) {
            try ContainerKind(environment: ["CONTAINER": "needle"])
        }
        #expect(ContainerKind.resolver.makeWiring() is ResolverWiring)
        #expect(ContainerKind.swinject.makeWiring() is SwinjectWiring)
        #expect(ContainerKind.hand.makeWiring() is HandWiring)
    }

    /// The hand-wired app serves the same routes: one store for the app, so an
    /// item stored by one request is found by the next.
    @Test func handWiredAppStoresAndFindsItems() async throws {
        let app = buildApplication(wiring: HandWiring())
        try await app.test(.router) { client in
            let hello = try await client.execute(uri: "/hello/Ada", method: .get)
            #expect(String(buffer: hello.body) == "Hello, Ada!")
            let created = try await client.execute(uri: "/items", method: .post,
                                                   headers: [.contentType: "application/json"],
                                                   body: ByteBuffer(string: #"{"name":"lamp"}"#))
            #expect(created.status == .created)
            let found = try await client.execute(uri: "/items/1", method: .get)
            #expect(found.status == .ok)
            #expect(String(buffer: found.body).contains("lamp"))
        }
    }

    /// Register again on the container before wiring it: the later registration wins.
    @Test func swinjectReplacedRegistration() async throws {
        let container = SwinjectWiring.makeContainer()
        container.register(String.self, name: "greeting") { _ in "Bonjour" }
        let app = buildApplication(wiring: SwinjectWiring(container: container))
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/hello/Ada", method: .get)
            #expect(String(buffer: response.body) == "Bonjour, Ada!")
        }
    }
}
