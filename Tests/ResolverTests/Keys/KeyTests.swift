import Dispatch
import Foundation
@testable import Resolver
import ResolverTestSupport
import Testing

// Compile-time-checked keys (issue 38): ResolverKeys, ResolverKey<Service,
// each Argument>, resolving and overriding through key paths, promised keys.
// Each test uses keys of its own (the keys' registrations are process-wide
// until `Resolver.reset()`), and scopes of its own where it caches.

protocol KeyedGreeter: AnyObject {
    var greeting: String { get }
}

final class LiveKeyedGreeter: KeyedGreeter, @unchecked Sendable {
    let greeting = "live"
    let serial = Serial.next()
}

final class MockKeyedGreeter: KeyedGreeter, @unchecked Sendable {
    let greeting: String
    let serial = Serial.next()
    init(_ greeting: String = "mock") { self.greeting = greeting }
}

/// A service made from a key's arguments.
final class KeyedUser: @unchecked Sendable {
    let id: Int
    let name: String
    let leaf: Leaf?
    let serial = Serial.next()
    init(id: Int, name: String, leaf: Leaf?) {
        self.id = id
        self.name = name
        self.leaf = leaf
    }
}

/// A store an async key makes.
final class KeyedStore: Sendable {
    let serial = Serial.next()
    init() async {
        await Task.yield()
    }
}

/// A view model a main-actor key makes; it notes whether it was made on
/// the main actor's queue.
@MainActor final class KeyedViewModel {
    let madeOnMainQueue = onMainQueue()
    init() {}
}

/// How often the counted key's getter and factory ran.
enum KeyCounters {
    static let getter = Counter()
    static let factory = Counter()
    static let asyncFactory = Counter()
}

/// The scopes of the key tests, one per test that caches.
enum KeyScopes {
    static let cachedUsers = ResolverScopeCache()
    static let cachedGreeter = ResolverScopeCache()
    static let reset = ResolverScopeCache()
    static let asyncStore = ResolverScopeCache()
    static let wrappers = ResolverScopeCache()
}

extension ResolverKeys {
    fileprivate var ktLeaf: ResolverKey<Leaf> { ResolverKey { Leaf() } }
    fileprivate var ktGreeter: ResolverKey<any KeyedGreeter> { ResolverKey { LiveKeyedGreeter() } }
    fileprivate var ktOtherGreeter: ResolverKey<any KeyedGreeter> { ResolverKey { MockKeyedGreeter("other") } }
    fileprivate var ktMiddle: ResolverKey<Middle> { ResolverKey { r in Middle(leaf: r.resolve(Leaf.self)) } }
    fileprivate var ktTop: ResolverKey<Top> {
        ResolverKey { r in Top(middle: Middle(leaf: r.resolve(\.ktLeaf)), leaf: r.resolve(\.ktLeaf)) }
    }
    fileprivate var ktUser: ResolverKey<KeyedUser, Int, String> {
        ResolverKey { r, id, name in KeyedUser(id: id, name: name, leaf: r.optional(Leaf.self)) }
    }
    fileprivate var ktPlainUser: ResolverKey<KeyedUser, Int, String> {
        ResolverKey { id, name in KeyedUser(id: id, name: name, leaf: nil) }
    }
    fileprivate var ktCachedUser: ResolverKey<KeyedUser, Int, String> {
        ResolverKey { id, name in KeyedUser(id: id, name: name, leaf: nil) }.scope(KeyScopes.cachedUsers)
    }
    fileprivate var ktPromise: ResolverKey<any KeyedGreeter> { .promised() }
    fileprivate var ktPromisedUser: ResolverKey<KeyedUser, Int> { .promised() }
    fileprivate var ktCachedGreeter: ResolverKey<any KeyedGreeter> {
        ResolverKey { LiveKeyedGreeter() }.scope(KeyScopes.cachedGreeter)
    }
    fileprivate var ktResetLeaf: ResolverKey<Leaf> { ResolverKey { Leaf() }.scope(KeyScopes.reset) }
    fileprivate var ktResetUser: ResolverKey<KeyedUser, Int> {
        ResolverKey { id in KeyedUser(id: id, name: "", leaf: nil) }.scope(KeyScopes.reset)
    }
    fileprivate var ktCounted: ResolverKey<Leaf> {
        KeyCounters.getter.increment()
        return ResolverKey {
            KeyCounters.factory.increment()
            return Leaf()
        }.scope(.unique)
    }
    fileprivate var ktStore: ResolverKey<KeyedStore> {
        ResolverKey {
            KeyCounters.asyncFactory.increment()
            return await KeyedStore()
        }.scope(KeyScopes.asyncStore)
    }
    fileprivate var ktAsyncUser: ResolverKey<KeyedUser, Int> {
        ResolverKey { r, id in
            await Task.yield()
            return KeyedUser(id: id, name: "async", leaf: r.optional(Leaf.self))
        }
    }
    fileprivate var ktViewModel: ResolverKey<KeyedViewModel> { ResolverKey { @MainActor in KeyedViewModel() } }
    fileprivate var ktContexts: ResolverKey<any KeyedGreeter> {
        ResolverKey { LiveKeyedGreeter() }
            .onTest { MockKeyedGreeter("test") }
            .onArg("-kt-greeter") { r in MockKeyedGreeter("argument") }
    }
    fileprivate var ktDebug: ResolverKey<any KeyedGreeter> {
        ResolverKey { LiveKeyedGreeter() }.onDebug { MockKeyedGreeter("debug") }
    }
    fileprivate var ktArgumentContext: ResolverKey<KeyedUser, Int> {
        ResolverKey { id in KeyedUser(id: id, name: "live", leaf: nil) }
            .onTest { id in KeyedUser(id: id, name: "test", leaf: nil) }
    }
    fileprivate var ktWrapped: ResolverKey<any KeyedGreeter> { ResolverKey { LiveKeyedGreeter() } }
    fileprivate var ktWrappedCached: ResolverKey<Leaf> { ResolverKey { Leaf() }.scope(KeyScopes.wrappers) }
    fileprivate var ktWrappedPromise: ResolverKey<Leaf> { .promised() }
}

/// An object with a property wrapper of each kind, each given a key and
/// the container of the wrappers' test.
final class KeyWrapperOwner: @unchecked Sendable {
    static let container = Resolver()

    @Injected(\.ktWrapped, container: KeyWrapperOwner.container) var greeter: any KeyedGreeter
    @OptionalInjected(\.ktWrappedPromise, container: KeyWrapperOwner.container) var promised: Leaf?
    @LazyInjected(\.ktWrappedCached, container: KeyWrapperOwner.container) var lazyLeaf: Leaf
    @WeakLazyInjected(\.ktWrappedCached, container: KeyWrapperOwner.container) var weakLeaf: Leaf?
}

extension IndependentTests {
    /// Declaring keys and resolving them from containers of the tests' own.
    @Suite struct Keys {
        @Test func aKeyResolvesItsFactoryFromAContainerThatRegistersNothing() {
            let container = Resolver()
            #expect(container.resolve(\.ktGreeter).greeting == "live")
            #expect(container.optional(\.ktGreeter)?.greeting == "live")
        }

        @Test func theFactoryIsGivenTheContainerResolveWasCalledOn() {
            let container = Resolver()
            let leaf = Leaf()
            container.register { leaf }
            #expect(container.resolve(\.ktMiddle).leaf === leaf)
            let other = Resolver()
            let otherLeaf = Leaf()
            other.register { otherLeaf }
            #expect(other.resolve(\.ktMiddle).leaf === otherLeaf)
        }

        @Test func argumentsReachTheFactoryInTheirOrderInEachShape() {
            let container = Resolver()
            let leaf = Leaf()
            container.register { leaf }
            let user = container.resolve(\.ktUser, arguments: 42, "ada")
            #expect(user.id == 42 && user.name == "ada" && user.leaf === leaf)
            let plain = container.resolve(\.ktPlainUser, arguments: 7, "grace")
            #expect(plain.id == 7 && plain.name == "grace" && plain.leaf == nil)
            #expect(container.optional(\.ktPlainUser, arguments: 1, "x")?.id == 1)
            #expect(user.serial != container.resolve(\.ktUser, arguments: 42, "ada").serial,
                    "the default scope keeps nothing between resolutions")
        }

        @Test func withoutAScopeAKeyHasTheGraphScope() {
            let container = Resolver()
            let top = container.resolve(\.ktTop)
            #expect(top.middle.leaf === top.leaf, "one instance within one resolution")
            #expect(container.resolve(\.ktTop).leaf !== top.leaf, "a new one in the next")
        }

        @Test func aCachingScopeKeepsOneInstancePerArgumentList() {
            let container = Resolver()
            let first = container.resolve(\.ktCachedUser, arguments: 1, "a")
            #expect(container.resolve(\.ktCachedUser, arguments: 1, "a") === first)
            #expect(Resolver().resolve(\.ktCachedUser, arguments: 1, "a") === first, "the scope is the key's, not the container's")
            let second = container.resolve(\.ktCachedUser, arguments: 2, "a")
            #expect(second !== first && second.id == 2)
        }

        @Test func aPromiseResolvesToNilUntilSomeoneRegistersIt() {
            let container = Resolver()
            #expect(container.optional(\.ktPromise) == nil)
            #expect(container.optional(\.ktPromisedUser, arguments: 3) == nil)
            container.register(\.ktPromise) { MockKeyedGreeter("kept") }
            container.register(\.ktPromisedUser) { id in KeyedUser(id: id, name: "kept", leaf: nil) }
            #expect(container.resolve(\.ktPromise).greeting == "kept")
            #expect(container.resolve(\.ktPromisedUser, arguments: 3).name == "kept")
            #expect(Resolver().optional(\.ktPromise) == nil, "kept only where it is registered")
        }

        /// A key is a registration of its own: registering its service type
        /// leaves the key alone, and overriding the key leaves the type alone.
        @Test func aKeyAndItsServiceTypeAreTwoRegistrations() {
            let byType = Resolver()
            byType.register { MockKeyedGreeter("by type") as KeyedGreeter }
            #expect(byType.resolve(\.ktGreeter).greeting == "live")
            #expect(byType.resolve(KeyedGreeter.self).greeting == "by type")
            let byKey = Resolver()
            byKey.register(\.ktGreeter) { MockKeyedGreeter("by key") }
            #expect(byKey.resolve(\.ktGreeter).greeting == "by key")
            #expect(byKey.optional(KeyedGreeter.self) == nil)
        }

        @Test func twoKeysOfOneTypeAreTwoRegistrations() {
            let container = Resolver()
            #expect(container.resolve(\.ktGreeter).greeting == "live")
            #expect(container.resolve(\.ktOtherGreeter).greeting == "other")
            container.register(\.ktOtherGreeter) { MockKeyedGreeter("overridden") }
            #expect(container.resolve(\.ktGreeter).greeting == "live")
            #expect(container.resolve(\.ktOtherGreeter).greeting == "overridden")
        }

        @Test func anOverrideIsFoundWhereARegistrationWouldBe() {
            let mocks = Resolver()
            mocks.register(\.ktGreeter) { r in MockKeyedGreeter(r === mocks ? "from mocks" : "elsewhere") }
            let parent = Resolver(child: mocks)
            #expect(mocks.resolve(\.ktGreeter).greeting == "from mocks")
            #expect(parent.resolve(\.ktGreeter).greeting == "elsewhere", "found in a child, given the container resolved")
            #expect(Resolver().resolve(\.ktGreeter).greeting == "live", "the key's own factory everywhere else")
            let shadowing = Resolver(child: mocks)
            shadowing.register(\.ktGreeter) { MockKeyedGreeter("nearer") }
            #expect(shadowing.resolve(\.ktGreeter).greeting == "nearer")
        }

        @Test func anOverrideKeepsTheKeysScopeUnlessItsOptionsChangeIt() {
            let container = Resolver()
            let options = container.register(\.ktCachedGreeter) { MockKeyedGreeter() }
            let first = container.resolve(\.ktCachedGreeter) as? MockKeyedGreeter
            #expect(first != nil && container.resolve(\.ktCachedGreeter) === first)
            options.scope(.unique)
            #expect(container.resolve(\.ktCachedGreeter) !== container.resolve(\.ktCachedGreeter))
            KeyScopes.cachedGreeter.reset()
        }

        @Test func anOverrideOfAKeyWithArgumentsTakesThem() {
            let container = Resolver()
            container.register(\.ktUser) { id, name in KeyedUser(id: id * 10, name: name + "!", leaf: nil) }
            let user = container.resolve(\.ktUser, arguments: 4, "x")
            #expect(user.id == 40 && user.name == "x!")
            let leaf = Leaf()
            let other = Resolver()
            other.register { leaf }
            other.register(\.ktUser) { r, id, _ in KeyedUser(id: id, name: "r", leaf: r.resolve(Leaf.self)) }
            #expect(other.resolve(\.ktUser, arguments: 5, "y").leaf === leaf)
        }

        @Test func resettingAKeyDropsItsInstancesOnly() {
            let container = Resolver()
            let leaf = container.resolve(\.ktResetLeaf)
            let user = container.resolve(\.ktResetUser, arguments: 1)
            let other = container.resolve(\.ktCachedUser, arguments: 9, "kept")
            KeyScopes.reset.reset(\.ktResetUser)
            #expect(container.resolve(\.ktResetUser, arguments: 1) !== user, "every argument list of the key goes")
            #expect(container.resolve(\.ktResetLeaf) === leaf, "the scope's other keys stay")
            KeyScopes.reset.reset(\.ktResetLeaf)
            #expect(container.resolve(\.ktResetLeaf) !== leaf)
            #expect(container.resolve(\.ktCachedUser, arguments: 9, "kept") === other)
        }

        @Test func propertyWrappersResolveKeysFromTheirContainer() {
            let container = KeyWrapperOwner.container
            container.register(\.ktWrapped) { MockKeyedGreeter("wrapped") }
            let owner = KeyWrapperOwner()
            #expect(owner.greeter.greeting == "wrapped")
            #expect(owner.promised == nil)
            let lazy = owner.lazyLeaf
            #expect(owner.lazyLeaf === lazy && container.resolve(\.ktWrappedCached) === lazy)
            #expect(owner.weakLeaf === lazy)
            container.register(\.ktWrappedPromise) { Leaf() }
            #expect(KeyWrapperOwner().promised != nil)
            KeyScopes.wrappers.reset()
        }

        /// The getter runs at every resolve, only making the key (the
        /// factory runs when an instance is made), and once more at the
        /// key's first use, when its registration is made.
        @Test func theGetterRunsAtEachResolveAndOnceMoreAtTheFirstUse() {
            let container = Resolver()
            let getter = KeyCounters.getter.count
            let factory = KeyCounters.factory.count
            for _ in 0..<3 {
                _ = container.resolve(\.ktCounted)
            }
            #expect(KeyCounters.getter.count - getter == 4)
            #expect(KeyCounters.factory.count - factory == 3)
        }

        @Test func anAsyncKeyInACachingScopeIsBuiltOnceForManyTasks() async {
            let container = Resolver()
            let before = KeyCounters.asyncFactory.count
            let serials = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<20 {
                    group.addTask { await container.resolveAsync(\.ktStore).serial }
                }
                return await group.reduce(into: Set<Int>()) { $0.insert($1) }
            }
            #expect(serials.count == 1)
            #expect(KeyCounters.asyncFactory.count - before == 1)
            #expect(container.resolve(\.ktStore).serial == serials.first, "a synchronous resolve returns the cached instance")
            #expect(await container.optionalAsync(\.ktPromise) == nil)
            KeyScopes.asyncStore.reset()
        }

        @Test func anAsyncKeyWithArgumentsIsAwaited() async {
            let container = Resolver()
            let leaf = Leaf()
            container.register { leaf }
            let user = await container.resolveAsync(\.ktAsyncUser, arguments: 8)
            #expect(user.id == 8 && user.name == "async" && user.leaf === leaf)
        }

        @Test func aMainActorKeyIsMadeOnTheMainActor() async {
            let container = Resolver()
            let model = await container.resolveAsync(\.ktViewModel)
            #expect(model.madeOnMainQueue)
            await MainActor.run {
                #expect(container.resolve(\.ktViewModel).madeOnMainQueue)
            }
        }

        /// Under `swift test`: the test context applies; a launch argument
        /// wins over it; a debug build applies where nothing else does.
        @Test func aKeysContextsApplyAsARegistrations() {
            let container = Resolver()
            #expect(container.resolve(\.ktContexts).greeting == "test")
            let argument = ResolverContext.withLaunchArguments(adding: ["-kt-greeter"]) {
                container.resolve(\.ktContexts).greeting
            }
            #expect(argument == "argument")
            #expect(container.resolve(\.ktDebug).greeting == (ResolverContext.isDebugBuild ? "debug" : "live"))
            #expect(container.resolve(\.ktArgumentContext, arguments: 3).name == "test",
                    "a context of a key with arguments is given them")
            #expect(container.resolve(\.ktArgumentContext, arguments: 3).id == 3)
        }

        @Test func aKeysRegistrationsArePlacedWhereTheyAreWritten() throws {
            let container = Resolver()
            let line = #line + 1
            let options = container.register(\.ktOtherGreeter) { MockKeyedGreeter() }
            #expect(options.registration.registeredAt == "ResolverTests/KeyTests.swift:\(line)")
            #expect(options.registration.keyDescription == "KeyedGreeter:\\.ktOtherGreeter")
        }
    }
}

extension ResolverKeys {
    fileprivate var ktStrictLive: ResolverKey<Leaf> { ResolverKey { Leaf() } }
    fileprivate var ktStrictAllowed: ResolverKey<Middle> { ResolverKey { Middle(leaf: Leaf()) }.allowedInStrictTests() }
    fileprivate var ktStrictTested: ResolverKey<any KeyedGreeter> {
        ResolverKey { LiveKeyedGreeter() }.onTest { MockKeyedGreeter() }
    }
    fileprivate var ktVerifyLeaf: ResolverKey<Leaf> { ResolverKey { Leaf() } }
    fileprivate var ktVerifyMiddle: ResolverKey<Middle> { ResolverKey { r in Middle(leaf: r.resolve(\.ktVerifyLeaf)) } }
    fileprivate var ktVerifyPromise: ResolverKey<any KeyedGreeter> { .promised() }
    fileprivate var ktVerifyUser: ResolverKey<KeyedUser, Int> { ResolverKey { id in KeyedUser(id: id, name: "", leaf: nil) } }
    fileprivate var ktLockFreeCached: ResolverKey<Leaf> { ResolverKey { Leaf() }.scope(.application) }
    fileprivate var ktLockFreeUnique: ResolverKey<Leaf> { ResolverKey { Leaf() }.scope(.unique) }
    fileprivate var ktLockFreeArgument: ResolverKey<KeyedUser, Int> {
        ResolverKey { id in KeyedUser(id: id, name: "", leaf: nil) }.scope(.application)
    }
    fileprivate var ktStatic: ResolverKey<any KeyedGreeter> { ResolverKey { LiveKeyedGreeter() } }
}

extension ResolverTests {
    /// Keys through the static API, `withRoot`, strict tests, `verify()`,
    /// the graph, `reset()`, and resolves while a writer holds the lock.
    @Suite struct KeysAppWide {
        @Test func theStaticAPIResolvesFromTheRootAndRegistersInMain() {
            Resolver.reset()
            #expect(Resolver.resolve(\.ktStatic).greeting == "live")
            Resolver.register(\.ktStatic) { MockKeyedGreeter("main") }
            #expect(Resolver.resolve(\.ktStatic).greeting == "main")
            #expect(Resolver.optional(\.ktStatic)?.greeting == "main")
            let mocks = Resolver(child: .main, isolatedScopes: true)
            mocks.register(\.ktStatic) { MockKeyedGreeter("test") }
            Resolver.withRoot(mocks) {
                #expect(Resolver.resolve(\.ktStatic).greeting == "test")
            }
            #expect(Resolver.resolve(\.ktStatic).greeting == "main")
            Resolver.reset()
            #expect(Resolver.resolve(\.ktStatic).greeting == "live", "reset() drops the override with main")
        }

        @Test func aStrictTestReportsAKeysOwnFactoryWithWhereTheKeyIsDeclared() async {
            Resolver.reset()
            let mine = Resolver(child: .main, isolatedScopes: true)
            mine.register(\.ktStatic) { MockKeyedGreeter() }
            let reports = Locked<[Resolver.LiveRegistrationUse]>([])
            await Resolver.withStrictTesting(mine, report: { use in reports.withLock { $0.append(use) } }) {
                await Resolver.withRoot(mine) {
                    _ = Resolver.resolve(\.ktStrictLive)
                    _ = await Resolver.resolveAsync(\.ktStrictLive)
                    _ = mine.resolve(\.ktStrictLive)
                    _ = Resolver.resolve(\.ktStrictAllowed)
                    _ = Resolver.resolve(\.ktStrictTested)
                    _ = Resolver.resolve(\.ktStatic)
                }
            }
            let seen = reports.withLock { $0 }
            #expect(seen.map(\.service) == ["Leaf:\\.ktStrictLive"], "\(seen)")
            #expect(seen.first?.name == "\\.ktStrictLive")
            #expect(seen.first?.registeredAt?.hasPrefix("ResolverTests/KeyTests.swift:") == true)
        }

        @Test func verifyResolvesTheKeysUsedAndReportsPromisesNobodyKept() throws {
            Resolver.reset()
            _ = Resolver.resolve(\.ktVerifyMiddle)
            _ = Resolver.optional(\.ktVerifyPromise)
            _ = Resolver.resolve(\.ktVerifyUser, arguments: 1)
            let result = Resolver.verify()
            #expect(result.resolved.contains("Middle:\\.ktVerifyMiddle"), "\(result)")
            #expect(result.resolved.contains("Leaf:\\.ktVerifyLeaf"), "\(result)")
            #expect(result.skipped.contains("KeyedUser:\\.ktVerifyUser"), "\(result)")
            let promise = try #require(result.failures.first { $0.service == "KeyedGreeter:\\.ktVerifyPromise" })
            #expect(promise.kind == .missing)
            #expect(promise.message.contains("the key \\.ktVerifyPromise of 'KeyedGreeter', promised at ResolverTests/KeyTests.swift:"),
                    "\(promise.message)")
            let edge = result.graph.edges.map { "\($0.from) -> \($0.to)" }
            #expect(edge.contains("Middle:\\.ktVerifyMiddle -> Leaf:\\.ktVerifyLeaf"), "\(edge)")
            #expect(result.graph.nodes.contains { $0.name == "\\.ktVerifyLeaf" && $0.scope == "graph" })

            Resolver.register(\.ktVerifyPromise) { MockKeyedGreeter() }
            #expect(Resolver.verify().isValid, "a promise kept in main")
            #expect(Resolver().verify().resolved.isEmpty, "a container apart from the app's verifies its own registrations")
            Resolver.reset()
            #expect(!Resolver.verify().resolved.contains("Leaf:\\.ktVerifyLeaf"), "reset() forgets the keys used")
        }

        /// A resolve through a key takes no lock once the key is in use: each
        /// kind completes while another thread holds the registry mutex.
        @Test func aKeysResolveCompletesWhileTheWriteLockIsHeld() {
            Resolver.reset()
            let container = Resolver()
            container.register(\.ktLockFreeUnique) { Leaf() }
            let cached = Resolver.resolve(\.ktLockFreeCached)
            let user = container.resolve(\.ktLockFreeArgument, arguments: 3)
            _ = container.resolve(\.ktLockFreeUnique)
            _ = Resolver.resolve(\.ktLockFreeUnique)
            let parked = LockFree.WriterParked()
            let results = Locked<[Bool]>([])
            let finished = startThread {
                let answers = [Resolver.resolve(\.ktLockFreeCached) === cached,
                               container.resolve(\.ktLockFreeCached) === cached,
                               container.resolve(\.ktLockFreeArgument, arguments: 3) === user,
                               container.resolve(\.ktLockFreeUnique) !== container.resolve(\.ktLockFreeUnique),
                               Resolver.optional(\.ktLockFreeUnique) != nil]
                results.withLock { $0 = answers }
            }.finished(within: 5)
            parked.release()
            #expect(finished, "a key's resolve waited for the registry mutex")
            #expect(results.withLock { $0 } == [true, true, true, true, true])
            ResolverScope.application.reset()
        }
    }
}
