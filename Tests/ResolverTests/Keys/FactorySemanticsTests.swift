import Foundation
@testable import Resolver
import ResolverTestAppModule
import Testing

// Keys behave as Factory's users expect (issue 43): an override replaces the
// instance the key's scope keeps, a key resets to its declaration, a key's
// nil is never kept, main-actor and global-actor factories, and contexts
// added from another module. Registrations by type keep Resolver 1.5.1's
// behaviour, tested beside them. Each test uses keys and scopes of its own.

final class SemanticsPlayer: @unchecked Sendable {
    let source: String
    let serial = Serial.next()
    init(_ source: String) { self.source = source }
}

final class SemanticsSession: @unchecked Sendable {
    let serial = Serial.next()
}

@MainActor final class SemanticsView {
    let source: String
    let madeOnMainQueue = onMainQueue()
    init(_ source: String) { self.source = source }
}

@globalActor actor SemanticsActor {
    static let shared = SemanticsActor()
}

@SemanticsActor final class SemanticsActorService {
    let made: Bool
    init() {
        SemanticsActor.shared.preconditionIsolated()
        made = true
    }
}

final class FakeAppRepository: AppRepository {
    let source = "fake"
}

/// How often the semantics keys' factories ran.
enum SemanticsCounters {
    static let session = Counter()
    static let typedSession = Counter()
}

/// The caching scopes of these tests, one each.
enum SemanticsScopes {
    static let player = ResolverScopeCache()
    static let arguments = ResolverScopeCache()
    static let byType = ResolverScopeCache()
    static let resetOne = ResolverScopeCache()
    static let otherScope = ResolverScopeCache()
    static let session = ResolverScopeCache()
    static let typedSession = ResolverScopeCache()
}

extension ResolverKeys {
    fileprivate var semPlayer: ResolverKey<SemanticsPlayer> {
        ResolverKey { SemanticsPlayer("live") }.scope(SemanticsScopes.player)
    }
    fileprivate var semAppWidePlayer: ResolverKey<SemanticsPlayer> {
        ResolverKey { SemanticsPlayer("live") }.scope(.application)
    }
    fileprivate var semPlayerFor: ResolverKey<SemanticsPlayer, Int> {
        ResolverKey { id in SemanticsPlayer("live \(id)") }.scope(SemanticsScopes.arguments)
    }
    fileprivate var semResetPlayer: ResolverKey<SemanticsPlayer> {
        ResolverKey { SemanticsPlayer("live") }.scope(SemanticsScopes.resetOne)
    }
    fileprivate var semOtherScopePlayer: ResolverKey<SemanticsPlayer> {
        ResolverKey { SemanticsPlayer("live") }.scope(SemanticsScopes.otherScope)
    }
    fileprivate var semIsolatedPlayer: ResolverKey<SemanticsPlayer> {
        ResolverKey { SemanticsPlayer("live") }.scope(.application)
    }
    fileprivate var semSession: ResolverKey<SemanticsSession?> {
        ResolverKey { () -> SemanticsSession? in
            SemanticsCounters.session.increment()
            return SemanticsCounters.session.count >= 2 ? SemanticsSession() : nil
        }.scope(SemanticsScopes.session)
    }
    fileprivate var semView: ResolverKey<SemanticsView> {
        ResolverKey { @MainActor in SemanticsView("live") }.onTest { @MainActor in SemanticsView("fake") }
    }
    fileprivate var semOverriddenView: ResolverKey<SemanticsView> {
        ResolverKey { @MainActor in SemanticsView("live") }
    }
    fileprivate var semActorService: ResolverKey<SemanticsActorService> {
        ResolverKey { @SemanticsActor () async in SemanticsActorService() }.scope(.unique)
    }
}

extension IndependentTests {
    @Suite struct KeysAsFactoryHasThem {
        // MARK: Overrides replace what the key's scope keeps

        @Test func anOverrideAfterTheKeysInstanceWasBuiltReplacesIt() {
            let container = Resolver()
            let first = container.resolve(\.semPlayer)
            #expect(container.resolve(\.semPlayer) === first)
            container.register(\.semPlayer) { SemanticsPlayer("second") }
            let second = container.resolve(\.semPlayer)
            #expect(second.source == "second", "the override, not the instance built before it")
            #expect(container.resolve(\.semPlayer) === second, "the override's instance is kept in the key's scope")
            container.register(\.semPlayer) { SemanticsPlayer("third") }
            #expect(container.resolve(\.semPlayer).source == "third")
        }

        @Test func anOverrideReplacesTheInstanceOfAContainerThatIsolatesItsScopes() {
            let container = Resolver(child: nil, isolatedScopes: true)
            let first = container.resolve(\.semAppWidePlayer)
            container.register(\.semAppWidePlayer) { SemanticsPlayer("mock") }
            let second = container.resolve(\.semAppWidePlayer)
            #expect(second !== first && second.source == "mock")
        }

        @Test func anOverrideReplacesTheInstancesOfEveryArgumentList() {
            let container = Resolver()
            let one = container.resolve(\.semPlayerFor, arguments: 1)
            let two = container.resolve(\.semPlayerFor, arguments: 2)
            #expect(container.resolve(\.semPlayerFor, arguments: 1) === one)
            container.register(\.semPlayerFor) { id in SemanticsPlayer("mock \(id)") }
            #expect(container.resolve(\.semPlayerFor, arguments: 1).source == "mock 1")
            #expect(container.resolve(\.semPlayerFor, arguments: 2) !== two)
        }

        /// Registrations by type keep Resolver 1.5.1's behaviour: caches key
        /// on type and name, so a re-registration finds the instance kept.
        @Test func aReRegistrationByTypeKeepsTheInstanceItsScopeHolds() {
            let container = Resolver()
            container.register { SemanticsPlayer("live") }.scope(SemanticsScopes.byType)
            let first: SemanticsPlayer = container.resolve()
            container.register { SemanticsPlayer("second") }.scope(SemanticsScopes.byType)
            #expect(container.resolve(SemanticsPlayer.self) === first)
        }

        // MARK: Resetting one key

        @Test func resettingAKeyRemovesItsOverrideAndDropsItsInstance() {
            let container = Resolver()
            container.register(\.semResetPlayer) { SemanticsPlayer("mock") }
            let mock = container.resolve(\.semResetPlayer)
            #expect(mock.source == "mock")
            container.reset(\.semResetPlayer)
            let live = container.resolve(\.semResetPlayer)
            #expect(live.source == "live", "the key is as declared again")
            #expect(container.resolve(\.semResetPlayer) === live)
            container.reset(\.semResetPlayer)
            #expect(container.resolve(\.semResetPlayer) !== live, "an instance of the declared factory goes too")
        }

        @Test func aScopesResetOfAKeyDropsItsInstanceWhereverItsScopeKeepsIt() {
            let container = Resolver()
            let first = container.resolve(\.semOtherScopePlayer)
            Resolver.withRoot(container) {
                // The key's scope is another: its instance goes all the same.
                ResolverScope.application.reset(\.semOtherScopePlayer)
            }
            #expect(container.resolve(\.semOtherScopePlayer) !== first)
        }

        @Test func resettingAKeyReachesTheIsolatedScopesOfTheRootInUse() {
            let container = Resolver(child: nil, isolatedScopes: true)
            Resolver.withRoot(container) {
                let first = Resolver.resolve(\.semIsolatedPlayer)
                #expect(Resolver.resolve(\.semIsolatedPlayer) === first)
                Resolver.reset(\.semIsolatedPlayer)
                #expect(Resolver.resolve(\.semIsolatedPlayer) !== first)
                let second = Resolver.resolve(\.semIsolatedPlayer)
                ResolverScope.application.reset(\.semIsolatedPlayer)
                #expect(Resolver.resolve(\.semIsolatedPlayer) !== second)
            }
        }

        // MARK: nil

        @Test func aKeysNilIsNeverKept() {
            let container = Resolver()
            #expect(container.resolve(\.semSession) == nil)
            let made = container.resolve(\.semSession)
            #expect(made != nil, "the factory ran again: its nil was not kept")
            #expect(container.resolve(\.semSession) === made)
            #expect(SemanticsCounters.session.count == 2)
        }

        /// By type, a nil of an Optional service type is kept, as Resolver
        /// 1.5.1's caches kept it: its factory returns `.some(nil)` (a
        /// closure declared `-> SemanticsSession?` returns a nil that counts
        /// as not registered, as in 1.5.1).
        @Test func aNilOfAnOptionalServiceTypeIsKeptAsResolver151KeptIt() {
            let container = Resolver()
            container.register(SemanticsSession?.self) { () -> SemanticsSession?? in
                SemanticsCounters.typedSession.increment()
                return .some(nil)
            }.scope(SemanticsScopes.typedSession)
            #expect(container.resolve(SemanticsSession?.self) == nil)
            #expect(container.resolve(SemanticsSession?.self) == nil)
            #expect(SemanticsCounters.typedSession.count == 1)
        }

        // MARK: Isolation

        @MainActor
        @Test func aKeysMainActorContextRunsOnTheMainActor() {
            let view = Resolver().resolve(\.semView)
            #expect(view.source == "fake" && view.madeOnMainQueue)
        }

        @MainActor
        @Test func aKeysMainActorOverrideRunsOnTheMainActor() {
            let container = Resolver()
            container.register(\.semOverriddenView) { @MainActor in SemanticsView("override") }
            let view = container.resolve(\.semOverriddenView)
            #expect(view.source == "override" && view.madeOnMainQueue)
        }

        @MainActor
        @Test func aRegistrationsMainActorContextRunsOnTheMainActor() {
            let container = Resolver()
            container.register { @MainActor in SemanticsView("live") }.onTest { @MainActor in SemanticsView("fake") }
            let view: SemanticsView = container.resolve()
            #expect(view.source == "fake" && view.madeOnMainQueue)
        }

        @Test func aMainActorOverrideIsResolvedFromOtherIsolationsWithResolveAsync() async {
            let container = Resolver()
            container.register(\.semOverriddenView) { @MainActor in SemanticsView("override") }
            let view = await container.resolveAsync(\.semOverriddenView)
            let madeOnMain = await MainActor.run { view.madeOnMainQueue }
            #expect(madeOnMain)
        }

        @Test func aFactoryIsolatedToAGlobalActorRunsOnItThroughResolveAsync() async {
            let service = await Resolver().resolveAsync(\.semActorService)
            #expect(service.made, "its initializer checked it ran on SemanticsActor")
        }
    }
}

extension ResolverKeys {
    fileprivate var semAppWideCached: ResolverKey<SemanticsPlayer> { ResolverKey { SemanticsPlayer("live") }.scope(.cached) }
}

extension ResolverTests {
    /// A scope's reset of a key resets that scope as it is, whatever the
    /// root in use isolates: `ResolverScope.cached.reset(\.key)` inside a
    /// test whose root keeps its own `.cached` still drops the app-wide one.
    @Suite struct KeyResetOfANamedScope {
        @Test func aScopesResetOfAKeyDropsTheInstanceThatScopeKeepsWhateverTheRootIsolates() {
            defer { ResolverScope.cached.reset() }
            let appWide = Resolver()
            weak var kept: SemanticsPlayer?
            do {
                let player = appWide.resolve(\.semAppWideCached)
                kept = player
            }
            #expect(kept != nil, "the app-wide .cached keeps it")
            Resolver.withRoot(Resolver(child: nil, isolatedScopes: true)) {
                ResolverScope.cached.reset(\.semAppWideCached)
            }
            #expect(released { kept == nil }, "the app-wide .cached dropped it")
        }
    }

    /// Contexts added to an app module's keys from another module (this
    /// test target), as a test target's `registerAllServices` adds them.
    @Suite struct KeyContextsFromAnotherModule {
        @Test func aContextAddedFromAnotherModuleWorksAsOneWrittenOnTheKey() {
            defer { Resolver.reset() }
            #expect(Resolver().resolve(\.appRepository).source == "live")
            Resolver.onTest(\.appRepository) { FakeAppRepository() }
            #expect(Resolver().resolve(\.appRepository).source == "fake")
            Resolver.onTest(\.appGreeting) { r, name in "fake \(name)" }
            #expect(Resolver().resolve(\.appGreeting, arguments: "ada") == "fake ada")
        }
    }
}
