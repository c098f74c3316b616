import CRegistry
import CRegistry.Testing
import Testing

/// crg_check_invariants itself: silent on every table the API builds, and
/// for each invariant, a table corrupted by hand (through the private
/// layout of crg_table_inline.h) is reported as breaking that invariant, at
/// the slot where it is broken. ModelTests and the fuzzer run the check after
/// every operation; these tests show it would catch what they look for.
@Suite struct InvariantTests {
    /// The current slot array of a table, written directly.
    struct Slots {
        let head: UnsafeMutablePointer<crg_table_head>
        let array: UnsafeMutablePointer<crg_slots>
        let mask: Int
        let meta: UnsafeMutablePointer<UInt16>
        let entries: UnsafeMutablePointer<crg_slot>
        let names: UnsafeMutablePointer<UnsafeMutablePointer<crg_name>?>
        let hashes: UnsafeMutablePointer<UInt64>

        init(_ table: Table) {
            head = UnsafeMutableRawPointer(table.raw).assumingMemoryBound(to: crg_table_head.self)
            array = head.pointee.slots
            mask = array.pointee.mask
            meta = array.pointee.meta
            entries = crg_internal_entries(array)
            names = crg_internal_names(array, mask)
            hashes = crg_internal_hashes(array, mask)
        }

        func slot(_ index: Int) -> Int { index & mask }
        func distance(_ index: Int) -> Int { crg_internal_distance(index, hashes[index], mask) }

        /// Makes slot `index` empty, as a removal leaves it.
        func erase(_ index: Int) {
            meta[index] = 0
            hashes[index] = 0
            entries[index] = crg_slot(type: 0, value: nil)
            names[index] = nil
        }

        /// Runs `corrupt`, returns what the check finds, and puts every slot
        /// (and the header and sequence number) back as they were.
        func check(_ table: Table, after corrupt: () -> Void) -> (broken: Int32, slot: Int) {
            let capacity = mask + 1
            let saved = (Array(UnsafeBufferPointer(start: meta, count: capacity)),
                         Array(UnsafeBufferPointer(start: entries, count: capacity)),
                         Array(UnsafeBufferPointer(start: names, count: capacity)),
                         Array(UnsafeBufferPointer(start: hashes, count: capacity)),
                         array.pointee, head.pointee.seq)
            corrupt()
            let found = table.invariants
            for i in 0..<capacity {
                meta[i] = saved.0[i]
                entries[i] = saved.1[i]
                names[i] = saved.2[i]
                hashes[i] = saved.3[i]
            }
            array.pointee = saved.4
            head.pointee.seq = saved.5
            return found
        }
    }

    static func code(_ invariant: crg_invariant) -> Int32 { Int32(invariant.rawValue) }

    @Test func everyTableTheAPIBuildsHoldsThem() {
        #expect(crg_check_invariants(nil, nil) == EINVAL)
        let table = Table()
        #expect(table.invariants == (0, -1), "the shared empty array")
        func key(_ i: Int) -> Key { i % 3 == 0 ? Key(UInt64(i)) : Key(UInt64(i), "n\(i)") }
        for i in 0..<1_000 { table.put(key(i), i + 1) }
        #expect(table.invariants == (0, -1), "after growing")
        for i in stride(from: 0, to: 1_000, by: 2) { table.remove(key(i)) }
        #expect(table.invariants == (0, -1), "after removals and a shrink")
        _ = table.clear()
        #expect(table.invariants == (0, -1), "after a clear")
    }

    /// Three keys with one full hash: a run of three slots from their home h
    /// (distances 0, 1, 2) in an array of 8, and h + 3 empty.
    @Test func eachCorruptionIsReportedWhereItIs() {
        let table = Table()
        let keys = (0..<3).map { Key(9, Array("k\($0)".utf8), forcedHash: 42) }
        for (i, key) in keys.enumerated() { table.put(key, i + 1) }
        let s = Slots(table)
        #expect(s.mask == 7)
        let home = (0...s.mask).first { s.meta[$0] != 0 && s.distance($0) == 0 }!
        let (h1, h2, h3) = (s.slot(home + 1), s.slot(home + 2), s.slot(home + 3))
        #expect(s.distance(h1) == 1 && s.distance(h2) == 2 && s.meta[h3] == 0, "one run of three")
        #expect(table.invariants == (0, -1))

        #expect(s.check(table) { s.head.pointee.seq += 1 } == (Self.code(CRG_BROKEN_SEQUENCE), -1),
                "an odd sequence number outside a write")
        #expect(s.check(table) { s.array.pointee.meta = s.meta + 1 } == (Self.code(CRG_BROKEN_ARRAY), -1),
                "a meta pointer away from where the layout puts meta")
        #expect(s.check(table) { s.entries[h3].value = pointer(5) } == (Self.code(CRG_BROKEN_EMPTY_SLOT), h3),
                "an empty slot holding a value")
        #expect(s.check(table) { s.entries[home].value = nil } == (Self.code(CRG_BROKEN_ENTRY), home),
                "an entry without a value")
        #expect(s.check(table) { s.meta[h1] ^= 0x02 } == (Self.code(CRG_BROKEN_META), h1),
                "a tag that is not the hash's")
        #expect(s.check(table) { s.meta[h1] += 1 << 8 } == (Self.code(CRG_BROKEN_META), h1),
                "a distance that is not the slot's")
        #expect(s.check(table) { s.erase(h1) } == (Self.code(CRG_BROKEN_ORDER), h2),
                "an entry away from home right after an empty slot")
        #expect(s.check(table) {
            // The last entry of the run again, one slot further on: its meta
            // is right for that slot, but a lookup stops at the first copy.
            s.meta[h3] = crg_internal_meta(crg_internal_tag(s.hashes[h2], true), 3)
            s.hashes[h3] = s.hashes[h2]
            s.entries[h3] = s.entries[h2]
            s.names[h3] = s.names[h2]
        } == (Self.code(CRG_BROKEN_PROBE), h3), "a key stored twice")
        #expect(s.check(table) { s.erase(h2) } == (Self.code(CRG_BROKEN_COUNT), -1),
                "an entry gone without the count knowing")
        #expect(table.invariants == (0, -1), "the table is whole again")
        for (i, key) in keys.enumerated() { #expect(table.get(key) == i + 1) }
    }

    /// Robin Hood order also holds between two entries of different homes:
    /// an entry may sit at most one slot further from home than the entry
    /// before it.
    @Test func anEntryFarBehindItsPredecessorBreaksTheOrder() {
        let table = Table()
        let keys = (0..<3).map { Key(9, Array("k\($0)".utf8), forcedHash: 42) }
        for (i, key) in keys.enumerated() { table.put(key, i + 1) }
        let s = Slots(table)
        let home = (0...s.mask).first { s.meta[$0] != 0 && s.distance($0) == 0 }!
        let (h1, h2) = (s.slot(home + 1), s.slot(home + 2))
        // The middle entry claims its home is its own slot: meta and hash
        // agree (distance 0), so only the order after it is wrong.
        let moved = s.check(table) {
            let hash = (s.hashes[h1] & ~UInt64(s.mask)) | UInt64(h1)
            s.hashes[h1] = hash
            s.meta[h1] = crg_internal_meta(crg_internal_tag(hash, true), 0)
        }
        #expect(moved == (Self.code(CRG_BROKEN_ORDER), h2))
        #expect(table.invariants == (0, -1))
    }

    /// An unnamed entry's hash is its type's (the table computes it), so an
    /// entry whose type no longer matches its hash is reported.
    @Test func anUnnamedEntryKeepsItsTypesHash() {
        let table = Table()
        table.put(Key(7), 70)
        let s = Slots(table)
        let index = (0...s.mask).first { s.meta[$0] != 0 }!
        #expect(s.check(table) { s.entries[index].type = 8 } == (Self.code(CRG_BROKEN_ENTRY), index))
        #expect(table.invariants == (0, -1))
        #expect(table.get(Key(7)) == 70)
    }
}
