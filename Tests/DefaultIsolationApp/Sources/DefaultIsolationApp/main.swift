// The usual registerAllServices, with plain closures (a list's elements too), in a module whose
// default isolation is MainActor: it compiles with no diagnostics, resolving
// on the main actor works, and a factory that a synchronous resolve runs off
// the main actor is reported once (on standard error) and still runs.
import Foundation
import Resolver

final class Network { init() {} }
final class SettingsViewModel {
    let network: Network
    init(network: Network) { self.network = network }
}
protocol Greeting { var text: String { get } }
struct Hello: Greeting { let text = "hello" }
struct Mock: Greeting { let text = "mock" }
final class Clock: Sendable { nonisolated init() {} }
actor Store { init() async {} }

extension Resolver: @retroactive ResolverRegistering {
    public static func registerAllServices() {
        register { Network() }.scope(.application)
        register { r in SettingsViewModel(network: r.resolve()) }
        register { Hello() as Greeting }
        register(name: "args") { _, args in SettingsViewModel(network: args()) }
        register { @MainActor in Clock() }.scope(.cached)
        register { await Store() }.scope(.application)
        register(name: "typed", arguments: Int.self, String.self) { r, _, _ in SettingsViewModel(network: r.resolve()) }
            .scope(.cached)
        register(name: "typed", arguments: Int.self) { @MainActor _, _ in Clock() }
        register(name: "typed", arguments: Int.self) { _, _ in await Store() }
        register(into: [Greeting].self) { Hello() }
        register(into: [Greeting].self) { r in r.resolve(Greeting.self) }.scope(.application)
        register(name: "contexts") { Hello() as Greeting }
            .onTest { Hello() as Greeting }
            .onPreview { _ in Hello() as Greeting }
            .onArg("-greet-mock") { _, _ in Mock() as Greeting }
            .onDebug { Hello() as Greeting }
            .allowedInStrictTests()
    }
}

final class Screen {
    @Injected var model: SettingsViewModel
    @LazyInjected var greeting: Greeting
    @DynamicInjected var currentModel: SettingsViewModel
}

// Compile-time-checked keys declared and used in a module whose default
// isolation is MainActor: the getters are isolated to the main actor, and
// the keys resolve as in any module.
extension ResolverKeys {
    var greetingKey: ResolverKey<any Greeting> { ResolverKey { Hello() } }
    var modelKey: ResolverKey<SettingsViewModel> { ResolverKey { r in SettingsViewModel(network: r.resolve()) } }
    var typedKey: ResolverKey<SettingsViewModel, Int> { ResolverKey { r, _ in SettingsViewModel(network: r.resolve()) } }
    var clockKey: ResolverKey<Clock> { ResolverKey { @MainActor in Clock() }.scope(.cached) }
    var storeKey: ResolverKey<Store> { ResolverKey { await Store() }.scope(.application) }
    var promisedKey: ResolverKey<any Greeting> { .promised() }
    // A key to use off the main actor too: its getter nonisolated.
    nonisolated var clockAnywhereKey: ResolverKey<Clock> { ResolverKey { Clock() }.scope(.application) }
    // A main-actor factory declared nonisolated, with a main-actor context:
    // resolvable with resolveAsync from any isolation (issue 43).
    nonisolated var mainActorClockKey: ResolverKey<Clock> {
        ResolverKey { @MainActor in Clock() }.onDebug { @MainActor in Clock() }.scope(.unique)
    }
    var contextKey: ResolverKey<any Greeting> {
        ResolverKey { Hello() }.onArg("-greet-key-mock") { Mock() }.onTest { Mock() }.allowedInStrictTests()
    }
}

final class KeyScreen {
    @Injected(\.greetingKey) var greeting
    @LazyInjected(\.modelKey) var model
    @WeakLazyInjected(\.modelKey) var weakModel
    @OptionalInjected(\.promisedKey) var promised
    @DynamicInjected(\.greetingKey) var currentGreeting
}

var failures: [String] = []
func check(_ condition: Bool, _ what: String) {
    if !condition { failures.append(what) }
}

let screen = Screen()
let model: SettingsViewModel = Resolver.resolve()
check(screen.model.network === model.network, "one application-wide Network")
check(screen.greeting.text == "hello", "@LazyInjected on the main actor")
check(screen.currentModel !== screen.currentModel && screen.currentModel.network === model.network,
      "@DynamicInjected on the main actor: a new view model at each read")
check(Resolver.resolve(SettingsViewModel.self, name: "args", args: model.network).network === model.network, "arguments")
let typed = Resolver.resolve(SettingsViewModel.self, name: "typed", arguments: 1, "a")
check(typed === Resolver.resolve(SettingsViewModel.self, name: "typed", arguments: 1, "a"), "typed arguments, one instance per list")
check(typed !== Resolver.resolve(SettingsViewModel.self, name: "typed", arguments: 2, "a"), "typed arguments, another list")
check(Resolver.optional(Clock.self, name: "typed", arguments: 3) != nil, "a @MainActor factory of typed arguments")
let typedStore = await Resolver.resolveAsync(Store.self, name: "typed", arguments: 4)
check(typedStore !== (await Resolver.resolveAsync(Store.self, name: "typed", arguments: 4)), "an async factory of typed arguments")
check(Resolver.resolve([Greeting].self).map(\.text) == ["hello", "hello"], "a list of elements added with register(into:)")
let greeted = ResolverContext.withLaunchArguments(adding: ["-greet-mock"]) {
    Resolver.resolve(Greeting.self, name: "contexts").text
}
check(greeted == "mock", "onArg, with the argument added for this task")
let greetedAsync = await ResolverContext.withLaunchArguments(adding: ["-greet-mock"]) {
    await Resolver.resolveAsync(Greeting.self, name: "contexts").text
}
check(greetedAsync == "mock", "onArg, with the argument added for this task (async)")
check(Resolver.resolve(Greeting.self, name: "contexts").text == "hello", "onArg, without the argument")
let clock: Clock = Resolver.resolve()
let clockAsync = await Task.detached { await Resolver.resolveAsync(Clock.self) }.value
check(clock === clockAsync, "a @MainActor registration, cached, from another task")
let store: Store = await Resolver.resolveAsync()
let storeAgain = await Task.detached { await Resolver.resolveAsync(Store.self) }.value
check(store === storeAgain, "an async .application service")
// Off the main actor: the factory still runs (apps doing this keep working);
// the library says so once on standard error.
let built = await Task.detached { Resolver.resolve(SettingsViewModel.self).network }.value
check(built === model.network, "a synchronous resolve off the main actor")

// Keys.
let keyScreen = KeyScreen()
check(keyScreen.greeting.text == "hello", "@Injected(\\.greetingKey)")
check(keyScreen.model.network === model.network && keyScreen.weakModel != nil, "@LazyInjected and @WeakLazyInjected of a key")
check(keyScreen.promised == nil, "@OptionalInjected of a promised key")
check(keyScreen.currentGreeting.text == "hello", "@DynamicInjected(\\.greetingKey)")
check(Resolver.resolve(\.typedKey, arguments: 1).network === model.network, "a key with arguments")
check(Resolver.resolve(\.clockKey) === (await Resolver.resolveAsync(\.clockKey)), "a @MainActor key, cached")
check(await Resolver.resolveAsync(\.storeKey) === (await Resolver.resolveAsync(\.storeKey)), "an async key")
check(ResolverContext.withLaunchArguments(adding: ["-greet-key-mock"]) { Resolver.resolve(\.contextKey).text } == "mock",
      "a key's onArg")
Resolver.register(\.greetingKey) { Mock() }
check(keyScreen.currentGreeting.text == "mock" && keyScreen.greeting.text == "hello",
      "@DynamicInjected(\\.greetingKey) reads the override of the moment, @Injected kept its own")
Resolver.register(\.promisedKey) { Mock() }
check(Resolver.optional(\.promisedKey)?.text == "mock", "a promise kept by Resolver.register(\\.promisedKey)")
let clockAnywhere = Resolver.resolve(\.clockAnywhereKey)
let keyOffMain = await Task.detached { Resolver.resolve(\.clockAnywhereKey) }.value
check(keyOffMain === clockAnywhere, "a nonisolated key resolved off the main actor")
let mainActorClock = await Task.detached { await Resolver.resolveAsync(\.mainActorClockKey) }.value
check(mainActorClock !== clockAnywhere, "a nonisolated key of a main-actor factory, resolveAsync off the main actor")
Resolver.register(\.greetingKey) { @MainActor in Mock() }
check(Resolver.resolve(\.greetingKey).text == "mock", "a main-actor override")
Resolver.reset(\.greetingKey)
check(Resolver.resolve(\.greetingKey).text == "hello", "Resolver.reset(\\.greetingKey)")
Resolver.onTest(\.greetingKey) { Mock() }

for failure in failures {
    print("DefaultIsolationApp: FAILED \(failure)")
}
if !failures.isEmpty {
    exit(1)
}
print("DefaultIsolationApp OK")
