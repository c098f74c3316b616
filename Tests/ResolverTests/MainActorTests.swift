import Dispatch
import Foundation
@testable import Resolver
import Testing

/// A view model as apps write them: isolated to the main actor.
@MainActor final class SettingsViewModel {
    let id = Serial.next()
    /// Whether the initializer ran on the main actor's queue.
    let madeOnMainQueue = onMainQueue()
    var title = "Settings"
    init() {}
}

/// A main-actor service that needs another service.
@MainActor final class ProfileViewModel {
    let settings: SettingsViewModel
    let leaf: Leaf
    init(settings: SettingsViewModel, leaf: Leaf) {
        self.settings = settings
        self.leaf = leaf
    }
}

/// A key the main queue carries, so a test can tell where code ran (on Linux
/// the main actor's jobs need not run on the process's first thread).
let mainQueueKey: DispatchSpecificKey<UInt8> = {
    let key = DispatchSpecificKey<UInt8>()
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return key
}()

func onMainQueue() -> Bool {
    DispatchQueue.getSpecific(key: mainQueueKey) != nil
}

/// Runs `body` on a thread of its own (not the main actor) and returns its result.
func offMainActor<Result: Sendable>(_ body: @escaping @Sendable () -> Result) -> Result {
    let result = Locked<Result?>(nil)
    startThread { result.withLock { $0 = body() } }
    _ = eventually(within: 30) { result.withLock { $0 != nil } }
    return result.withLock { $0! }
}

extension ResolverTests {
    /// `register { @MainActor in … }`: the factory runs on the main actor only.
    @Suite struct MainActorServices {
        /// Registered from nonisolated code (no diagnostics in Swift 6 mode),
        /// resolved synchronously on the main actor: the factory runs there.
        @MainActor @Test func aMainActorFactoryRunsWhenResolvedOnTheMainActor() {
            let resolver = Resolver()
            registerViewModels(in: resolver)
            let model: SettingsViewModel = resolver.resolve()
            #expect(model.madeOnMainQueue)
            let profile: ProfileViewModel = resolver.resolve()
            #expect(profile.settings.madeOnMainQueue)
        }

        /// Every shape: with the type, with a name, with the resolver, with
        /// arguments; static and on a container; with every built-in scope.
        @MainActor @Test(arguments: ["graph", "application", "cached", "shared", "unique", "container"])
        func everyShapeAndScope(scope name: String) {
            let scope: ResolverScope = switch name {
            case "graph": .graph
            case "application": .application
            case "cached": .cached
            case "shared": .shared
            case "unique": .unique
            default: .container
            }
            let resolver = Resolver(child: nil, isolatedScopes: true)
            registerEveryShape(in: resolver, scope: scope)
            let plain: SettingsViewModel = resolver.resolve()
            let typed = resolver.resolve(SettingsViewModel.self, name: "typed")
            let withResolver = resolver.resolve(SettingsViewModel.self, name: "resolver")
            let withArguments = resolver.resolve(SettingsViewModel.self, name: "args", args: "Prefs")
            #expect(plain.madeOnMainQueue && typed.madeOnMainQueue && withResolver.madeOnMainQueue)
            #expect(withArguments.title == "Prefs")
            let again: SettingsViewModel = resolver.resolve()
            let cachingScope = ["application", "cached", "container"].contains(name)
            #expect((again === plain) == (cachingScope || name == "shared"), "\(name)")
        }

        @MainActor @Test func staticRegistrationAndInjected() {
            let mocks = Resolver(child: .main, isolatedScopes: true)
            Resolver.withRoot(mocks) {
                Resolver.main.register(name: "static") { @MainActor in SettingsViewModel() }
                Resolver.register(name: "static-root") { @MainActor in SettingsViewModel() }
                mocks.register { @MainActor in SettingsViewModel() }
                @MainActor final class Screen {
                    @Injected var model: SettingsViewModel
                    @LazyInjected(name: "static-root") var lazyModel: SettingsViewModel
                }
                let screen = Screen()
                #expect(screen.model.madeOnMainQueue)
                #expect(screen.lazyModel.madeOnMainQueue)
                #expect(Resolver.resolve(SettingsViewModel.self, name: "static").madeOnMainQueue)
            }
        }

        /// Off the main actor, an instance a caching scope already holds is
        /// returned (it is Sendable); the factory never runs there.
        @MainActor @Test func aCachedInstanceIsReturnedOffTheMainActor() {
            let resolver = Resolver(child: nil, isolatedScopes: true)
            let runs = Counter()
            resolver.register { @MainActor in
                runs.increment()
                return SettingsViewModel()
            }.scope(.application)
            let onMain: SettingsViewModel = resolver.resolve()
            let offMain = offMainActor { ObjectIdentifier(resolver.resolve(SettingsViewModel.self)) }
            #expect(offMain == ObjectIdentifier(onMain))
            #expect(runs.count == 1)
        }

        /// `resolveAsync` from anywhere hops to the main actor to run it.
        @Test func resolveAsyncHopsToTheMainActor() async {
            let resolver = Resolver()
            registerViewModels(in: resolver)
            let model = await Task.detached {
                await resolver.resolveAsync(SettingsViewModel.self)
            }.value
            #expect(model.madeOnMainQueue)
            let profile = await Task.detached { await resolver.resolveAsync(ProfileViewModel.self) }.value
            #expect(profile.settings.madeOnMainQueue)
        }

        /// A plain factory registered from the main actor (as every closure of
        /// a module with default MainActor isolation is) and run off it by a
        /// synchronous resolve: the library says so, once per registration,
        /// and still runs it (apps doing this today keep working).
        @MainActor @Test func aPlainFactoryRegisteredOnTheMainActorWarnsOnceWhenRunElsewhere() {
            let warnings = Locked<[String]>([])
            registry.withLock { registry.warningHook = { @Sendable message in warnings.withLock { $0.append(message) } } }
            defer { registry.withLock { registry.warningHook = nil } }
            let resolver = Resolver()
            resolver.register { Leaf() }   // registered from the main actor
            let onMain: Leaf = resolver.resolve()
            #expect(onMain.id > 0)
            #expect(warnings.withLock { $0.isEmpty }, "no warning while it runs on the main actor")
            let first = offMainActor { resolver.resolve(Leaf.self).id }
            let second = offMainActor { resolver.resolve(Leaf.self).id }
            #expect(first != second, "it still runs off the main actor")
            let said = warnings.withLock { $0 }
            #expect(said.count == 1, "\(said)")
            #expect(said.first?.contains("'Leaf' was registered from the main actor (MainActor)") == true)
            #expect(said.first?.contains("{ @MainActor in … }") == true)
        }

        /// The same factory registered from nonisolated code says nothing.
        @Test func aPlainFactoryRegisteredFromNonisolatedCodeSaysNothing() {
            let warnings = Locked<[String]>([])
            registry.withLock { registry.warningHook = { @Sendable message in warnings.withLock { $0.append(message) } } }
            defer { registry.withLock { registry.warningHook = nil } }
            let resolver = Resolver()
            resolver.register { Leaf() }
            _ = offMainActor { resolver.resolve(Leaf.self).id }
            #expect(warnings.withLock { $0.isEmpty })
        }

        /// `#isolation` tells `register` its caller's isolation.
        @MainActor @Test func registerSeesItsCallersIsolation() {
            let resolver = Resolver()
            let onMain = resolver.register(name: "main") { Leaf() }.registration
            let elsewhere = registerFromNonisolatedCode(in: resolver).registration
            #expect(onMain.registeredOnMainActor)
            #expect(!elsewhere.registeredOnMainActor)
        }
    }
}

/// Registrations written in nonisolated code, as `registerAllServices` is.
func registerViewModels(in resolver: Resolver) {
    resolver.register { @MainActor in SettingsViewModel() }
    resolver.register { @MainActor r in ProfileViewModel(settings: r.resolve(), leaf: r.resolve()) }
    resolver.register { Leaf() }
}

func registerEveryShape(in resolver: Resolver, scope: ResolverScope) {
    resolver.register { @MainActor in SettingsViewModel() }.scope(scope)
    resolver.register(SettingsViewModel.self, name: "typed") { @MainActor in SettingsViewModel() }.scope(scope)
    resolver.register(name: "resolver") { @MainActor _ in SettingsViewModel() }.scope(scope)
    resolver.register(name: "args") { @MainActor _, args -> SettingsViewModel? in
        let model = SettingsViewModel()
        model.title = args()
        return model
    }.scope(scope)
}

func registerFromNonisolatedCode(in resolver: Resolver) -> ResolverOptions<Leaf> {
    resolver.register(name: "nonisolated") { Leaf() }
}
