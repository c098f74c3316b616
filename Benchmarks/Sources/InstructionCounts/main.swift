// Runs one resolver scenario for valgrind's callgrind, which counts the
// instructions executed inside `bench_measured_region` only
// (`--collect-atstart=no --toggle-collect=bench_measured_region`).
//
//   InstructionCounts list                       scenario/implementation pairs
//   InstructionCounts SCENARIO IMPLEMENTATION [BATCHES [WARM-UP BATCHES]]
//
// The workload is built and warmed up first (outside the region: 3 batches
// unless told), then BATCHES batches of the scenario's operations per batch
// (1,000; 1 for a whole new container) run inside the region, with each
// batch's untimed preparation outside it, exactly as the time benchmarks do.
// Instructions per operation = collected instructions / (BATCHES * that).
// With 0 warm-up batches, the first batch is the process's first use of
// the library (a cold container: the process's first container).

import BenchFixtures
import BenchScenarios

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every scenario on one thread: callgrind runs threads one at a time, so the
/// scaling variants would count no contention at all.
let countedScenarios = ResolverScenario.allCases

nonisolated(unsafe) var currentWorkload: Workload?

/// The only code callgrind counts. `@_silgen_name` gives it a plain symbol
/// name, which `--toggle-collect` matches, and makes Swift callers use it.
@_silgen_name("bench_measured_region")
@inline(never)
func benchMeasuredRegion(_ iterations: Int) {
    currentWorkload!.runBatch(iterations)
}

func usage() -> Never {
    print("usage: InstructionCounts list | SCENARIO IMPLEMENTATION [BATCHES [WARM-UP BATCHES]]")
    exit(2)
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { usage() }
if arguments[1] == "list" {
    for scenario in countedScenarios {
        for impl in scenario.implementations {
            print("\(scenario.rawValue) \(impl.rawValue) \(scenario.operationsPerBatch)")
        }
    }
    exit(0)
}
guard arguments.count >= 3,
      let scenario = ResolverScenario(rawValue: arguments[1]),
      let impl = ResolverImpl(rawValue: arguments[2]),
      scenario.implementations.contains(impl)
else { usage() }
let batches = arguments.count > 3 ? Int(arguments[3]) ?? 10 : 10
let warmUpBatches = arguments.count > 4 ? Int(arguments[4]) ?? 3 : 3
let batchSize = scenario.operationsPerBatch

let workload = makeResolverWorkload(scenario, impl)
currentWorkload = workload
// Warm-up outside the region.
for _ in 0..<warmUpBatches {
    workload.prepareBatch()
    workload.runBatch(batchSize)
    workload.finishBatch()
}
for _ in 0..<batches {
    workload.prepareBatch()
    benchMeasuredRegion(batchSize)
    workload.finishBatch()
}
workload.tearDown()
print("\(scenario.rawValue) \(impl.rawValue) operations=\(batches * batchSize)")
