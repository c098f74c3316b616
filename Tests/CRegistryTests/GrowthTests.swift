import CRegistry
import Testing

@Suite struct GrowthTests {
    /// A million keys in, every one found, then all out again; the table
    /// grows (four times over while small, then doubling) and shrinks back
    /// to its initial size.
    @Test func growsToAMillionKeysAndBack() {
        let table = Table()
        #expect(table.stats.capacity == 0, "a new table allocates no slots")
        table.put(Key(UInt64.max), 1)
        let initialCapacity = table.stats.capacity
        #expect(initialCapacity == 8)
        table.remove(Key(UInt64.max))
        let total = 1_000_000
        func key(_ i: Int) -> Key {
            // Half unnamed keys over a million types, half named keys over a few types.
            i % 2 == 0 ? Key(UInt64(i)) : Key(UInt64(i % 7), "service-\(i)")
        }
        for i in 0..<total {
            #expect(table.put(key(i), i + 1).previous == nil)
        }
        #expect(table.count == total)
        let grown = table.stats
        #expect(grown.capacity.nonzeroBitCount == 1)
        #expect(grown.count * 4 <= grown.capacity * 3)
        // Robin Hood keeps the mean probe short at this size.
        #expect(Double(grown.total_distance) / Double(grown.count) < 2.0, "mean distance \(grown.total_distance)/\(grown.count)")

        var missing = 0
        for i in 0..<total where table.get(key(i)) != i + 1 { missing += 1 }
        #expect(missing == 0)

        for i in stride(from: 0, to: total, by: 2) {
            #expect(table.remove(key(i)) == i + 1)
        }
        #expect(table.count == total / 2)
        var wrong = 0
        for i in 0..<total where table.get(key(i)) != (i % 2 == 0 ? nil : i + 1) { wrong += 1 }
        #expect(wrong == 0)

        for i in stride(from: 1, to: total, by: 2) {
            #expect(table.remove(key(i)) == i + 1)
        }
        #expect(table.count == 0)
        #expect(table.stats.capacity == initialCapacity)
    }

    /// Below 1,024 slots an array grows four times over, above it twice, each
    /// time the count would pass three quarters of the capacity (7 of the
    /// smallest array's 8 slots).
    @Test func smallArraysGrowFourTimesOverAndLargeOnesDouble() {
        let table = Table()
        // (capacity, the count whose insert grew the table to it)
        var growths: [(capacity: Int, atCount: Int)] = []
        for i in 0..<5_000 {
            table.put(Key(UInt64(i)), i + 1)
            let capacity = Int(table.stats.capacity)
            if growths.last?.capacity != capacity {
                growths.append((capacity, i + 1))
            }
        }
        #expect(growths.map(\.capacity) == [8, 32, 128, 512, 2_048, 4_096, 8_192])
        #expect(growths.map(\.atCount) == [1, 8, 25, 97, 385, 1_537, 3_073])
    }

    @Test func initialCapacityHoldsThatManyKeysWithoutGrowing() {
        let table = Table(capacity: 1_000)
        table.put(Key(UInt64.max), 1)
        table.remove(Key(UInt64.max))
        let capacity = table.stats.capacity
        #expect(capacity * 3 / 4 >= 1_000)
        for i in 0..<1_000 { table.put(Key(UInt64(i)), i + 1) }
        #expect(table.stats.capacity == capacity)
        // And it never shrinks below it.
        for i in 0..<1_000 { table.remove(Key(UInt64(i))) }
        #expect(table.stats.capacity == capacity)
    }

    /// A reservation sizes the array once, so that the reserved keys fill at
    /// most half of it: inserting up to the reserved count moves nothing
    /// again. A smaller reservation changes nothing; a larger one moves every
    /// entry into a new array; reserving nothing allocates nothing.
    @Test func reservingSizesTheArrayOnceForABatch() {
        func key(_ i: Int) -> Key { i % 3 == 0 ? Key(UInt64(i), "n\(i)") : Key(UInt64(i)) }
        let table = Table()
        #expect(table.reserve(0) == 0)
        #expect(table.stats.capacity == 0, "reserving nothing allocates nothing")
        #expect(table.reserve(191) == 0)
        #expect(table.stats.capacity == 512)
        var moved = 0
        for i in 0..<191 {
            table.put(key(i), i + 1)
            if table.stats.capacity != 512 { moved += 1 }
        }
        #expect(moved == 0, "no insert up to the reserved count grew the table")
        #expect(table.invariants.broken == 0)
        #expect(table.reserve(100) == 0 && table.stats.capacity == 512)
        #expect(table.reserve(1_000) == 0 && table.stats.capacity == 2_048)
        #expect(table.invariants.broken == 0)
        var wrong = 0
        for i in 0..<191 where table.get(key(i)) != i + 1 { wrong += 1 }
        #expect(wrong == 0 && table.count == 191)
        // Small reservations keep the table's own minimum.
        let small = Table(capacity: 100)
        #expect(small.reserve(3) == 0 && small.stats.capacity == 256)
    }

    /// Clearing allocates nothing: the table goes back to the shared empty
    /// array, and its first insert allocates the initial capacity again.
    @Test func clearReturnsEveryValueAndAllocatesNothing() {
        let table = Table()
        for i in 0..<10_000 { table.put(Key(UInt64(i), "n"), i + 1) }
        #expect(table.stats.capacity > 8)
        #expect(table.clear().sorted() == Array(1...10_000))
        #expect(table.count == 0)
        #expect(table.stats.capacity == 0)
        #expect(table.get(Key(5, "n")) == nil)
        table.put(Key(5, "n"), 99)
        #expect(table.get(Key(5, "n")) == 99)
        #expect(table.stats.capacity == 8)
    }
}
