import Resolver
import ResolverTestSupport
import Synchronization
import Testing

// The app's registrations, written the way Resolver apps write them.

protocol NetworkServicing: AnyObject { func fetch() -> String }
final class NetworkService: NetworkServicing { func fetch() -> String { "payload" } }
final class MockNetworkService: NetworkServicing { func fetch() -> String { "mock payload" } }
final class UserSession { let id = Serial.next() }

final class UserViewModel {
    @Injected var network: NetworkServicing
    @LazyInjected var session: UserSession
    @OptionalInjected var analytics: AnalyticsTracking?
    @Injected(name: .fred) var greeting: String
    func load() -> String { network.fetch() }
}

protocol AnalyticsTracking {}

/// How often `registerAllServices` has run.
let registrationRuns = Atomic<Int>(0)

/// What the running test asks `registerAllServices` to do after its
/// registrations (nil: nothing). A test binary can hold only one
/// `ResolverRegistering` conformance, this one; tests that need
/// `registerAllServices` to do more set this and clear it when they end.
let registrationHook = Locked<(@Sendable () -> Void)?>(nil)

extension Resolver: ResolverRegistering {
    public static func registerAllServices() {
        registrationRuns.add(1, ordering: .relaxed)
        register { NetworkService() }.implements(NetworkServicing.self)
        register { UserSession() }.scope(.application)
        register(name: .fred) { "Hello, Fred" }
        StrictVerdictServices.register()
        registrationHook.withLock { $0 }?()
    }
}

extension ResolverTests {
    /// The API as an app uses it: registerAllServices, property wrappers in
    /// a view model, mocking through root.
    @Suite struct AppStyle {
        @Test func registerAllServicesRunsOnceBeforeTheFirstResolve() {
            Resolver.reset()
            let before = registrationRuns.load(ordering: .relaxed)
            Resolver.register { 1 }
            #expect(registrationRuns.load(ordering: .relaxed) == before, "register does not trigger it")
            let model = UserViewModel()
            #expect(registrationRuns.load(ordering: .relaxed) == before + 1)
            #expect(model.load() == "payload")
            #expect(model.greeting == "Hello, Fred")
            #expect(model.analytics == nil)
            _ = UserViewModel()
            #expect(registrationRuns.load(ordering: .relaxed) == before + 1, "once")
        }

        @Test func itRunsBeforeAnInstanceResolveToo() {
            Resolver.reset()
            let before = registrationRuns.load(ordering: .relaxed)
            _ = Resolver().optional(Int.self)
            #expect(registrationRuns.load(ordering: .relaxed) == before + 1)
        }

        @Test func itRunsAgainAfterReset() {
            Resolver.reset()
            _ = Resolver.optional(Int.self)
            let before = registrationRuns.load(ordering: .relaxed)
            Resolver.reset()
            _ = Resolver.optional(Int.self)
            #expect(registrationRuns.load(ordering: .relaxed) == before + 1)
        }

        @Test func registrationsMadeBeforeTheFirstResolveCanBeOverwrittenByIt() {
            Resolver.reset()
            Resolver.register(name: .fred) { "early" }
            #expect(Resolver.resolve(String.self, name: .fred) == "Hello, Fred")
        }

        @Test func registerServicesForcesIt() {
            Resolver.reset()
            let before = registrationRuns.load(ordering: .relaxed)
            Resolver.registerServices?()
            #expect(registrationRuns.load(ordering: .relaxed) == before + 1)
            Resolver.main.registerServices()
            #expect(registrationRuns.load(ordering: .relaxed) == before + 1)
            Resolver.reset()
            Resolver.main.registerServices()
            #expect(registrationRuns.load(ordering: .relaxed) == before + 2)
        }

        @Test func threadsResolvingWhileItRunsWaitForIt() {
            Resolver.reset()
            let failures = Atomic<Int>(0)
            runOnThreads(8) { _ in
                if Resolver.optional(NetworkServicing.self) == nil { failures.add(1, ordering: .relaxed) }
            }
            #expect(failures.load(ordering: .relaxed) == 0)
        }

        @Test func mockingThroughRoot() {
            Resolver.reset()
            let mock = Resolver(child: Resolver.main)
            mock.register { MockNetworkService() as NetworkServicing }
            Resolver.root = mock
            defer { Resolver.root = Resolver.main }
            #expect(UserViewModel().load() == "mock payload")
        }

        @Test func applicationServiceIsSharedAcrossViewModels() {
            Resolver.reset()
            let a = UserViewModel(), b = UserViewModel()
            #expect(a.session === b.session)
        }
    }
}

/// An actor that uses the API the way a service layer would.
actor ReportService {
    private let resolver = Resolver()

    func build() -> String {
        resolver.register(name: "title") { "Report" }
        resolver.register { r in XYZService() }.scope(.container)
        let first: XYZService = resolver.resolve()
        let again: XYZService = resolver.resolve()
        return "\(resolver.resolve(String.self, name: "title")) \(first === again)"
    }
}

@MainActor
final class MainActorViewModel {
    @Injected var network: NetworkServicing
    @LazyInjected var session: UserSession
    @OptionalInjected var missing: AnalyticsTracking?
}

extension ResolverTests {
    /// Swift 6 mode, warnings as errors: these compile only if every call is
    /// allowed from its isolation domain without diagnostics.
    @Suite struct IsolationDomains {
        @MainActor @Test func fromTheMainActor() {
            Resolver.reset()
            let model = MainActorViewModel()
            #expect(model.network.fetch() == "payload")
            #expect(model.session === Resolver.resolve(UserSession.self))
            #expect(model.missing == nil)
            Resolver.register(name: "main") { 1 }
            #expect(Resolver.resolve(Int.self, name: "main") == 1)
        }

        @Test func fromAnActor() async {
            #expect(await ReportService().build() == "Report true")
        }

        @Test func fromADetachedTask() async {
            Resolver.reset()
            let fetched = await Task.detached { () -> String in
                let network: NetworkServicing = Resolver.resolve()
                return network.fetch()
            }.value
            #expect(fetched == "payload")
        }
    }
}
