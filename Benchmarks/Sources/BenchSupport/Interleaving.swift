// How every benchmark is registered with the harness, and how the alternatives
// of one scenario are interleaved.
//
// The harness runs benchmarks one at a time, each in a fresh process, in the
// order of their names (target, then name). So the names decide the schedule:
//
//     <scenario>:<round><slot>:<implementation>      e.g. "singleton:2c:Swinject"
//
// All rounds of one scenario sort together, round 1 before round 2, and within a
// round the slot letter orders the implementations. The slot assignment rotates
// each round (round 1: A B C D, round 2: B C D A, ...), so every implementation
// runs early and late in a round equally often. The report pools every round's
// samples of an implementation and takes the median. A scenario's alternatives
// therefore run within seconds of each other, in alternation, and slow drift of
// the machine (other builds, thermal state) lands on all of them alike.
//
// Scenario names may contain ':' (the thread-count variants, "singleton/threads:2");
// the report splits a name at its last two. Select implementations with the
// harness's own filter, which matches whole names: --filter '.*:Resolver'.
//
// Environment knobs (read by every benchmark process, so they must not change
// during a run):
//   BENCH_ROUNDS       rounds per scenario (default 3)
//   BENCH_MAX_MS       wall-clock budget per benchmark per round in ms (default 150)

import BenchFixtures
import Benchmark

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

private func environmentInt(_ name: String, default value: Int) -> Int {
    guard let raw = getenv(name), let parsed = Int(String(cString: raw)), parsed > 0 else { return value }
    return parsed
}

/// Keeps a benchmark's workload between its setup, samples and teardown.
private final class WorkloadHolder: @unchecked Sendable {
    var workload: Workload?
}

/// Registers `scenario` once per implementation and round, named so that the
/// harness interleaves them (see above). Every sample runs 1,000 operations
/// (`scalingFactor: .kilo`), so the harness's own cost per sample (~140 ns) is
/// spread over 1,000 operations, unless an operation is long enough to be a
/// sample of its own (`operationsPerSample: 1`: a whole new container); only
/// `runBatch` is timed.
public func registerInterleaved(
    scenario: String,
    implementations: [String],
    operationsPerSample: Int = 1_000,
    make: @escaping (String) -> Workload
) {
    let rounds = environmentInt("BENCH_ROUNDS", default: 3)
    let maxMilliseconds = environmentInt("BENCH_MAX_MS", default: 150)
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    for round in 1...rounds {
        for (index, implementation) in implementations.enumerated() {
            let slot = letters[(index + implementations.count - (round - 1) % implementations.count) % implementations.count]
            let holder = WorkloadHolder()
            Benchmark(
                "\(scenario):\(round)\(slot):\(implementation)",
                configuration: .init(
                    metrics: [.throughput, .wallClock, .mallocCountTotal],
                    timeUnits: .nanoseconds,
                    warmupIterations: 5,
                    scalingFactor: operationsPerSample == 1 ? .one : .kilo,
                    maxDuration: .milliseconds(maxMilliseconds),
                    maxIterations: 20_000,
                    // What `baseline check` (make bench BASE=) holds a run to against the
                    // base: not one malloc more per sample at the median. Times move with
                    // a shared machine between two runs, so they are compared, not checked.
                    thresholds: [
                        .mallocCountTotal: .init(absolute: [.p50: 0]),
                        .wallClock: .init(),
                        .throughput: .init(),
                    ]
                ),
                closure: { (benchmark: Benchmark) in
                    let workload = holder.workload!
                    workload.prepareBatch()
                    benchmark.startMeasurement()
                    workload.runBatch(benchmark.scaledIterations.count)
                    benchmark.stopMeasurement()
                    workload.finishBatch()
                },
                setup: {
                    holder.workload = make(implementation)
                },
                teardown: {
                    holder.workload?.tearDown()
                    holder.workload = nil
                }
            )
        }
    }
}
