/// One benchmark's work, split so that the timed part holds only the operations.
///
/// The harness calls, for every sample:
/// `prepareBatch()` (untimed), `runBatch(n)` (timed: exactly `n` operations),
/// `finishBatch()` (untimed); and `tearDown()` once at the end.
/// The instruction counter (InstructionCounts) calls them in the same pattern.
public protocol Workload: AnyObject {
    func prepareBatch()
    func runBatch(_ iterations: Int)
    func finishBatch()
    func tearDown()
}

public extension Workload {
    func prepareBatch() {}
    func finishBatch() {}
    func tearDown() {}
}

/// A small deterministic generator (SplitMix64), so every run and every
/// implementation sees the same pseudo-random orders.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
