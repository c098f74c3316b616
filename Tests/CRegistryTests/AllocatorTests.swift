import CRegistry
import CRegistry.Testing
import ResolverTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every allocation made for a table or a container goes through the
/// allocator in its options (crg_base.h), so a failing allocator reaches each
/// path that allocates: each failure leaves things as they were and leaks
/// nothing, and everything goes back to the allocator once collected.
@Suite struct AllocatorTests {
    /// Values retired by an owning table, recorded from any collecting thread.
    final class Released: @unchecked Sendable {
        let values = Locked<[Int]>([])
        var all: [Int] { values.withLock { $0 } }
        var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
        static let record: crg_release_fn = { value, context in
            Unmanaged<Released>.fromOpaque(context!).takeUnretainedValue().values.withLock {
                $0.append(Int(bitPattern: value))
            }
        }
    }

    static func makeContainer(_ allocator: TestAllocator) -> (rc: Int32, container: OpaquePointer?) {
        var container: OpaquePointer?
        let rc = allocator.withAllocator { raw in
            var options = crg_options(capacity: 0, mutex: nil, allocator: raw, release: nil, release_context: nil)
            return crg_container_create(&container, &options)
        }
        return (rc, container)
    }

    static func find(_ container: OpaquePointer, _ type: UInt64) -> Int? {
        var key = crg_key_unnamed(type)
        var value: UnsafeMutableRawPointer?
        crg_read_begin()
        defer { crg_read_end() }
        return crg_container_find(container, &key, &value) == 0 ? integer(value) : nil
    }

    static func put(_ container: OpaquePointer, _ type: UInt64, _ value: Int) -> Int32 {
        var key = crg_key_unnamed(type)
        return crg_put(crg_container_table(container), &key, pointer(value), nil)
    }

    static func addChild(_ container: OpaquePointer, _ child: OpaquePointer) -> Int32 {
        let mutex = crg_table_mutex(crg_container_table(container))!
        crg_mutex_lock(mutex)
        defer { crg_mutex_unlock(mutex) }
        return crg_container_add_child_locked(container, child)
    }

    /// A container is three allocations from its options' allocator: the
    /// container, its table and the table's mutex. Each failure in turn is
    /// ENOMEM with nothing left behind.
    @Test func containerCreationFailsCleanlyAtEachAllocation() {
        for failAfter in 0..<3 {
            let allocator = TestAllocator()
            allocator.remaining = failAfter
            let (rc, container) = Self.makeContainer(allocator)
            #expect(rc == ENOMEM, "allocation \(failAfter) fails")
            #expect(container == nil)
            #expect(allocator.live == 0, "nothing leaked when allocation \(failAfter) fails")
        }
        let allocator = TestAllocator()
        allocator.remaining = 3
        let (rc, container) = Self.makeContainer(allocator)
        #expect(rc == 0 && container != nil)
        #expect(allocator.live == 3, "the container, its table and the table's mutex")
        crg_container_destroy(container)
        #expect(collect { allocator.live == 0 }, "all three went back to the allocator")
    }

    /// A child list is allocated from the parent's allocator. When that
    /// fails, adding the child is ENOMEM and the old list stays in place.
    @Test func addingAChildWithoutMemoryChangesNothing() {
        let allocator = TestAllocator()
        let root = Self.makeContainer(allocator).container!
        let first = Self.makeContainer(allocator).container!
        let second = Self.makeContainer(allocator).container!
        #expect(Self.put(root, 1, 10) == 0)
        #expect(Self.put(first, 2, 20) == 0)
        #expect(Self.put(second, 3, 30) == 0)
        #expect(Self.addChild(root, first) == 0)

        allocator.remaining = 0
        #expect(Self.addChild(root, second) == ENOMEM)
        allocator.remaining = nil
        #expect(Self.find(root, 1) == 10)
        #expect(Self.find(root, 2) == 20, "the first child is still searched")
        #expect(Self.find(root, 3) == nil, "the second child was not added")

        #expect(Self.addChild(root, second) == 0)
        #expect(Self.find(root, 3) == 30)
        for container in [root, first, second] { crg_container_destroy(container) }
        #expect(collect { allocator.live == 0 }, "containers, tables, mutexes, slots and both child lists went back")
    }

    /// A table that owns its values retires a replaced or removed value
    /// through a node from its allocator, allocated before the table changes:
    /// without memory, replacing and removing are ENOMEM, the table keeps the
    /// old value, and nothing is released.
    @Test func anOwningTableNeedsMemoryToLetAValueGo() {
        let allocator = TestAllocator()
        let released = Released()
        var table: OpaquePointer?
        let created = allocator.withAllocator { raw in
            var options = crg_options(capacity: 0, mutex: nil, allocator: raw, release: Released.record,
                                      release_context: released.context)
            return crg_create(&table, &options)
        }
        #expect(created == 0)
        var one = crg_key_unnamed(1), two = crg_key_unnamed(2)
        #expect(crg_put(table, &one, pointer(11), nil) == 0)
        #expect(crg_put(table, &two, pointer(22), nil) == 0)

        allocator.remaining = 0
        var previous: UnsafeMutableRawPointer? = pointer(77)
        #expect(crg_put(table, &one, pointer(12), &previous) == ENOMEM)
        #expect(integer(previous) == 77, "previous is untouched on error")
        var value: UnsafeMutableRawPointer?
        #expect(crg_remove(table, &two, &value) == ENOMEM)
        allocator.remaining = nil
        var count = 0
        #expect(crg_count(table, &count) == 0 && count == 2)
        #expect(crg_get(table, &one, &value) == 0 && integer(value) == 11)
        #expect(crg_get(table, &two, &value) == 0 && integer(value) == 22)
        for _ in 0..<3 { _ = crg_collect() }
        #expect(released.all.isEmpty, "a failed replace or remove releases nothing")

        #expect(crg_put(table, &one, pointer(12), nil) == 0)
        #expect(crg_remove(table, &two, nil) == 0)
        #expect(collect { released.all.count == 2 })
        #expect(released.all.sorted() == [11, 22])
        crg_destroy(table)
        #expect(collect { released.all.count == 3 })
        #expect(released.all.sorted() == [11, 12, 22])
        #expect(collect { allocator.live == 0 }, "the retirement nodes went back to the allocator too")
    }

    /// crg_retire_with takes its node from the given allocator: without
    /// memory it is ENOMEM, nothing is queued and the release never runs;
    /// otherwise the node is given back before the release runs.
    @Test func retireWithAnAllocator() {
        let allocator = TestAllocator()
        let released = Released()
        allocator.remaining = 0
        let failed = allocator.withAllocator { raw in
            crg_retire_with(raw, pointer(1), Released.record, released.context)
        }
        #expect(failed == ENOMEM)
        allocator.remaining = nil
        for _ in 0..<3 { _ = crg_collect() }
        #expect(released.all.isEmpty, "nothing was queued: the caller still owns the object")
        #expect(allocator.live == 0)

        let queued = allocator.withAllocator { raw in
            crg_retire_with(raw, pointer(2), Released.record, released.context)
        }
        #expect(queued == 0)
        #expect(collect { released.all == [2] })
        #expect(allocator.live == 0, "the node went back to the allocator")
        #expect(crg_retire_with(nil, pointer(3), Released.record, released.context) == 0, "NULL: malloc, as crg_retire")
        #expect(collect { released.all == [2, 3] })
    }
}
