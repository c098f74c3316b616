import Resolver
import Testing

/// A Swift Testing trait that runs each test with a container of its own as
/// `Resolver.root`: a fresh child of `Resolver.main` that keeps its
/// `.application`, `.cached` and `.shared` instances to itself, with the
/// registrations you make on top.
///
/// ```swift
/// @Test(.resolver { $0.register { MockNetwork() as NetworkServicing } })
/// func showsTheMockUser() {
///     #expect(ProfileViewModel().title == "Mock User")
/// }
///
/// @Suite(.resolver { $0.register { MockClock() as AppClock } })
/// struct ClockTests {
///     // Each test gets its own container: a fresh isolated child of main.
///     @Test func usesTheMockClock() {
///         #expect(Resolver.resolve(AppClock.self) is MockClock)
///     }
/// }
/// ```
///
/// A strict test, `.resolver(strict: true) { … }`, also records a test issue
/// (at the test's source location) for each registration it uses that it did
/// not make: one in `Resolver.main` that has no `.onTest` and is not marked
/// `.allowedInStrictTests()`. The issue names the service, its name and
/// where the live registration was made:
///
/// ```swift
/// @Test(.resolver(strict: true) { $0.register { MockAPI() as API } })
/// func showsTheProfile() {
///     let model = ProfileViewModel()   // an issue if it reaches a live service
/// }
/// ```
///
/// Tests run in parallel (Swift Testing's default) and never see each other's
/// mocks or singletons: the container is the root for the test's task and the
/// tasks it starts (`Resolver.withRoot(_:operation:)`), and other tests keep
/// theirs. Code that resolves on threads of its own (not tasks started by the
/// test) sees the app-wide root.
///
/// Inside the test, register in its container: a key's override,
/// `Resolver.register(\.api) { MockAPI() }`, goes there; by type, write
/// `Resolver.root.register { MockAPI() as API }` (`Resolver.register { … }`
/// by type registers in `Resolver.main`, as in Resolver 1.5.1, where it would
/// outlive the test and reach the tests running beside it).
public struct ResolverTrait: TestTrait, SuiteTrait, TestScoping {
    private let configure: @Sendable (Resolver) -> Void
    /// Whether the test records an issue for each live registration it uses.
    public let isStrict: Bool

    fileprivate init(strict: Bool, _ configure: @escaping @Sendable (Resolver) -> Void) {
        self.configure = configure
        isStrict = strict
    }

    /// Applied to a suite, the trait gives each of its tests (and each test
    /// of its nested suites) a container of its own.
    public var isRecursive: Bool {
        true
    }

    /// One container per test case; none for a suite as a whole.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> ResolverTrait? {
        testCase == nil ? nil : self
    }

    /// Runs the test with a fresh container as its root (strictly, if the
    /// trait says so).
    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        let container = Resolver(child: .main, isolatedScopes: true)
        configure(container)
        guard isStrict else {
            try await Resolver.withRoot(container) {
                try await function()
            }
            return
        }
        let location = test.sourceLocation
        try await Resolver.withRoot(container) {
            try await Resolver.withStrictTesting(container, report: { use in
                Issue.record(Comment(rawValue: use.description), sourceLocation: location)
            }, operation: function)
        }
    }
}

extension Trait where Self == ResolverTrait {
    /// Runs each test with a container of its own as `Resolver.root` (a child
    /// of `Resolver.main` with isolated scopes), after `configure` has
    /// registered the test's services in it.
    ///
    /// - Parameters:
    ///   - strict: record a test issue for each registration the test uses
    ///     that it did not make (one without `.onTest`, not marked
    ///     `.allowedInStrictTests()`), naming where it was registered.
    ///   - configure: registers the test's services in its container.
    public static func resolver(strict: Bool = false,
                                _ configure: @escaping @Sendable (Resolver) -> Void = { _ in }) -> Self {
        ResolverTrait(strict: strict, configure)
    }
}
