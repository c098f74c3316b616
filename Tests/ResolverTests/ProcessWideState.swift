import Testing

/// Suites that touch process-wide state nest in this one: `Resolver.main`,
/// `root` and the static API, `Resolver.reset()`, `defaultScope`,
/// `decorate`, `registerAllServices`, the registry's hooks, graph recording,
/// the registry mutex, and the app-wide caches of `.application`, `.cached`
/// and `.shared` (which every container without isolated scopes writes).
///
/// Its tests run one at a time (`.serialized`), and each runs while no test
/// of `IndependentTests` runs (`.processWide`): Swift Testing would otherwise
/// run this suite beside the parallel ones, and what these tests change
/// reaches every container (a `defaultScope` of `.application` changes what
/// another test's `register` makes; a reset makes another test's next resolve
/// run `registerAllServices`, which the tests here count).
@Suite(.serialized, .processWide) struct ResolverTests {}

/// Suites whose tests use only containers and scopes of their own, or
/// `root` through the `ResolverTesting` trait `.resolver { … }` (a container
/// of the test's own as `root` for the test's task): they run in parallel
/// with each other (`.independent`), never beside a test of `ResolverTests`.
@Suite(.independent) struct IndependentTests {}

/// Decides which tests may run at the same moment: any number of
/// independent tests, or one test that touches process-wide state.
///
/// A reader–writer gate, where waiting suspends (no thread of the
/// cooperative pool is held). A waiting process-wide test goes first:
/// independent tests that arrive after it wait until it has run.
actor ProcessWideGate {
    static let shared = ProcessWideGate()

    private var independentRunning = 0
    private var processWideRunning = false
    private var processWideWaiting: [CheckedContinuation<Void, Never>] = []
    private var independentWaiting: [CheckedContinuation<Void, Never>] = []

    func enterIndependent() async {
        if !processWideRunning && processWideWaiting.isEmpty {
            independentRunning += 1
            return
        }
        // `leaveProcessWide` counts it in before resuming it.
        await withCheckedContinuation { independentWaiting.append($0) }
    }

    func leaveIndependent() {
        independentRunning -= 1
        if independentRunning == 0, !processWideWaiting.isEmpty {
            processWideRunning = true
            processWideWaiting.removeFirst().resume()
        }
    }

    func enterProcessWide() async {
        if !processWideRunning && independentRunning == 0 {
            processWideRunning = true
            return
        }
        // The test leaving hands over `processWideRunning` before resuming it.
        await withCheckedContinuation { processWideWaiting.append($0) }
    }

    /// Stops the run if a test was let in beside one it must not run beside.
    func check(processWide: Bool) {
        precondition(processWide ? processWideRunning && independentRunning == 0
                                 : !processWideRunning && independentRunning > 0,
                     "ProcessWideGate let a test in beside one it must not run beside")
    }

    func leaveProcessWide() {
        if !processWideWaiting.isEmpty {
            processWideWaiting.removeFirst().resume()
            return
        }
        processWideRunning = false
        independentRunning += independentWaiting.count
        for waiting in independentWaiting { waiting.resume() }
        independentWaiting = []
    }
}

/// Runs each test case through `ProcessWideGate`, as an independent test or
/// as one that touches process-wide state.
struct ProcessWideTrait: SuiteTrait, TestTrait, TestScoping {
    let processWide: Bool

    /// Applied to a suite, it applies to each test of it and of its nested suites.
    var isRecursive: Bool { true }

    /// Each test case passes the gate; a suite as a whole does not.
    func scopeProvider(for test: Test, testCase: Test.Case?) -> ProcessWideTrait? {
        testCase == nil ? nil : self
    }

    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        let gate = ProcessWideGate.shared
        if processWide {
            await gate.enterProcessWide()
        } else {
            await gate.enterIndependent()
        }
        await gate.check(processWide: processWide)
        var thrown: (any Error)?
        do {
            try await function()
        } catch {
            thrown = error
        }
        if processWide {
            await gate.leaveProcessWide()
        } else {
            await gate.leaveIndependent()
        }
        if let thrown { throw thrown }
    }
}

extension Trait where Self == ProcessWideTrait {
    /// Each test runs alone: no independent test runs meanwhile.
    static var processWide: Self { ProcessWideTrait(processWide: true) }

    /// Tests run in parallel with each other, never beside a process-wide one.
    static var independent: Self { ProcessWideTrait(processWide: false) }
}
