import Foundation
import Resolver
import ResolverTestSupport
import ResolverTesting
import Testing

protocol Greeter: Sendable {
    var greeting: String { get }
}

struct Mock: Greeter {
    let greeting: String
}

final class Counter: @unchecked Sendable {
    let id = UUID()
}

/// A view model the way apps write one: it resolves through the property
/// wrappers and the static API, never naming a container.
final class Screen {
    @Injected var greeter: Greeter
    @LazyInjected var counter: Counter
}

/// Twenty tests run in parallel, each registering a conflicting mock of the
/// same service and an `.application` singleton; each sees only its own.
@Suite struct ParallelMocks {
    @Test(.resolver(), arguments: 0..<20)
    func eachTestSeesOnlyItsOwnMock(index: Int) async throws {
        Resolver.root.register { Mock(greeting: "hello \(index)") as Greeter }
        Resolver.root.register { Counter() }.scope(.application)
        let first = Screen()
        // Let the other tests register theirs meanwhile.
        try await Task.sleep(for: .milliseconds(Int.random(in: 1...20)))
        let second = Screen()
        #expect(first.greeter.greeting == "hello \(index)")
        #expect(second.greeter.greeting == "hello \(index)")
        #expect(first.counter === second.counter, "the test's own .application instance")
        #expect(Resolver.resolve(Greeter.self).greeting == "hello \(index)")
        // A child task inherits the test's root.
        let fromChild = await Task { Resolver.resolve(Greeter.self).greeting }.value
        #expect(fromChild == "hello \(index)")
    }

    @Test(.resolver { $0.register { Mock(greeting: "configured") as Greeter } })
    func theTraitRegistersBeforeTheTestRuns() {
        #expect(Screen().greeter.greeting == "configured")
    }

    /// Without the trait, the app-wide root: none of the tests' mocks leaked into it.
    @Test func theAppWideRootIsUntouched() {
        #expect(Resolver.optional(Greeter.self) == nil)
    }
}

/// On a suite, every test of the suite gets a container of its own.
@Suite(.resolver { $0.register { Counter() }.scope(.application) })
struct PerSuite {
    static let seen = Locked<Set<UUID>>([])

    @Test(arguments: 0..<5)
    func eachTestHasItsOwnSingleton(index: Int) {
        let counter = Resolver.resolve(Counter.self)
        #expect(Resolver.resolve(Counter.self) === counter)
        #expect(PerSuite.seen.withLock { $0.insert(counter.id).inserted }, "no other test had this instance")
    }
}
