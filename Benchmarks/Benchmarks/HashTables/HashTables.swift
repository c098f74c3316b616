// Family 1: the C table (CRegistry) against Swift's Dictionary with the same key,
// and against Dictionary<ObjectIdentifier, AnyObject> for unnamed keys:
// hit lookup, miss lookup, insert, remove at 16, 1,000, 100,000 and 1,000,000 keys.
// The workloads are in Sources/BenchTables; interleaving in Sources/BenchSupport.

import BenchSupport
import BenchTables
import Benchmark

let benchmarks: @Sendable () -> Void = {
    for kind in KeyKind.allCases {
        for op in TableOp.allCases {
            for size in tableSizes {
                let implementations = TableImpl.implementations(for: kind, op: op)
                registerInterleaved(
                    scenario: "\(op.rawValue)-\(kind.rawValue)-\(size)",
                    implementations: implementations.map(\.rawValue)
                ) { implementation in
                    makeTableWorkload(op: op, impl: TableImpl(rawValue: implementation)!, kind: kind, size: size)
                }
            }
        }
    }
}
