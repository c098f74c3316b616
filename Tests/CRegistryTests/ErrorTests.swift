import CRegistry
import CRegistry.Testing
import ResolverTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct ErrorTests {
    @Test func nullHandleIsEINVALEverywhere() {
        var key = crg_key_unnamed(1)
        var value: UnsafeMutableRawPointer?
        var count = 0
        #expect(crg_put(nil, &key, pointer(1), nil) == EINVAL)
        #expect(crg_put_locked(nil, &key, pointer(1), nil) == EINVAL)
        #expect(crg_get(nil, &key, &value) == EINVAL)
        #expect(crg_find(nil, &key, &value) == EINVAL)
        #expect(crg_remove(nil, &key, &value) == EINVAL)
        #expect(crg_remove_locked(nil, &key, &value) == EINVAL)
        #expect(crg_count(nil, &count) == EINVAL)
        #expect(crg_count_locked(nil) == 0)
        #expect(crg_clear(nil, nil, nil) == EINVAL)
        #expect(crg_iterate(nil, { _, _ in 0 }, nil) == EINVAL)
        #expect(crg_reserve_locked(nil, 10) == EINVAL)
        #expect(crg_create(nil, nil) == EINVAL)
        #expect(crg_container_create(nil, nil) == EINVAL)
        #expect(crg_container_find(nil, &key, &value) == EINVAL)
        #expect(crg_container_add_child_locked(nil, nil) == EINVAL)
        #expect(crg_retire(nil, { _, _ in }, nil) == EINVAL)
        crg_destroy(nil)
        crg_container_destroy(nil)
    }

    @Test func badKeysAndValuesAreEINVALAndChangeNothing() {
        let table = Table()
        table.put(Key(1, "kept"), 7)
        var nullName = crg_key_named(1, nil, 3, 0)
        var good = crg_key_unnamed(2)
        var previous: UnsafeMutableRawPointer? = pointer(55)
        #expect(crg_put(table.raw, &nullName, pointer(1), &previous) == EINVAL)
        #expect(crg_put(table.raw, nil, pointer(1), &previous) == EINVAL)
        #expect(crg_put(table.raw, &good, nil, &previous) == EINVAL)
        #expect(integer(previous) == 55, "previous is untouched on error")
        var value: UnsafeMutableRawPointer?
        #expect(crg_get(table.raw, &nullName, &value) == EINVAL)
        #expect(crg_remove(table.raw, &nullName, &value) == EINVAL)
        #expect(crg_get(table.raw, &good, &value) == ENOENT)
        #expect(crg_remove(table.raw, &good, &value) == ENOENT)
        #expect(table.count == 1 && table.get(Key(1, "kept")) == 7)
        // A name pointer and length are ignored when the key has no name.
        var unnamed = crg_key_unnamed(1)
        unnamed.name_len = 5
        #expect(crg_get(table.raw, &unnamed, &value) == ENOENT)
    }

    @Test func impossibleCapacityIsEINVAL() {
        var options = crg_options(capacity: Int.max, mutex: nil, allocator: nil, release: nil, release_context: nil)
        var table: OpaquePointer?
        #expect(crg_create(&table, &options) == EINVAL)
        #expect(table == nil)
    }

    /// Creating a table allocates the table and its own mutex, both from the
    /// table's allocator (its slots come with the first insert); when either
    /// fails, nothing is left behind.
    @Test func createFailsCleanly() {
        for failAfter in 0..<2 {
            let allocator = TestAllocator()
            allocator.remaining = failAfter
            var table: OpaquePointer?
            let rc = allocator.withAllocator { raw in
                var options = crg_options(capacity: 0, mutex: nil, allocator: raw, release: nil, release_context: nil)
                return crg_create(&table, &options)
            }
            #expect(rc == ENOMEM, "allocation \(failAfter) fails")
            #expect(table == nil)
            #expect(allocator.live == 0, "nothing leaked when allocation \(failAfter) fails")
        }
        let allocator = TestAllocator()
        allocator.remaining = 2
        var table: OpaquePointer?
        let rc = allocator.withAllocator { raw in
            var options = crg_options(capacity: 0, mutex: nil, allocator: raw, release: nil, release_context: nil)
            return crg_create(&table, &options)
        }
        #expect(rc == 0 && table != nil)
        #expect(allocator.live == 2, "the table and its mutex")
        crg_destroy(table)
        #expect(collect { allocator.live == 0 }, "the mutex went back to the table's allocator with the table")
    }

    /// Every allocation an insert can make (the name copy, the doubled slot
    /// array) fails in turn; each time the table must be exactly as before.
    @Test func failedInsertLeavesTheTableAsItWas() {
        let allocator = TestAllocator()
        withUnsafePointer(to: &allocator.raw) { raw in
            let table = Table(allocator: raw)
            // The first insert allocates the slots; when that fails, nothing changed.
            allocator.remaining = 0
            #expect(table.put(Key(50), 50).rc == ENOMEM)
            #expect(table.count == 0 && table.stats.capacity == 0)
            allocator.remaining = nil
            // Fill to exactly the growth threshold of the initial 8 slots (7 keys).
            var model: [Key: Int] = [:]
            for i in 0..<7 {
                let key = Key(UInt64(i), "name-\(i)")
                table.put(key, i + 1)
                model[key] = i + 1
            }
            let before = table.stats
            let newKey = Key(100, "new")

            // Fails at the name copy, then at the growth.
            for failAfter in 0..<2 {
                allocator.remaining = failAfter
                var previous: UnsafeMutableRawPointer? = pointer(77)
                let rc = newKey.withCKey { crg_put(table.raw, $0, pointer(999), &previous) }
                #expect(rc == ENOMEM)
                #expect(integer(previous) == 77)
                #expect(table.entries() == model)
                let after = table.stats
                #expect(after.capacity == before.capacity && after.count == before.count)
            }
            // A reservation that cannot have its array changes nothing, nor
            // does one too large to represent.
            allocator.remaining = 0
            #expect(table.reserve(100) == ENOMEM)
            #expect(table.reserve(Int.max) == ENOMEM)
            #expect(table.entries() == model && table.stats.capacity == before.capacity)
            // Replacing an existing key needs no memory, so it still works.
            allocator.remaining = 0
            #expect(table.put(Key(3, "name-3"), 33) == (0, 4))
            model[Key(3, "name-3")] = 33
            #expect(table.entries() == model)

            // Removal that cannot shrink still removes.
            allocator.remaining = nil
            for i in 0..<200 { table.put(Key(UInt64(1_000 + i)), i + 1) }
            for i in 0..<200 { model[Key(UInt64(1_000 + i))] = i + 1 }
            let large = table.stats.capacity
            allocator.remaining = 0
            for i in 0..<200 { #expect(table.remove(Key(UInt64(1_000 + i))) == i + 1) }
            for i in 0..<200 { model[Key(UInt64(1_000 + i))] = nil }
            #expect(table.stats.capacity == large, "could not shrink, stayed large")
            #expect(table.entries() == model)
            // Clearing needs no memory at all.
            #expect(table.clear().count == model.count)
            #expect(table.count == 0 && table.stats.capacity == 0)
            allocator.remaining = nil
        }
        #expect(collect { allocator.live == 0 }, "the table freed everything it allocated")
    }

    @Test func mutationInsideTheVisitorIsEBUSY() {
        let table = Table()
        table.put(Key(1), 1)
        table.put(Key(2), 2)
        final class Box { var codes: [Int32] = []; var seen = 0; var raw: OpaquePointer? }
        let box = Box()
        box.raw = table.raw
        let rc = crg_iterate(table.raw, { entry, context in
            let box = Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue()
            var key = crg_key_unnamed(3)
            box.codes.append(crg_put(box.raw, &key, pointer(3), nil))
            box.codes.append(crg_remove(box.raw, &key, nil))
            box.codes.append(crg_clear(box.raw, nil, nil))
            box.codes.append(crg_reserve_locked(box.raw, 100))
            // Reading is allowed.
            var found: UnsafeMutableRawPointer?
            var own = crg_key_unnamed(entry.pointee.type)
            box.codes.append(crg_get(box.raw, &own, &found))
            box.seen += 1
            return box.seen == 1 ? 0 : 42
        }, Unmanaged.passUnretained(box).toOpaque())
        #expect(rc == 42, "the visitor's non-zero result stops the walk and is returned")
        #expect(box.codes == [EBUSY, EBUSY, EBUSY, EBUSY, 0, EBUSY, EBUSY, EBUSY, EBUSY, 0])
        #expect(table.count == 2)
        // And after the walk, mutation works again.
        #expect(table.put(Key(3), 3).rc == 0)
    }

    /// A table with a release function owns its values: replaced, removed,
    /// cleared and destroyed values are all released, once, after collection.
    @Test func aTableOwnsItsValuesWhenGivenARelease() {
        // Releases run on whichever thread collects (other suites' too).
        let released = Locked<[Int]>([])
        var options = crg_options(capacity: 0, mutex: nil, allocator: nil, release: { value, context in
            Unmanaged<Locked<[Int]>>.fromOpaque(context!).takeUnretainedValue().withLock { $0.append(Int(bitPattern: value)) }
        }, release_context: Unmanaged.passUnretained(released).toOpaque())
        var raw: OpaquePointer?
        #expect(crg_create(&raw, &options) == 0)
        for i in 1...100 {
            var key = crg_key_unnamed(UInt64(i))
            #expect(crg_put(raw, &key, pointer(i), nil) == 0)
        }
        var key = crg_key_unnamed(1)
        #expect(crg_put(raw, &key, pointer(1_001), nil) == 0)     // replaces 1
        var two = crg_key_unnamed(2)
        #expect(crg_remove(raw, &two, nil) == 0)                  // removes 2
        #expect(collect { released.withLock { $0.count } == 2 })
        #expect(released.withLock { $0.sorted() } == [1, 2])
        crg_destroy(raw)
        #expect(collect { released.withLock { $0.count } == 101 })
        #expect(released.withLock { $0.sorted() } == [1, 2] + Array(3...100) + [1_001])
    }

    @Test func nameHashIsStableWithinTheProcessAndSensitiveToEveryByte() {
        let a = Array("fred".utf8), b = Array("fred".utf8)
        let ha = a.withUnsafeBytes { crg_name_hash($0.baseAddress, $0.count) }
        let hb = b.withUnsafeBytes { crg_name_hash($0.baseAddress, $0.count) }
        let hc = Array("freD".utf8).withUnsafeBytes { crg_name_hash($0.baseAddress, $0.count) }
        #expect(ha == hb)
        #expect(ha != hc)
        #expect(crg_name_hash(nil, 0) == [UInt8]().withUnsafeBytes { crg_name_hash($0.baseAddress, 0) })
    }
}
