import CRegistry
import CRegistry.Testing
import Testing

/// The table checked step by step against a Swift Dictionary, and its
/// layout invariants (crg_check_invariants) after every operation.
@Suite struct ModelTests {
    /// Names that stress equality: absent, empty, one NUL byte, and many that
    /// share long prefixes or differ only in their last byte.
    static let namePool: [[UInt8]?] = {
        var pool: [[UInt8]?] = [nil, [], [0], [0, 0], Array("a".utf8), Array("é".utf8)]
        let prefix = Array(repeating: UInt8(ascii: "p"), count: 300)
        for i in 0..<40 { pool.append(prefix + Array("\(i)".utf8)) }
        for i in 0..<40 { pool.append(Array("name-\(i)".utf8)) }
        return pool
    }()

    @Test(arguments: [(seed: UInt64(1), capacity: 0), (seed: 2, capacity: 1000)])
    func randomOperationsMatchDictionary(seed: UInt64, capacity: Int) {
        var random = SplitMix64(seed: seed)
        let table = Table(capacity: capacity)
        var model: [Key: Int] = [:]
        let operations = 250_000
        var nextValue = 1

        for step in 0..<operations {
            let key = Key(UInt64.random(in: 1...48, using: &random), Self.namePool.randomElement(using: &random)!)
            let roll = Int.random(in: 0..<10_000, using: &random)
            switch roll {
            case 0..<4_200:
                let (rc, previous) = table.put(key, nextValue)
                #expect(rc == 0)
                #expect(previous == model[key], "put \(key) at step \(step)")
                model[key] = nextValue
                nextValue += 1
            case 4_200..<7_200:
                #expect(table.get(key) == model[key], "get \(key) at step \(step)")
            case 7_200..<9_990:
                #expect(table.remove(key) == model.removeValue(forKey: key), "remove \(key) at step \(step)")
            case 9_990..<9_995:
                #expect(table.reserve(model.count + Int.random(in: 0...600, using: &random)) == 0, "reserve at step \(step)")
            default:
                #expect(table.clear().sorted() == model.values.sorted(), "clear at step \(step)")
                model.removeAll()
            }
            #expect(table.count == model.count, "count at step \(step)")
            let invariants = table.invariants
            #expect(invariants.broken == 0, "invariant \(invariants.broken) broken at slot \(invariants.slot), step \(step)")
            if step % 25_000 == 0 || step == operations - 1 {
                #expect(table.entries() == model, "entries at step \(step)")
                let stats = table.stats
                // At most 3/4 of the slots in use; 7 of the smallest array's 8.
                #expect(stats.count * 4 <= stats.capacity * 3 || (stats.capacity == 8 && stats.count <= 7),
                        "load factor at step \(step)")
            }
        }
    }

    @Test func sharedMutexGroupsTwoTables() {
        let mutex = crg_mutex_create()!
        defer { crg_mutex_release(mutex) }
        let first = Table(mutex: mutex)
        let second = Table(mutex: mutex)
        #expect(crg_table_mutex(first.raw) == mutex)
        #expect(crg_table_mutex(second.raw) == mutex)

        // One lock covers both tables; the *_locked calls then take no lock,
        // and crg_find needs no read section while it is held.
        crg_mutex_lock(mutex)
        var key = crg_key_unnamed(7)
        var previous: UnsafeMutableRawPointer?
        #expect(crg_put_locked(first.raw, &key, pointer(1), &previous) == 0)
        #expect(crg_put_locked(second.raw, &key, pointer(2), &previous) == 0)
        var value: UnsafeMutableRawPointer?
        #expect(crg_find(first.raw, &key, &value) == 0 && integer(value) == 1)
        #expect(crg_find(second.raw, &key, &value) == 0 && integer(value) == 2)
        // Recursive: the plain entry points still work while the lock is held.
        #expect(first.get(Key(7)) == 1)
        crg_mutex_unlock(mutex)

        #expect(second.remove(Key(7)) == 2)
        #expect(second.count == 0 && first.count == 1)
    }
}
