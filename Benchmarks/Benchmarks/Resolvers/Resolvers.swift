// Family 2: this library's resolver against Swinject 2.10.0, the baseline
// container (the original Resolver 1.5.1 storage design) and the floors; the
// scenarios that scale also run on several threads at once, named
// "<scenario>/threads:<N>" (the scaling figures). Scenarios and implementations
// are in Sources/BenchScenarios; interleaving and harness settings in
// Sources/BenchSupport.

import BenchScenarios
import BenchSupport
import Benchmark

let benchmarks: @Sendable () -> Void = {
    for scenario in ResolverScenario.allCases {
        for threads in [1] + (scenario.scales ? scalingThreadCounts : []) {
            registerInterleaved(
                scenario: scenario.rawValue + (threads == 1 ? "" : "/threads:\(threads)"),
                implementations: scenario.implementations.map(\.rawValue),
                operationsPerSample: scenario.operationsPerBatch
            ) { implementation in
                makeResolverWorkload(scenario, ResolverImpl(rawValue: implementation)!, threads: threads)
            }
        }
    }
}
