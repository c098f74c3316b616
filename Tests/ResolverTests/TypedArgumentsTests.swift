import Dispatch
import Foundation
@testable import Resolver
import Testing

/// A view model made from typed arguments.
final class TypedUserModel: Sendable {
    let id: Int
    let name: String
    let leaf: Leaf
    let serial = Serial.next()
    init(id: Int, name: String, leaf: Leaf) {
        self.id = id
        self.name = name
        self.leaf = leaf
    }
}

/// A service that says which arguments made it.
final class Labelled: @unchecked Sendable {
    let name: String
    init(name: String) { self.name = name }
}

/// A store an async factory makes from a typed argument.
final class ProfileStore: Sendable {
    let id: Int
    let serial = Serial.next()
    init(id: Int) async {
        await Task.yield()
        self.id = id
    }
}

/// A main-actor view model made from a typed argument.
@MainActor final class ProfileModel {
    let id: Int
    init(id: Int) { self.id = id }
}

/// An argument type that is not `Hashable`.
struct Settings {
    let verbose: Bool
}

extension IndependentTests {
    /// `register(arguments:)` and `resolve(_:arguments:)`: typed arguments,
    /// one instance per argument list in caching scopes.
    @Suite struct TypedArguments {
        @Test func aFactoryReceivesTheTypedArguments() {
            let resolver = Resolver()
            resolver.register { Leaf() }
            resolver.register(arguments: Int.self, String.self) { r, id, name in
                TypedUserModel(id: id, name: name, leaf: r.resolve())
            }
            let model = resolver.resolve(TypedUserModel.self, arguments: 42, "ada")
            #expect(model.id == 42 && model.name == "ada")
            let other: TypedUserModel = resolver.resolve(arguments: 7, "grace")
            #expect(other.id == 7 && other.name == "grace" && other.serial != model.serial)
        }

        @Test func oneArgumentNamedAndOptional() {
            let resolver = Resolver()
            resolver.register(Leaf.self, name: "admin", arguments: Int.self) { _, _ in Leaf() }
            resolver.register(arguments: Int.self) { _, id -> XYZSessionService? in id > 0 ? XYZSessionService() : nil }
            #expect(resolver.optional(Leaf.self, name: "admin", arguments: 1) != nil)
            #expect(resolver.optional(Leaf.self, name: "other", arguments: 1) == nil, "nil when not registered")
            #expect(resolver.optional(XYZSessionService.self, arguments: 0) == nil, "nil when the factory returns nil")
            #expect(resolver.optional(XYZSessionService.self, arguments: 1) != nil)
        }

        @Test func theStaticAPIResolvesFromTheRoot() {
            let mocks = Resolver(child: .main, isolatedScopes: true)
            Resolver.withRoot(mocks) {
                mocks.register(arguments: String.self) { _, name in Labelled(name: name) }
                let service = Resolver.resolve(Labelled.self, arguments: "fred")
                #expect(service.name == "fred")
                #expect(Resolver.optional(Labelled.self, arguments: "barney")?.name == "barney")
            }
        }

        @Test(arguments: ["application", "cached", "shared", "container", "custom"])
        func cachingScopesKeepOneInstancePerArgumentList(scope name: String) {
            let scope: ResolverScope = switch name {
            case "application": .application
            case "cached": .cached
            case "shared": .shared
            case "container": .container
            default: ResolverScopeCache()
            }
            let resolver = Resolver(child: nil, isolatedScopes: true)
            let runs = Counter()
            resolver.register(arguments: Int.self, String.self) { _, id, name -> Labelled? in
                runs.increment()
                return Labelled(name: "\(name)#\(id)")
            }.scope(scope)
            let a1 = resolver.resolve(Labelled.self, arguments: 1, "a")
            let a2 = resolver.resolve(Labelled.self, arguments: 1, "a")
            let b = resolver.resolve(Labelled.self, arguments: 2, "a")
            let c = resolver.resolve(Labelled.self, arguments: 1, "b")
            #expect(a1 === a2, "the same list gets the same instance")
            #expect(a1 !== b && a1 !== c && b !== c, "another list, another instance")
            #expect(a1.name == "a#1" && b.name == "a#2" && c.name == "b#1")
            #expect(runs.count == 3)
            withExtendedLifetime((a1, b, c)) {}
        }

        @Test func resettingTheScopeDropsEveryList() {
            let resolver = Resolver()
            let scope = ResolverScopeCache()
            resolver.register(arguments: Int.self) { _, id in Labelled(name: "\(id)") }.scope(scope)
            let one = resolver.resolve(Labelled.self, arguments: 1)
            let two = resolver.resolve(Labelled.self, arguments: 2)
            scope.reset()
            #expect(resolver.resolve(Labelled.self, arguments: 1) !== one)
            #expect(resolver.resolve(Labelled.self, arguments: 2) !== two)
        }

        @Test func uniqueAndGraphScopesMakeNewInstances() {
            let resolver = Resolver()
            resolver.register(arguments: Int.self) { _, id in Labelled(name: "\(id)") }.scope(.unique)
            #expect(resolver.resolve(Labelled.self, arguments: 1) !== resolver.resolve(Labelled.self, arguments: 1))
            resolver.register(name: "graph", arguments: Int.self) { _, id in Labelled(name: "\(id)") }
            #expect(resolver.resolve(Labelled.self, name: "graph", arguments: 1).name == "1")
        }

        @Test func anUntypedAndATypedRegistrationShareNoCachedInstance() {
            // Two containers, one scope: the ordinary registration's instance
            // and the typed one's per-argument instances live apart.
            let scope = ResolverScopeCache()
            let plain = Resolver()
            plain.register { Labelled(name: "plain") }.scope(scope)
            let typed = Resolver()
            typed.register(arguments: Int.self) { _, id in Labelled(name: "typed \(id)") }.scope(scope)
            #expect(plain.resolve(Labelled.self).name == "plain")
            #expect(typed.resolve(Labelled.self, arguments: 3).name == "typed 3")
            #expect(plain.resolve(Labelled.self).name == "plain")
        }

        @Test func threadsBuildEachArgumentListOnce() {
            let resolver = Resolver()
            let scope = ResolverScopeCache()
            let runs = Counter()
            resolver.register(arguments: Int.self) { _, id -> Labelled? in
                runs.increment()
                usleep(2_000)
                return Labelled(name: "\(id)")
            }.scope(scope)
            let seen = Locked<[Int: Set<ObjectIdentifier>]>([:])
            runOnThreads(8) { thread in
                for round in 0..<20 {
                    let id = round % 4
                    let service = resolver.resolve(Labelled.self, arguments: id)
                    seen.withLock { _ = $0[id, default: []].insert(ObjectIdentifier(service)) }
                }
            }
            #expect(seen.withLock { $0.values.allSatisfy { $0.count == 1 } }, "one instance per list")
            #expect(runs.count == 4, "each list built once")
        }

        @Test func resolvePropertiesRunsAfterATypedFactory() {
            final class Holder { var leaf: Leaf?; let id: Int; init(id: Int) { self.id = id } }
            let resolver = Resolver()
            resolver.register { Leaf() }
            resolver.register(arguments: Int.self) { _, id in Holder(id: id) }
                .resolveProperties { r, holder in holder.leaf = r.resolve(Leaf.self) }
            let holder = resolver.resolve(Holder.self, arguments: 5)
            #expect(holder.id == 5 && holder.leaf != nil)
        }

        @Test func asyncFactoriesTakeTypedArgumentsAndBuildOncePerList() async {
            let resolver = Resolver()
            let runs = Counter()
            resolver.register(arguments: Int.self) { (_: Resolver, id: Int) async -> ProfileStore? in
                runs.increment()
                return await ProfileStore(id: id)
            }.scope(ResolverScopeCache())
            let ids = await withTaskGroup(of: (Int, ObjectIdentifier).self) { group in
                for index in 0..<20 {
                    group.addTask {
                        let id = index % 2
                        return (id, ObjectIdentifier(await resolver.resolveAsync(ProfileStore.self, arguments: id)))
                    }
                }
                var ids: [Int: Set<ObjectIdentifier>] = [:]
                for await (id, object) in group { ids[id, default: []].insert(object) }
                return ids
            }
            #expect(ids[0]?.count == 1 && ids[1]?.count == 1 && ids[0] != ids[1])
            #expect(runs.count == 2)
            #expect(await resolver.optionalAsync(ProfileStore.self, arguments: 1)?.id == 1)
            #expect(await resolver.optionalAsync(ProfileStore.self, name: "none", arguments: 1) == nil)
        }

        @Test func mainActorFactoriesTakeTypedArguments() async {
            let resolver = Resolver()
            resolver.register(arguments: Int.self) { @MainActor _, id in ProfileModel(id: id) }
            let model = await resolver.resolveAsync(ProfileModel.self, arguments: 9)
            let id = await MainActor.run { model.id }
            #expect(id == 9)
        }
    }
}
