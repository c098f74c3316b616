// Family 2: resolvers. Each scenario is written once per implementation, in a
// file that imports only that implementation (our `Resolver` module and
// Swinject both declare a type called `Resolver`).
//
// Implementations:
// - "Resolver": this library (the C registry under the Resolver 1.5.1 API);
// - "Swinject": Swinject 2.10.0, a plain `Container` (a `synchronize()`d one
//   where two threads share it);
// - "baseline": BaselineResolver, the original 1.5.1 storage design rebuilt here;
// - "floor": what no resolver can beat: direct construction of the same objects,
//   or a call that returns a kept instance; and a bare recursive mutex pair.

import BenchFixtures

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

public enum ResolverScenario: String, CaseIterable, Sendable {
    case singleton = "singleton"
    case named = "named"
    case transient = "transient"
    case transient1000 = "transient-1000"
    case defaultScope = "default-scope"
    case graph = "graph"
    case argument = "argument"
    case typedArgument = "typed-argument"
    case lazyRead = "lazy-read"
    case keySingleton = "key-singleton"
    case keyTransient = "key-transient"
    case keyArgument = "key-argument"
    case register = "register"
    case coldContainer = "cold-container"
    case mutex = "mutex"

    /// What the scenario does, for tables and help texts.
    public var summary: String {
        switch self {
        case .singleton: return "`.application` singleton resolve"
        case .named: return "named `.application` singleton resolve"
        case .transient: return "transient resolve (`.unique` / Swinject `.transient`)"
        case .transient1000: return "transient resolve with 1,000 other services registered"
        case .defaultScope: return "resolve of a service without dependencies in the default scope (`.graph`)"
        case .graph: return "graph A(B(C), C), default scopes: 3 objects, C shared"
        case .argument: return "resolve with one Int argument"
        case .typedArgument: return "`.unique` resolve with one typed Int argument (Swinject: its typed argument)"
        case .lazyRead: return "read of a `@LazyInjected` property that holds its instance (an object per thread)"
        case .keySingleton: return "`.application` singleton resolved through a key, `resolve(\\.key)`"
        case .keyTransient: return "`.unique` resolve through a key"
        case .keyArgument: return "`.unique` resolve through a key with one Int argument"
        case .register: return "register a service (1,000 distinct types per batch)"
        case .coldContainer: return "a new container: register a graph of \(dagServiceCount) services (\(dagEdgeCount) dependencies), resolve each once"
        case .mutex: return "recursive pthread mutex lock + unlock"
        }
    }

    /// The implementations that take part.
    public var implementations: [ResolverImpl] {
        switch self {
        case .register: return [.ours, .swinject, .baseline]
        case .coldContainer: return [.ours, .swinject, .floor]
        case .lazyRead: return [.ours]
        case .keySingleton, .keyTransient, .keyArgument:
            #if RESOLVER_KEYS
            return [.ours, .floor]
            #else
            return []  // a library without keys (a base commit)
            #endif
        case .typedArgument: return [.ours, .swinject, .floor]
        case .defaultScope: return [.ours, .floor]
        case .mutex: return [.floor]
        default: return ResolverImpl.allCases
        }
    }

    /// How many operations a batch (a harness sample, an instruction
    /// count's unit) holds: 1,000, so that the harness's own cost per sample
    /// is spread thin, except where one operation is a whole container.
    public var operationsPerBatch: Int {
        self == .coldContainer ? 1 : 1_000
    }

    /// Whether the scenario also runs on several threads at once (the scaling
    /// figures): the same operation, on the same container, on every thread.
    public var scales: Bool {
        switch self {
        case .singleton, .named, .transient, .graph, .lazyRead: return true
        default: return false
        }
    }
}

public enum ResolverImpl: String, CaseIterable, Sendable {
    case ours = "Resolver"
    case swinject = "Swinject"
    case baseline = "baseline"
    case floor = "floor"
}

/// The thread counts of the scaling variants besides 1: powers of two below the
/// number of cores, and the number of cores (on 2 cores: just 2).
public let scalingThreadCounts: [Int] = {
    let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    return Array(sequence(first: 2) { $0 * 2 }.prefix { $0 < cores }) + (cores > 1 ? [cores] : [])
}()

/// Builds a ready-to-run workload (containers registered and warmed up). With
/// `threads` above 1, `threads - 1` partner threads run each timed batch of the
/// same operation alongside the calling thread (`ThreadsWorkload`).
public func makeResolverWorkload(_ scenario: ResolverScenario, _ impl: ResolverImpl, threads: Int = 1) -> Workload {
    precondition(scenario.implementations.contains(impl), "\(impl) does not take part in \(scenario)")
    precondition(threads == 1 || scenario.scales, "\(scenario) runs on one thread only")
    if scenario == .register {
        switch impl {
        case .ours: return oursRegisterWorkload()
        case .swinject: return swinjectRegisterWorkload()
        case .baseline: return baselineRegisterWorkload()
        case .floor: preconditionFailure("no floor for \(scenario)")
        }
    }
    if scenario == .coldContainer {
        switch impl {
        case .ours: return ColdWorkload(oursColdContainer)
        case .swinject: return ColdWorkload(swinjectColdContainer)
        case .floor: return ColdWorkload(floorColdContainer)
        case .baseline: preconditionFailure("no baseline for \(scenario)")
        }
    }
    let operation: any BenchOperation
    switch impl {
    case .ours: operation = oursOperation(scenario)
    // Swinject asks for a `synchronize()`d container where several threads resolve.
    case .swinject: operation = swinjectOperation(scenario, synchronized: threads > 1)
    case .baseline: operation = baselineOperation(scenario)
    case .floor: operation = floorOperation(scenario)
    }
    return workload(operation, threads: threads)
}

private func workload<Operation: BenchOperation>(_ operation: Operation, threads: Int) -> Workload {
    threads == 1 ? LoopWorkload(operation) : ThreadsWorkload(operation, threads: threads)
}

// MARK: - Shared workload shapes

/// One operation of a scenario. Implementations are final classes, so the loops
/// below are specialised for each and the operation inlined into them.
protocol BenchOperation: AnyObject, Sendable {
    /// One operation (on the thread the harness times).
    func run()
    /// One operation on thread `thread` of a scaling variant (0: the timed one),
    /// for operations that give each thread objects of its own.
    func run(thread: Int)
}

extension BenchOperation {
    func run(thread: Int) { run() }
}

/// `n` operations back to back on the calling thread.
final class LoopWorkload<Operation: BenchOperation>: Workload {
    let operation: Operation

    init(_ operation: Operation) {
        self.operation = operation
        for _ in 0..<100 { operation.run() } // first-use costs (caches, lazy state) out of the way
    }

    func runBatch(_ iterations: Int) {
        for _ in 0..<iterations { operation.run() }
    }
}

/// `n` operations on each of `threads` threads at once: the calling thread and
/// `threads - 1` partners, on the same container. A sample ends when every
/// thread has done its `n`, so its time per operation is every thread's, and the
/// total throughput is `threads` operations per that time.
final class ThreadsWorkload<Operation: BenchOperation>: Workload {
    let operation: Operation
    private let partners: [PartnerThread]

    init(_ operation: Operation, threads: Int) {
        self.operation = operation
        for _ in 0..<100 { operation.run() }
        partners = (1..<threads).map { thread in PartnerThread { operation.run(thread: thread) } }
    }

    func runBatch(_ iterations: Int) {
        for partner in partners { partner.start(iterations) }
        for _ in 0..<iterations { operation.run() }
        for partner in partners { partner.wait() }
    }

    func tearDown() {
        for partner in partners { partner.stop() }
    }

    deinit { for partner in partners { partner.stop() } }
}

/// A new container per operation, registered and every service resolved
/// once, then dropped: all of it timed (an app's launch, a server's
/// per-request container, a test's fresh container). No warm-up of its own:
/// the instruction counts measure a process's first container too.
final class ColdWorkload: Workload {
    private let operation: () -> Void

    init(_ operation: @escaping () -> Void) {
        self.operation = operation
    }

    func runBatch(_ iterations: Int) {
        for _ in 0..<iterations { operation() }
    }
}

/// A fresh container per batch: built untimed, filled with the 1,000 generated
/// services (timed), dropped untimed.
final class RegisterWorkload<Container>: Workload {
    private let make: () -> Container
    private let fill: (Container) -> Void
    private var container: Container?

    init(make: @escaping () -> Container, fill: @escaping (Container) -> Void) {
        self.make = make
        self.fill = fill
        // One full pass first, so that first-use costs are not in the samples.
        fill(make())
    }

    func prepareBatch() {
        container = make()
    }

    func runBatch(_ iterations: Int) {
        precondition(iterations == generatedServiceCount,
                     "register batches are \(generatedServiceCount) registrations (one per generated type)")
        fill(container!)
    }

    func finishBatch() {
        container = nil
    }
}
