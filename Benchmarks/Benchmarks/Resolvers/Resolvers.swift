// Family 2: this library's resolver against Swinject 2.10.0, the baseline
// container (the original Resolver 1.5.1 storage design) and the floors.
// Scenarios and implementations are in Sources/BenchScenarios; interleaving
// and harness settings in Sources/BenchSupport.

import BenchScenarios
import BenchSupport
import Benchmark

let benchmarks: @Sendable () -> Void = {
    for scenario in ResolverScenario.allCases {
        registerInterleaved(
            scenario: scenario.rawValue,
            implementations: scenario.implementations.map(\.rawValue)
        ) { implementation in
            makeResolverWorkload(scenario, ResolverImpl(rawValue: implementation)!)
        }
    }
}
