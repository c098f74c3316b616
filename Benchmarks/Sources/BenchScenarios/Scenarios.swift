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
    case graph = "graph"
    case argument = "argument"
    case twoThreads = "two-threads"
    case register = "register"
    case mutex = "mutex"

    /// What the scenario does, for tables and help texts.
    public var summary: String {
        switch self {
        case .singleton: return "`.application` singleton resolve"
        case .named: return "named `.application` singleton resolve"
        case .transient: return "transient resolve (`.unique` / Swinject `.transient`)"
        case .transient1000: return "transient resolve with 1,000 other services registered"
        case .graph: return "graph A(B(C), C), default scopes: 3 objects, C shared"
        case .argument: return "resolve with one Int argument"
        case .twoThreads: return "two threads resolving one singleton (per thread)"
        case .register: return "register a service (1,000 distinct types per batch)"
        case .mutex: return "recursive pthread mutex lock + unlock"
        }
    }

    /// The implementations that take part.
    public var implementations: [ResolverImpl] {
        switch self {
        case .register: return [.ours, .swinject, .baseline]
        case .mutex: return [.floor]
        default: return ResolverImpl.allCases
        }
    }
}

public enum ResolverImpl: String, CaseIterable, Sendable {
    case ours = "Resolver"
    case swinject = "Swinject"
    case baseline = "baseline"
    case floor = "floor"
}

/// Builds a ready-to-run workload (containers registered and warmed up).
public func makeResolverWorkload(_ scenario: ResolverScenario, _ impl: ResolverImpl) -> Workload {
    precondition(scenario.implementations.contains(impl), "\(impl) does not take part in \(scenario)")
    switch impl {
    case .ours: return oursWorkload(scenario)
    case .swinject: return swinjectWorkload(scenario)
    case .baseline: return baselineWorkload(scenario)
    case .floor: return floorWorkload(scenario)
    }
}

// MARK: - Shared workload shapes

/// One operation of a scenario. Implementations are final classes, so the loop
/// below is specialised for each and the operation inlined into it.
protocol BenchOperation: AnyObject {
    func run()
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

/// `n` operations on the calling thread while a second thread runs the same
/// operation on the same container non-stop. The time per operation is the
/// calling thread's, i.e. per thread. The second thread starts when the workload
/// is built and stops in `tearDown`.
final class TwoThreadWorkload<Operation: BenchOperation & Sendable>: Workload {
    let operation: Operation
    private let partner: PartnerThread

    init(_ operation: Operation) {
        self.operation = operation
        for _ in 0..<100 { operation.run() }
        partner = PartnerThread { operation.run() }
    }

    private var operations = 0

    func runBatch(_ iterations: Int) {
        for _ in 0..<iterations { operation.run() }
        operations += iterations
    }

    /// Stops the partner and checks that it really ran alongside: if it was
    /// starved (a busy machine), the figures show little contention and say so.
    func tearDown() {
        partner.stop()
        let partnerOperations = partner.operationCount
        if operations > 0, partnerOperations < operations / 10 {
            let message = "warning: two-thread benchmark: the second thread ran only \(partnerOperations) "
                + "operations against \(operations) measured; contention is under-represented\n"
            writeToStandardError(message)
        } else if getenv("BENCH_VERBOSE") != nil {
            writeToStandardError("two-thread benchmark: measured thread \(operations) operations, partner \(partnerOperations)\n")
        }
    }

    deinit { partner.stop() }
}

private func writeToStandardError(_ message: String) {
    var message = message
    message.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
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
