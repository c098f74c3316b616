import CRegistry
import CRegistry.Testing
import Testing

@Suite struct CollisionTests {
    @Test func oneTypeWithAHundredThousandNames() {
        let table = Table()
        let type: UInt64 = 0xDEAD_BEEF
        for i in 0..<100_000 { table.put(Key(type, "name-\(i)"), i + 1) }
        #expect(table.count == 100_000)
        var wrong = 0
        for i in 0..<100_000 where table.get(Key(type, "name-\(i)")) != i + 1 { wrong += 1 }
        #expect(wrong == 0)
        #expect(table.get(Key(type)) == nil)
        #expect(table.get(Key(type, "name-100000")) == nil)
    }

    @Test func namesSharingLongPrefixes() {
        let table = Table()
        let prefix = String(repeating: "x", count: 4_096)
        for i in 0..<2_000 { table.put(Key(1, prefix + "\(i)"), i + 1) }
        for i in 0..<2_000 { #expect(table.get(Key(1, prefix + "\(i)")) == i + 1) }
        #expect(table.get(Key(1, prefix)) == nil)
        #expect(table.get(Key(1, prefix + "2000")) == nil)
        // Same bytes but one shorter or longer are different keys.
        #expect(table.get(Key(1, prefix + "1" + "0")) == 11)
        #expect(table.get(Key(1, String(prefix.dropLast()) + "1")) == nil)
    }

    @Test func noNameEmptyNameAndNULNameAreDistinct() {
        let table = Table()
        let none = Key(5), empty = Key(5, []), nul = Key(5, [0]), twoNul = Key(5, [0, 0])
        table.put(none, 1)
        table.put(empty, 2)
        table.put(nul, 3)
        table.put(twoNul, 4)
        #expect(table.count == 4)
        #expect(table.get(none) == 1)
        #expect(table.get(empty) == 2)
        #expect(table.get(nul) == 3)
        #expect(table.get(twoNul) == 4)
        #expect(table.remove(empty) == 2)
        #expect(table.get(none) == 1 && table.get(nul) == 3 && table.get(empty) == nil)
        // An empty name may be given with a NULL pointer.
        var key = crg_key_named(5, nil, 0, crg_name_hash(nil, 0))
        #expect(crg_put(table.raw, &key, pointer(9), nil) == 0)
        #expect(table.get(empty) == 9)
        let entries = table.entries()
        #expect(entries[Key(5, [])] == 9 && entries[Key(5)] == 1)
    }

    @Test func sameNameOnDifferentTypesAndNamesComparedByContent() {
        let table = Table()
        table.put(Key(1, "fred"), 1)
        table.put(Key(2, "fred"), 2)
        #expect(table.get(Key(1, "fred")) == 1)
        #expect(table.get(Key(2, "fred")) == 2)
        // Equal bytes at a different address find the same entry.
        let copy = Array("fred".utf8) + []
        #expect(table.get(Key(1, copy)) == 1)
    }

    /// Every key has the same full hash (the name hash is forced), so all of
    /// them share one probe run: inserts, lookups and backward-shift deletes
    /// must still be exact.
    @Test func totalHashCollisions() {
        let table = Table()
        let keys = (0..<3_000).map { Key(9, Array("k\($0)".utf8), forcedHash: 42) }
        for (i, key) in keys.enumerated() { #expect(table.put(key, i + 1).previous == nil) }
        #expect(table.stats.max_distance >= 2_999)
        for (i, key) in keys.enumerated() { #expect(table.get(key) == i + 1) }
        // Remove from the middle of the run outwards, checking the rest each time.
        for i in stride(from: 1, to: keys.count, by: 3) { #expect(table.remove(keys[i]) == i + 1) }
        for (i, key) in keys.enumerated() { #expect(table.get(key) == (i % 3 == 1 ? nil : i + 1)) }
        #expect(table.get(Key(9, Array("absent".utf8), forcedHash: 42)) == nil)
        // The same key under its real hash is a different slot: the table trusts the caller's hash.
        #expect(table.get(Key(9, "k0")) == nil)
    }
}
