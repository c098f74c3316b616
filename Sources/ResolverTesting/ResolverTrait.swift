import Resolver
import Testing

/// A Swift Testing trait that runs each test with a container of its own as
/// `Resolver.root`: a fresh child of `Resolver.main` that keeps its
/// `.application`, `.cached` and `.shared` instances to itself, with the
/// registrations you make on top.
///
/// ```swift
/// @Test(.resolver { $0.register { MockAPI() as API } })
/// func showsTheProfile() {
///     let model = ProfileViewModel()   // resolves MockAPI
///     …
/// }
///
/// @Suite(.resolver { $0.register { MockClock() as Clock } })
/// struct ClockTests { … }            // every test gets its own container
/// ```
///
/// Tests run in parallel (Swift Testing's default) and never see each other's
/// mocks or singletons: the container is the root for the test's task and the
/// tasks it starts (`Resolver.withRoot(_:operation:)`), and other tests keep
/// theirs. Code that resolves on threads of its own (not tasks started by the
/// test) sees the app-wide root.
public struct ResolverTrait: TestTrait, SuiteTrait, TestScoping {
    private let configure: @Sendable (Resolver) -> Void

    fileprivate init(_ configure: @escaping @Sendable (Resolver) -> Void) {
        self.configure = configure
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

    /// Runs the test with a fresh container as its root.
    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        let container = Resolver(child: .main, isolatedScopes: true)
        configure(container)
        try await Resolver.withRoot(container) {
            try await function()
        }
    }
}

extension Trait where Self == ResolverTrait {
    /// Runs each test with a container of its own as `Resolver.root` (a child
    /// of `Resolver.main` with isolated scopes), after `configure` has
    /// registered the test's services in it.
    public static func resolver(_ configure: @escaping @Sendable (Resolver) -> Void = { _ in }) -> Self {
        ResolverTrait(configure)
    }
}
