import CRegistry
import CRegistry.Testing
import ResolverTestSupport
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

    /// Readers that take no lock, against writers that insert, replace,
    /// remove, grow, shrink and clear. Every value is a heap cell holding its
    /// own key and a checksum; the table releases replaced values (after the
    /// grace period) by poisoning and freeing them. A reader that ever saw a
    /// released value would read poison (and ASan would see a use after free);
    /// a reader that saw a torn probe would find a value of another key.
    @Test func lockFreeReadersNeverSeeAReleasedOrForeignValue() {
        let live = Counter()
        var options = crg_options(capacity: 0, mutex: nil, allocator: nil, release: { value, context in
            let cell = value.assumingMemoryBound(to: UInt64.self)
            cell[1] = 0xDEAD_DEAD_DEAD_DEAD
            cell.deallocate()
            Unmanaged<Counter>.fromOpaque(context!).takeUnretainedValue().value.subtract(1, ordering: .relaxed)
        }, release_context: Unmanaged.passUnretained(live).toOpaque())
        var raw: OpaquePointer?
        #expect(crg_create(&raw, &options) == 0)
        let table = UInt(bitPattern: raw)
        let stop = Atomic<Bool>(false)
        let bad = Atomic<Int>(0)
        let hits = Atomic<Int>(0)
        let keys = 300

        runOnThreads(4) { thread in
            let raw = OpaquePointer(bitPattern: table)!
            var random = SplitMix64(seed: UInt64(thread + 7))
            if thread == 0 {
                // The writer: every kind of change, for 200,000 operations.
                for step in 0..<200_000 {
                    let key = Int.random(in: 0..<keys, using: &random)
                    switch step % 1_000 == 999 ? 3 : Int.random(in: 0..<3, using: &random) {
                    case 0, 1:
                        let cell = UnsafeMutablePointer<UInt64>.allocate(capacity: 2)
                        cell[0] = UInt64(key)
                        cell[1] = UInt64(key) &* 0x9E37_79B9_7F4A_7C15
                        live.value.add(1, ordering: .relaxed)
                        if ConcurrencyTests.withKey(key, { crg_put(raw, $0, cell, nil) }) != 0 { bad.add(1, ordering: .relaxed) }
                    case 2:
                        _ = ConcurrencyTests.withKey(key) { crg_remove(raw, $0, nil) }
                    default:
                        _ = crg_clear(raw, nil, nil)
                    }
                    if step % 64 == 0 { _ = crg_collect() }
                }
                stop.store(true, ordering: .relaxed)
            } else {
                while !stop.load(ordering: .relaxed) {
                    let key = Int.random(in: 0..<keys, using: &random)
                    ConcurrencyTests.withKey(key) { c in
                        crg_read_begin()
                        var value: UnsafeMutableRawPointer?
                        if crg_find(raw, c, &value) == 0, let value {
                            let cell = value.assumingMemoryBound(to: UInt64.self)
                            if cell[0] != UInt64(key) || cell[1] != UInt64(key) &* 0x9E37_79B9_7F4A_7C15 {
                                bad.add(1, ordering: .relaxed)
                            }
                            hits.add(1, ordering: .relaxed)
                        }
                        crg_read_end()
                    }
                }
            }
        }
        #expect(bad.load(ordering: .relaxed) == 0)
        #expect(hits.load(ordering: .relaxed) > 0)
        crg_destroy(raw)
        #expect(collect { live.value.load(ordering: .relaxed) == 0 }, "every value released exactly once")
    }

    /// Calls `body` with the C key for test key `key` (type key % 5, name "k<key>").
    static func withKey<R>(_ key: Int, _ body: (UnsafeMutablePointer<crg_key>) -> R) -> R {
        Array("k\(key)".utf8).withUnsafeBytes { bytes in
            var c = crg_key_named(UInt64(key % 5), bytes.baseAddress, bytes.count,
                                  crg_name_hash(bytes.baseAddress, bytes.count))
            return body(&c)
        }
    }

    /// Grouped operations under the table's mutex are atomic with respect to
    /// other threads that also hold it: a reader never sees one of a pair
    /// without the other.
    @Test func theMutexGroupsOperations() {
        let table = Table()
        let torn = Atomic<Int>(0)
        let mutex = UInt(bitPattern: crg_table_mutex(table.raw))
        runOnThreads(4) { thread in
            let mutex = OpaquePointer(bitPattern: mutex)!
            for i in 0..<5_000 {
                crg_mutex_lock(mutex)
                if thread < 2 {
                    table.put(Key(1), i + 1)
                    table.put(Key(2), i + 1)
                } else {
                    let a = table.get(Key(1)), b = table.get(Key(2))
                    if a != b { torn.add(1, ordering: .relaxed) }
                }
                crg_mutex_unlock(mutex)
            }
        }
        #expect(torn.load(ordering: .relaxed) == 0)
    }

    /// A condition releases the mutex while asleep and takes it back on
    /// wake-up: consumers wait for a flag that a producer sets under the lock.
    @Test func conditionsFormAMonitor() {
        let mutex = crg_mutex_create()!
        let condition = crg_condition_create()!
        defer {
            crg_condition_destroy(condition)
            crg_mutex_release(mutex)
        }
        final class Flag: @unchecked Sendable { var ready = 0 }
        let flag = Flag()
        let seen = Atomic<Int>(0)
        let raw = (UInt(bitPattern: mutex), UInt(bitPattern: condition))
        runOnThreads(4) { thread in
            let mutex = OpaquePointer(bitPattern: raw.0)!, condition = OpaquePointer(bitPattern: raw.1)!
            crg_mutex_lock(mutex)
            if thread == 0 {
                flag.ready = 1
                crg_condition_broadcast(condition)
            } else {
                while flag.ready == 0 { _ = crg_condition_wait(condition, mutex) }
                seen.add(flag.ready, ordering: .relaxed)
            }
            crg_mutex_unlock(mutex)
        }
        #expect(seen.load(ordering: .relaxed) == 3)
    }

    @Test func waitingWhileLockedTwiceOrNotAtAllIsEDEADLK() {
        let mutex = crg_mutex_create()!
        let condition = crg_condition_create()!
        defer {
            crg_condition_destroy(condition)
            crg_mutex_release(mutex)
        }
        #expect(crg_condition_wait(condition, mutex) == EDEADLK, "not held")
        crg_mutex_lock(mutex)
        crg_mutex_lock(mutex)
        #expect(crg_mutex_held(mutex))
        #expect(crg_condition_wait(condition, mutex) == EDEADLK, "held twice")
        crg_mutex_unlock(mutex)
        crg_mutex_unlock(mutex)
        #expect(!crg_mutex_held(mutex))
    }

    /// A timed wait that nothing signals gives up with ETIMEDOUT, holding the
    /// mutex again; one that is signalled returns 0.
    @Test func aTimedWaitTimesOutOrIsWoken() {
        let mutex = crg_mutex_create()!
        let condition = crg_condition_create()!
        defer {
            crg_condition_destroy(condition)
            crg_mutex_release(mutex)
        }
        #expect(crg_condition_wait_for(condition, mutex, 1_000) == EDEADLK, "not held")
        crg_mutex_lock(mutex)
        #expect(crg_condition_wait_for(condition, mutex, 20_000_000) == ETIMEDOUT)
        #expect(crg_mutex_held(mutex), "held again after the timeout")
        crg_mutex_unlock(mutex)

        final class Flag: @unchecked Sendable { var ready = false }
        let flag = Flag()
        let raw = (UInt(bitPattern: mutex), UInt(bitPattern: condition))
        let woken = Atomic<Bool>(false)
        runOnThreads(2) { thread in
            let mutex = OpaquePointer(bitPattern: raw.0)!, condition = OpaquePointer(bitPattern: raw.1)!
            crg_mutex_lock(mutex)
            if thread == 0 {
                flag.ready = true
                crg_condition_broadcast(condition)
            } else {
                // A minute: only a missed wake-up makes it time out.
                while !flag.ready {
                    if crg_condition_wait_for(condition, mutex, 60_000_000_000) == ETIMEDOUT { break }
                }
                woken.store(flag.ready, ordering: .relaxed)
            }
            crg_mutex_unlock(mutex)
        }
        let wasWoken = woken.load(ordering: .relaxed)
        #expect(wasWoken)
    }

    /// crg_thread_start runs the body on a thread of its own, and a thread
    /// that ends with crg_thread_exit inside a read section leaves it: what
    /// is retired afterwards is released once the thread is gone.
    @Test func aThreadEndingInsideAReadSectionLeavesIt() {
        final class Probe: @unchecked Sendable {
            let inSection = Atomic<Bool>(false)
            let released = Atomic<Bool>(false)
        }
        let probe = Probe()
        let rc = crg_thread_start({ raw in
            let probe = Unmanaged<Probe>.fromOpaque(raw!).takeUnretainedValue()
            crg_read_begin()
            probe.inSection.store(true, ordering: .releasing)
            crg_thread_exit()
        }, Unmanaged.passUnretained(probe).toOpaque())
        #expect(rc == 0)
        #expect(waitUpTo(seconds: 10) { probe.inSection.load(ordering: .acquiring) })
        // Retired while the thread is (or was) inside its section.
        _ = crg_retire(Unmanaged.passRetained(probe).toOpaque(), { raw, _ in
            let probe = Unmanaged<Probe>.fromOpaque(raw).takeRetainedValue()
            probe.released.store(true, ordering: .releasing)
        }, nil)
        #expect(waitUpTo(seconds: 10) {
            _ = crg_collect()
            return probe.released.load(ordering: .acquiring)
        }, "the ended thread's read section still holds back reclamation")
    }

    /// Polls `condition` for at most `seconds`.
    private func waitUpTo(seconds: Double, _ condition: () -> Bool) -> Bool {
        for _ in 0..<Int(seconds * 1_000) {
            if condition() { return true }
            usleep(1_000)
        }
        return condition()
    }

    /// The mutex counts recursion itself; another thread cannot take it
    /// until the owner has unlocked as many times as it locked.
    @Test func recursionIsCountedAndExclusive() {
        let mutex = crg_mutex_create()!
        defer { crg_mutex_release(mutex) }
        crg_mutex_lock(mutex)
        #expect(crg_mutex_trylock(mutex), "the owner may lock again")
        let raw = UInt(bitPattern: mutex)
        let otherGotIt = Atomic<Bool>(true)
        runOnThreads(1) { _ in otherGotIt.store(crg_mutex_trylock(OpaquePointer(bitPattern: raw)!), ordering: .relaxed) }
        let gotWhileHeldTwice = otherGotIt.load(ordering: .relaxed)
        #expect(!gotWhileHeldTwice)
        crg_mutex_unlock(mutex)
        runOnThreads(1) { _ in otherGotIt.store(crg_mutex_trylock(OpaquePointer(bitPattern: raw)!), ordering: .relaxed) }
        let gotWhileHeldOnce = otherGotIt.load(ordering: .relaxed)
        #expect(!gotWhileHeldOnce, "still held once")
        crg_mutex_unlock(mutex)
        runOnThreads(1) { _ in
            let mutex = OpaquePointer(bitPattern: raw)!
            otherGotIt.store(crg_mutex_trylock(mutex), ordering: .relaxed)
            crg_mutex_unlock(mutex)
        }
        let gotWhenFree = otherGotIt.load(ordering: .relaxed)
        #expect(gotWhenFree)
    }
}

/// A counter reachable from a C callback's context pointer.
final class Counter: Sendable {
    let value = Atomic<Int>(0)
}
