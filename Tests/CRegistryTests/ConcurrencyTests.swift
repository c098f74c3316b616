import CRegistry
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

@Suite struct ConcurrencyTests {
    /// Eight threads put, get and remove on one table. Each owns a key range
    /// (so it knows exactly what it must see) and all of them also read a set
    /// of shared keys that never change.
    @Test func threadsHammerOneTable() {
        let table = Table()
        let shared = (0..<64).map { Key(UInt64($0), "shared") }
        for (i, key) in shared.enumerated() { table.put(key, 1_000_000 + i) }
        let failures = Atomic<Int>(0)
        let threads = 8, rounds = 20_000

        runOnThreads(threads) { thread in
            var random = SplitMix64(seed: UInt64(thread + 1))
            var mine: [Key: Int] = [:]
            for step in 0..<rounds {
                let key = Key(UInt64(100 + thread), "k\(Int.random(in: 0..<200, using: &random))")
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    if table.put(key, step + 1).previous != mine[key] { failures.add(1, ordering: .relaxed) }
                    mine[key] = step + 1
                case 1:
                    if table.remove(key) != mine.removeValue(forKey: key) { failures.add(1, ordering: .relaxed) }
                case 2:
                    if table.get(key) != mine[key] { failures.add(1, ordering: .relaxed) }
                default:
                    let index = Int.random(in: 0..<shared.count, using: &random)
                    if table.get(shared[index]) != 1_000_000 + index { failures.add(1, ordering: .relaxed) }
                }
            }
            for (key, value) in mine where table.get(key) != value { failures.add(1, ordering: .relaxed) }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
        for (i, key) in shared.enumerated() { #expect(table.get(key) == 1_000_000 + i) }
    }

    /// Grouped operations under crg_lock are atomic with respect to other
    /// threads: a reader never sees one of a pair without the other.
    @Test func lockGroupsOperations() {
        let table = Table()
        let torn = Atomic<Int>(0)
        runOnThreads(4) { thread in
            for i in 0..<5_000 {
                if thread < 2 {
                    crg_lock(table.raw)
                    table.put(Key(1), i + 1)
                    table.put(Key(2), i + 1)
                    crg_unlock(table.raw)
                } else {
                    crg_lock(table.raw)
                    let a = table.get(Key(1)), b = table.get(Key(2))
                    crg_unlock(table.raw)
                    if a != b { torn.add(1, ordering: .relaxed) }
                }
            }
        }
        #expect(torn.load(ordering: .relaxed) == 0)
    }

    /// crg_mutex_wait releases the lock while asleep and takes it back on
    /// wake-up: a consumer waits for a flag that a producer sets under the lock.
    @Test func waitAndBroadcastFormAMonitor() {
        let mutex = crg_mutex_create()!
        defer { crg_mutex_release(mutex) }
        final class Flag: @unchecked Sendable { var ready = 0 }
        let flag = Flag()
        let seen = Atomic<Int>(0)
        let box = UInt(bitPattern: Int(bitPattern: UnsafeMutableRawPointer(mutex)))
        runOnThreads(4) { thread in
            let mutex = OpaquePointer(bitPattern: box)!
            crg_mutex_lock(mutex)
            if thread == 0 {
                flag.ready = 1
                crg_mutex_broadcast(mutex)
            } else {
                while flag.ready == 0 { _ = crg_mutex_wait(mutex) }
                seen.add(flag.ready, ordering: .relaxed)
            }
            crg_mutex_unlock(mutex)
        }
        #expect(seen.load(ordering: .relaxed) == 3)
    }

    @Test func waitingWhileLockedTwiceIsEDEADLK() {
        let mutex = crg_mutex_create()!
        defer { crg_mutex_release(mutex) }
        crg_mutex_lock(mutex)
        crg_mutex_lock(mutex)
        #expect(crg_mutex_wait(mutex) == EDEADLK)
        crg_mutex_unlock(mutex)
        crg_mutex_unlock(mutex)
    }
}
