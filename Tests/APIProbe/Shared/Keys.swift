// Compile-time-checked keys (issue 38), every spelling, used as apps use
// them, in Swift 5 (APIProbe5) and Swift 6 (APIProbe6) language modes with
// warnings as errors, in debug and release builds (`make test-probes`): a
// spelling that stopped compiling, became ambiguous, or crashed the compiler
// in either mode or configuration fails `make test` here. Each use is
// checked when it runs.
import Resolver

protocol KeyProbeAPI: AnyObject {
    var kind: String { get }
}

final class KeyProbeLiveAPI: KeyProbeAPI {
    let kind = "live"
}

final class KeyProbeMockAPI: KeyProbeAPI {
    let kind: String
    init(_ kind: String = "mock") { self.kind = kind }
}

final class KeyProbeStore {
    let api: any KeyProbeAPI
    init(api: any KeyProbeAPI) { self.api = api }
}

final class KeyProbeNoteList {
    let userID: Int
    let locale: String
    init(userID: Int, locale: String) {
        self.userID = userID
        self.locale = locale
    }
}

@MainActor final class KeyProbeSettings {
    let title: String
    init(title: String = "settings") { self.title = title }
}

final class KeyProbeDatabase: @unchecked Sendable {
    let name: String
    init(name: String) async { self.name = name }
}

protocol KeyProbeAnalytics: AnyObject {}
final class KeyProbeTracker: KeyProbeAnalytics {}

extension ResolverScope {
    static let keyProbeSession = ResolverScopeCache()
}

extension ResolverKeys {
    // The declarations.
    var probeAPI: ResolverKey<any KeyProbeAPI> { ResolverKey { KeyProbeLiveAPI() } }
    var probeStore: ResolverKey<KeyProbeStore> {
        ResolverKey { r in KeyProbeStore(api: r.resolve(\.probeAPI)) }.scope(.application)
    }
    var probeNoteList: ResolverKey<KeyProbeNoteList, Int, String> {
        ResolverKey { r, userID, locale in KeyProbeNoteList(userID: userID, locale: locale) }
    }
    var probeSettings: ResolverKey<KeyProbeSettings> { ResolverKey { @MainActor in KeyProbeSettings() } }
    var probeDatabase: ResolverKey<KeyProbeDatabase> {
        ResolverKey { await KeyProbeDatabase(name: "db") }.scope(.cached)
    }
    var probeAnalytics: ResolverKey<any KeyProbeAnalytics> { .promised() }

    // Every other shape, option and context.
    var probePlainArguments: ResolverKey<KeyProbeNoteList, Int, String> {
        ResolverKey { userID, locale in KeyProbeNoteList(userID: userID, locale: locale) }
    }
    var probeOneArgument: ResolverKey<KeyProbeNoteList, Int> {
        ResolverKey { userID in KeyProbeNoteList(userID: userID, locale: "en") }.scope(.keyProbeSession)
    }
    var probeMainActorResolver: ResolverKey<KeyProbeSettings> {
        ResolverKey { @MainActor r in KeyProbeSettings(title: r.resolve(\.probeAPI).kind) }
    }
    var probeMainActorArgument: ResolverKey<KeyProbeSettings, String> {
        ResolverKey { @MainActor title in KeyProbeSettings(title: title) }
    }
    var probeAsyncResolver: ResolverKey<KeyProbeDatabase> {
        ResolverKey { r in await KeyProbeDatabase(name: r.resolve(\.probeAPI).kind) }
    }
    var probeAsyncArguments: ResolverKey<KeyProbeDatabase, String, Int> {
        ResolverKey { r, name, number in await KeyProbeDatabase(name: name + String(number)) }
    }
    var probeContexts: ResolverKey<any KeyProbeAPI> {
        ResolverKey { KeyProbeLiveAPI() }
            .onTest { KeyProbeMockAPI("test") }
            .onPreview { r in KeyProbeMockAPI("preview") }
            .onArg("-key-probe-api") { KeyProbeMockAPI("argument") }
            .onArg("-key-probe-api-r") { r in KeyProbeMockAPI("argument") }
            .onDebug { r in KeyProbeMockAPI("debug") }
            .allowedInStrictTests()
            .scope(.unique)
    }
    var probeArgumentContexts: ResolverKey<KeyProbeNoteList, Int> {
        ResolverKey { userID in KeyProbeNoteList(userID: userID, locale: "live") }
            .onTest { userID in KeyProbeNoteList(userID: userID, locale: "test") }
            .onPreview { r, userID in KeyProbeNoteList(userID: userID, locale: "preview") }
            .onArg("-key-probe-list") { userID in KeyProbeNoteList(userID: userID, locale: "argument") }
            .onDebug { userID in KeyProbeNoteList(userID: userID, locale: "debug") }
    }
    var probeWrapped: ResolverKey<KeyProbeStore> { ResolverKey { KeyProbeStore(api: KeyProbeLiveAPI()) }.scope(.keyProbeSession) }
    var probePromisedArgument: ResolverKey<KeyProbeNoteList, Int> { .promised() }

    // Issue 43: main-actor contexts, a global actor's factory, a key declared
    // nonisolated, a key of an Optional service.
    nonisolated var probeMainActorContexts: ResolverKey<KeyProbeSettings> {
        ResolverKey { @MainActor in KeyProbeSettings() }
            .onTest { @MainActor in KeyProbeSettings(title: "test") }
            .onPreview { @MainActor r in KeyProbeSettings(title: "preview") }
            .onArg("-key-probe-settings") { @MainActor in KeyProbeSettings(title: "argument") }
            .onDebug { @MainActor in KeyProbeSettings(title: "debug") }
    }
    var probeActorEngine: ResolverKey<KeyProbeEngine> { ResolverKey { @KeyProbeActor () async in KeyProbeEngine() } }
    var probeOptional: ResolverKey<KeyProbeStore?> { ResolverKey { nil }.scope(.cached) }
}

@globalActor actor KeyProbeActor {
    static let shared = KeyProbeActor()
}

@KeyProbeActor final class KeyProbeEngine {
    init() {}
}

final class KeyProbeScreen {
    @Injected(\.probeAPI) var api
    @Injected(\.probeAPI, container: keyProbeContainer) var containerAPI
    @LazyInjected(\.probeWrapped) var store
    @LazyInjected(\.probeWrapped, container: keyProbeContainer) var containerStore
    @WeakLazyInjected(\.probeWrapped) var weakStore
    @WeakLazyInjected(\.probeWrapped, container: keyProbeContainer) var containerWeakStore
    @OptionalInjected(\.probeAnalytics) var analytics
    @OptionalInjected(\.probeAnalytics, container: keyProbeContainer) var containerAnalytics
    @DynamicInjected(\.probeAPI) var dynamicAPI
    @DynamicInjected(\.probeAPI, container: keyProbeContainer) var containerDynamicAPI
}

let keyProbeContainer = Resolver()

/// Uses every spelling of keys; returns what did not behave.
func useKeys() async -> [String] {
    var failures: [String] = []
    func check(_ condition: Bool, _ what: String) {
        if !condition { failures.append("keys: " + what) }
    }
    let container = keyProbeContainer

    // Resolving: static and on a container, with and without arguments.
    check(Resolver.resolve(\.probeAPI).kind == "live", "Resolver.resolve(\\.probeAPI)")
    check(container.resolve(\.probeAPI).kind == "live", "container.resolve(\\.probeAPI)")
    check(Resolver.resolve(\.probeStore) === Resolver.resolve(\.probeStore), ".scope(.application)")
    let list = Resolver.resolve(\.probeNoteList, arguments: 42, "en")
    check(list.userID == 42 && list.locale == "en", "resolve(\\.probeNoteList, arguments: 42, \"en\")")
    check(container.resolve(\.probePlainArguments, arguments: 1, "fr").locale == "fr", "plain factory of arguments")
    check(Resolver.optional(\.probeOneArgument, arguments: 3)?.userID == 3, "optional with arguments")
    check(container.optional(\.probeOneArgument, arguments: 3) === Resolver.resolve(\.probeOneArgument, arguments: 3),
          "one instance per argument list")
    check(Resolver.optional(\.probeAnalytics) == nil, "Resolver.optional(\\.probeAnalytics)")
    check(container.optional(\.probePromisedArgument, arguments: 1) == nil, "a promise with arguments")

    // Async and main-actor keys.
    let database = await Resolver.resolveAsync(\.probeDatabase)
    check(database === (await container.resolveAsync(\.probeDatabase)), "resolveAsync(\\.probeDatabase), cached")
    check(await Resolver.optionalAsync(\.probeAnalytics) == nil, "optionalAsync of a promise")
    check(await container.optionalAsync(\.probeAsyncResolver)?.name == "live", "optionalAsync on a container")
    check(await Resolver.resolveAsync(\.probeAsyncArguments, arguments: "db", 2).name == "db2", "resolveAsync with arguments")
    check(await container.resolveAsync(\.probeAsyncArguments, arguments: "x", 1).name == "x1", "container.resolveAsync with arguments")
    check(await Resolver.optionalAsync(\.probeAsyncArguments, arguments: "y", 0)?.name == "y0", "optionalAsync with arguments")
    check(await container.optionalAsync(\.probePromisedArgument, arguments: 1) == nil, "optionalAsync of a promise with arguments")
    let settings = await Resolver.resolveAsync(\.probeSettings)
    check(await MainActor.run { settings.title } == "settings", "resolveAsync(\\.probeSettings) hops to the main actor")
    let titled = await container.resolveAsync(\.probeMainActorArgument, arguments: "titled")
    check(await MainActor.run { titled.title } == "titled", "a main-actor key with arguments")
    let fromResolver = await container.resolveAsync(\.probeMainActorResolver)
    check(await MainActor.run { fromResolver.title } == "live", "a main-actor key given the container")

    // Contexts: the program is not under test nor run for previews.
    check(ResolverContext.withLaunchArguments(adding: ["-key-probe-api"]) { container.resolve(\.probeContexts).kind } == "argument",
          "onArg")
    check(container.resolve(\.probeContexts).kind == (ResolverContext.isDebugBuild ? "debug" : "live"), "onDebug")
    check(container.resolve(\.probeArgumentContexts, arguments: 5).userID == 5, "contexts of a key with arguments")

    // Property wrappers.
    let screen = KeyProbeScreen()
    check(screen.api.kind == "live" && screen.containerAPI.kind == "live", "@Injected(\\.probeAPI)")
    check(screen.store === screen.weakStore && screen.containerStore === screen.containerWeakStore,
          "@LazyInjected and @WeakLazyInjected")
    check(screen.analytics == nil && screen.containerAnalytics == nil, "@OptionalInjected of a promise")
    check(screen.dynamicAPI.kind == "live" && screen.containerDynamicAPI.kind == "live", "@DynamicInjected(\\.probeAPI)")

    // Overriding: static and on a container, with options; resetting a key.
    Resolver.register(\.probeAnalytics) { KeyProbeTracker() }
    check(Resolver.optional(\.probeAnalytics) != nil, "Resolver.register(\\.probeAnalytics)")
    container.register(\.probeAPI) { r in KeyProbeMockAPI() }.scope(.unique)
    check(container.resolve(\.probeAPI).kind == "mock", "container.register(\\.probeAPI) { r in … }")
    let mocks = Resolver(child: .main, isolatedScopes: true)
    mocks.register(\.probeNoteList) { userID, locale in KeyProbeNoteList(userID: -userID, locale: locale) }
        .onTest { _, _ in KeyProbeNoteList(userID: 0, locale: "test") }
        .allowedInStrictTests()
    Resolver.register(\.probePromisedArgument) { r, userID in KeyProbeNoteList(userID: userID, locale: "kept") }
    Resolver.withRoot(mocks) {
        check(Resolver.resolve(\.probeNoteList, arguments: 4, "en").userID == -4, "an override in withRoot")
        check(Resolver.resolve(\.probePromisedArgument, arguments: 2).locale == "kept", "a promise with arguments kept")
    }
    Resolver.register(\.probeAPI) { KeyProbeMockAPI("main") }
    check(Resolver.resolve(\.probeAPI).kind == "main", "Resolver.register(\\.probeAPI) { … }")
    check(screen.dynamicAPI.kind == "main" && screen.containerDynamicAPI.kind == "mock",
          "@DynamicInjected(\\.probeAPI) reads the overrides made after the screen")
    let session = Resolver.resolve(\.probeOneArgument, arguments: 7)
    ResolverScope.keyProbeSession.reset(\.probeOneArgument)
    check(Resolver.resolve(\.probeOneArgument, arguments: 7) !== session, "ResolverScope.reset(\\.key)")
    check(!Resolver.verify().failures.contains { $0.service.contains("probeAnalytics") }, "verify() with the promise kept")

    // Issue 43: overrides drop the kept instance; resets; contexts from
    // anywhere; main-actor overrides; a global actor's factory; nil.
    let kept = Resolver.resolve(\.probeStore)
    Resolver.register(\.probeStore) { r in KeyProbeStore(api: r.resolve(\.probeAPI)) }
    check(Resolver.resolve(\.probeStore) !== kept, "an override replaces the kept instance")
    Resolver.reset(\.probeStore)
    container.reset(\.probeAPI)
    check(container.resolve(\.probeAPI).kind == "live", "container.reset(\\.probeAPI) removes its override")
    Resolver.onTest(\.probeWrapped) { KeyProbeStore(api: KeyProbeMockAPI("test")) }
    Resolver.onPreview(\.probeWrapped) { r in KeyProbeStore(api: KeyProbeMockAPI("preview")) }
    Resolver.onArg(\.probeOneArgument, "-key-probe-one") { userID in KeyProbeNoteList(userID: userID, locale: "argument") }
    Resolver.onDebug(\.probeSettings) { @MainActor in KeyProbeSettings(title: "debug") }
    check(ResolverContext.withLaunchArguments(adding: ["-key-probe-one"]) { Resolver.resolve(\.probeOneArgument, arguments: 8).locale }
          == "argument", "Resolver.onArg(\\.key, …)")
    mocks.register(\.probeSettings) { @MainActor in KeyProbeSettings(title: "mock") }
    let mockSettings = await mocks.resolveAsync(\.probeSettings)
    check(await MainActor.run { mockSettings.title } == "mock", "a main-actor override")
    let contexts = await Resolver.resolveAsync(\.probeMainActorContexts)
    check(await MainActor.run { contexts.title } == (ResolverContext.isDebugBuild ? "debug" : "settings"), "main-actor contexts")
    _ = await Resolver.resolveAsync(\.probeActorEngine)
    check(Resolver.resolve(\.probeOptional) == nil, "a key of an Optional service")
    return failures
}
