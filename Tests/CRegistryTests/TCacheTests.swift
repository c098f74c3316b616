import CRegistry
import CRegistry.Testing
import ResolverTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The per-thread cache of cached instances (crg_tcache.h). Other suites may
/// take the registry's (versioned) mutex meanwhile, which moves the version
/// by two: a test that needs a stable version retries until it has one.
@Suite struct TCacheTests {
    // The cache stores and compares addresses; it never reads through them.
    let container = UnsafeMutableRawPointer(bitPattern: 0x10000)!
    let value = UnsafeMutableRawPointer(bitPattern: 0x20000)!
    let name = UnsafeMutableRawPointer(bitPattern: 0x30000)!

    /// Probes, fills and probes again inside one read section; the second
    /// probe's answer, or nil if a write moved the version in between.
    func fillAndFind(type: UInt64, name: UnsafeRawPointer? = nil, hash: UInt64 = 0) -> UnsafeMutableRawPointer?? {
        crg_read_begin()
        defer { crg_read_end() }
        let before = crg_tcache_version()
        _ = crg_tcache_find(container, type, name, hash)
        crg_tcache_fill(container, type, name, hash, value)
        let found = crg_tcache_find(container, type, name, hash)
        return crg_tcache_version() == before ? .some(found) : .none
    }

    @Test func aFilledKeyIsFoundUntilTheVersionMoves() {
        var hit: UnsafeMutableRawPointer?
        for _ in 0..<1_000 {
            if let found = fillAndFind(type: 42) {
                hit = found
                break
            }
        }
        #expect(hit == value)
        crg_tcache_invalidate()
        crg_read_begin()
        #expect(crg_tcache_find(container, 42, nil, 0) == nil, "a new version empties the cache")
        crg_read_end()
    }

    @Test func keysDifferingOnlyInTheirNameAreApart() {
        var filled = false
        for _ in 0..<1_000 where fillAndFind(type: 7, name: name, hash: 99) != nil {
            filled = true
            break
        }
        #expect(filled)
        crg_read_begin()
        #expect(crg_tcache_find(container, 7, nil, 0) == nil)
        #expect(crg_tcache_find(container, 7, name, 98) == nil)
        #expect(crg_tcache_find(container, 8, name, 99) == nil)
        crg_read_end()
    }

    /// While a versioned mutex is held the version is odd: nothing is filled,
    /// and taking it empties every thread's cache.
    @Test func nothingIsFilledWhileAVersionedMutexIsHeld() throws {
        let mutex = try #require(crg_mutex_create())
        defer { crg_mutex_release(mutex) }
        crg_mutex_set_versioned(mutex)
        crg_mutex_lock(mutex)
        #expect(crg_tcache_version() & 1 == 1)
        crg_read_begin()
        _ = crg_tcache_find(container, 5, nil, 0)
        crg_tcache_fill(container, 5, nil, 0, value)
        #expect(crg_tcache_find(container, 5, nil, 0) == nil)
        crg_read_end()
        crg_mutex_lock(mutex)   // recursion does not step the version again
        #expect(crg_tcache_version() & 1 == 1)
        crg_mutex_unlock(mutex)
        crg_mutex_unlock(mutex)
    }

    @Test func takingAVersionedMutexEmptiesTheCaches() throws {
        let mutex = try #require(crg_mutex_create())
        defer { crg_mutex_release(mutex) }
        crg_mutex_set_versioned(mutex)
        var filled = false
        for _ in 0..<1_000 where fillAndFind(type: 11) != nil {
            filled = true
            break
        }
        #expect(filled)
        crg_mutex_lock(mutex)
        crg_mutex_unlock(mutex)
        crg_read_begin()
        #expect(crg_tcache_find(container, 11, nil, 0) == nil)
        crg_read_end()
    }

    /// A thread waiting on a condition has let go of the mutex: the version
    /// is even again meanwhile, so other threads' caches keep working.
    @Test func aConditionWaitLetsGoOfTheVersion() throws {
        let mutex = try #require(crg_mutex_create())
        defer { crg_mutex_release(mutex) }
        crg_mutex_set_versioned(mutex)
        let condition = try #require(crg_condition_create())
        defer { crg_condition_destroy(condition) }
        let state = Locked((waiting: false, done: false, sawEven: false))
        // The C objects' addresses, which both threads use under the mutex.
        nonisolated(unsafe) let sharedMutex = mutex
        nonisolated(unsafe) let sharedCondition = condition
        runOnThreads(2) { index in
            if index == 0 {
                crg_mutex_lock(sharedMutex)
                state.withLock { $0.waiting = true }
                while !state.withLock({ $0.done }) {
                    _ = crg_condition_wait_for(sharedCondition, sharedMutex, 50_000_000)
                }
                crg_mutex_unlock(sharedMutex)
                return
            }
            for _ in 0..<10_000 where !state.withLock({ $0.waiting }) {
                usleep(1_000)
            }
            // The waiter holds the mutex except while it waits: keep looking
            // until the version is even (other suites may hold the registry
            // mutex for a moment too).
            for _ in 0..<10_000 where !state.withLock({ $0.sawEven }) {
                if crg_tcache_version() & 1 == 0 {
                    state.withLock { $0.sawEven = true }
                }
                usleep(100)
            }
            crg_mutex_lock(sharedMutex)
            state.withLock { $0.done = true }
            crg_condition_broadcast(sharedCondition)
            crg_mutex_unlock(sharedMutex)
        }
        #expect(state.withLock { $0.waiting && $0.sawEven })
    }

    // MARK: - Placement: two ways per set

    /// A key as the cache sees it (addresses it compares, never reads).
    struct Key: Hashable {
        let container: UInt
        let type: UInt64
        let name: UInt
        let nameHash: UInt64

        var containerPointer: UnsafeRawPointer { UnsafeRawPointer(bitPattern: container)! }
        var namePointer: UnsafeRawPointer? { UnsafeRawPointer(bitPattern: name) }
        var set: UInt32 { crg_tcache_set_index(containerPointer, type, nameHash) }
    }

    /// Keys drawn from `random` (addresses aligned as real ones are, some
    /// named), grouped by set until `sets` sets hold `perSet` keys each.
    /// Each test passes containers of its own (`containers`): tests share
    /// threads, and so thread caches, under one version.
    static func keysSharingSets(_ sets: Int, perSet: Int, containers: UInt,
                                using random: inout SplitMix64) -> [[Key]] {
        var bySet: [UInt32: [Key]] = [:]
        while bySet.values.filter({ $0.count >= perSet }).count < sets {
            let named = Bool.random(using: &random)
            let key = Key(container: containers + UInt.random(in: 0..<4, using: &random) * 0x40,
                          type: 0x20_0000 + UInt64.random(in: 0..<4096, using: &random) * 8,
                          name: named ? 0x30_0000 + UInt.random(in: 0..<4, using: &random) * 0x10 : 0,
                          nameHash: named ? random.next() : 0)
            if bySet[key.set, default: []].count < perSet, !bySet[key.set, default: []].contains(key) {
                bySet[key.set, default: []].append(key)
            }
        }
        return Array(bySet.values.filter { $0.count >= perSet }.prefix(sets))
    }

    /// One resolve's use of the cache, in one read section: a probe, then
    /// (`fill`) a fill with `value`, as a lookup after a miss (or after a
    /// registration hit, with its instance) does. Returns what the probe
    /// found, or `.none` if the version was odd or moved meanwhile (another
    /// suite took the registry mutex): the cache then holds nothing the
    /// next probe will see.
    func probe(_ key: Key, fill value: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?? {
        crg_read_begin()
        defer { crg_read_end() }
        let before = crg_tcache_version()
        let found = crg_tcache_find(key.containerPointer, key.type, key.namePointer, key.nameHash)
        if let value {
            crg_tcache_fill(key.containerPointer, key.type, key.namePointer, key.nameHash, value)
        }
        let after = crg_tcache_version()
        return before == after && before & 1 == 0 ? .some(found) : .none
    }

    /// Retries `probe` until the version stays even and still, so that a
    /// test of placement is not undone by another suite's write.
    func settledRound(_ keys: [Key], values: [UnsafeMutableRawPointer]) -> Bool {
        let start = crg_tcache_version()
        for (key, value) in zip(keys, values) {
            guard probe(key, fill: value) != nil else { return false }
        }
        return crg_tcache_version() == start
    }

    @Test func twoKeysSharingASetAreBothKept() {
        var random = SplitMix64(seed: 28)
        for pair in Self.keysSharingSets(8, perSet: 2, containers: 0x100_0000, using: &random) {
            let values = [UnsafeMutableRawPointer(bitPattern: 0x1000)!, UnsafeMutableRawPointer(bitPattern: 0x2000)!]
            var kept = false
            for _ in 0..<1_000 where !kept {
                guard settledRound(pair, values: values) else { continue }
                // The resolution alternates: A, B, A, B. Every probe hits.
                let version = crg_tcache_version()
                let found = [pair[0], pair[1], pair[0], pair[1]].map { probe($0, fill: nil) }
                guard crg_tcache_version() == version else { continue }
                #expect(found.map { $0 ?? nil } == [values[0], values[1], values[0], values[1]],
                        "set \(pair[0].set): \(pair)")
                kept = true
            }
            #expect(kept)
        }
    }

    /// The pattern of a graph A(B(C), C) whose A and C share a set: after
    /// the first resolution, every probe of every later one hits.
    @Test func aGraphsKeysStopMissingAfterItsFirstResolution() {
        var random = SplitMix64(seed: 29)
        let sets = Self.keysSharingSets(2, perSet: 2, containers: 0x200_0000, using: &random)
        let (a, b, c) = (sets[0][0], sets[1][0], sets[0][1])
        let value = UnsafeMutableRawPointer(bitPattern: 0x4000)!
        var checked = false
        for _ in 0..<1_000 where !checked {
            let version = crg_tcache_version()
            // First resolution: each key misses once and is filled.
            for key in [a, b, c, c] where probe(key, fill: nil) == .some(nil) {
                _ = probe(key, fill: value)
            }
            let later = (0..<3).flatMap { _ in [a, b, c, c].map { probe($0, fill: nil) } }
            guard crg_tcache_version() == version else { continue }
            #expect(later.allSatisfy { $0 == .some(value) })
            checked = true
        }
        #expect(checked)
    }

    /// A third key in a set evicts the one filled least recently; a key
    /// filled again (a registration, then its instance) counts as filled
    /// last.
    @Test func aThirdKeyEvictsTheOlderOfTwo() {
        var random = SplitMix64(seed: 30)
        let keys = Self.keysSharingSets(1, perSet: 3, containers: 0x300_0000, using: &random)[0]
        let values = (1...4).map { UnsafeMutableRawPointer(bitPattern: $0 * 0x1000)! }
        var checked = false
        for _ in 0..<1_000 where !checked {
            let version = crg_tcache_version()
            _ = probe(keys[0], fill: values[0])
            _ = probe(keys[1], fill: values[1])
            _ = probe(keys[0], fill: values[3])   // filled again: now the most recent
            _ = probe(keys[2], fill: values[2])   // evicts keys[1]
            let found = keys.map { probe($0, fill: nil) }
            guard crg_tcache_version() == version else { continue }
            #expect(found == [.some(values[3]), .some(nil), .some(values[2])])
            checked = true
        }
        #expect(checked)
    }

    /// Random probes and fills, on keys crowded into a few sets, against a
    /// model of the placement rule: per set, at most two keys, the one
    /// filled least recently evicted by a third. Every probe must answer
    /// exactly what the model holds.
    @Test(arguments: [UInt64(1), 2, 3])
    func randomProbesAndFillsMatchTheModel(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let keys = Self.keysSharingSets(4, perSet: 5, containers: UInt(0x400_0000 * (seed + 3)), using: &random).flatMap { $0 }
        var sets: [UInt32: [Key]] = [:]        // most recently filled first
        var values: [Key: UnsafeMutableRawPointer] = [:]
        var modelVersion = UInt64.max
        var checkedSteps = 0
        crg_tcache_empty()
        for step in 0..<20_000 {
            let key = keys.randomElement(using: &random)!
            let value = UnsafeMutableRawPointer(bitPattern: UInt(step + 1) << 4)!
            let fills = Int.random(in: 0..<3, using: &random) != 0
            let version = crg_tcache_version()
            let found = probe(key, fill: fills ? value : nil)
            guard let found, version == crg_tcache_version() else {
                // A write meanwhile (another suite's): which version the
                // probe and the fill saw is unknown, so empty the cache,
                // as the model is.
                crg_tcache_empty()
                sets = [:]
                values = [:]
                continue
            }
            if version != modelVersion {
                // A version the model has not seen: the probe emptied the
                // cache (or it was empty already).
                sets = [:]
                values = [:]
                modelVersion = version
            }
            #expect(found == values[key], "probe of \(key) at step \(step)")
            checkedSteps += 1
            guard fills else { continue }
            var ways = sets[key.set, default: []].filter { $0 != key }
            ways.insert(key, at: 0)
            if ways.count > 2 {
                values[ways.removeLast()] = nil
            }
            sets[key.set] = ways
            values[key] = value
        }
        #expect(checkedSteps > 10_000)
    }
}
