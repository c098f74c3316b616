import CRegistry
import CRegistry.Testing
import ResolverTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// Containers: a table and its children, searched depth first (crg_container.h).
@Suite struct ContainerTests {
    final class Container: @unchecked Sendable {
        let raw: OpaquePointer
        init() {
            var raw: OpaquePointer?
            precondition(crg_container_create(&raw, nil) == 0)
            self.raw = raw!
        }
        deinit {
            crg_container_destroy(raw)
            _ = crg_collect()
        }
        func put(_ type: UInt64, _ value: Int) {
            var key = crg_key_unnamed(type)
            precondition(crg_put(crg_container_table(raw), &key, pointer(value), nil) == 0)
        }
        func find(_ type: UInt64) -> Int? {
            var key = crg_key_unnamed(type)
            var value: UnsafeMutableRawPointer?
            crg_read_begin()
            defer { crg_read_end() }
            return crg_container_find(raw, &key, &value) == 0 ? integer(value) : nil
        }
        func add(_ child: Container) -> Int32 {
            let mutex = crg_table_mutex(crg_container_table(raw))!
            crg_mutex_lock(mutex)
            defer { crg_mutex_unlock(mutex) }
            return crg_container_add_child_locked(raw, child.raw)
        }
    }

    @Test func itselfFirstThenChildrenInOrderDepthFirst() {
        let root = Container(), a = Container(), b = Container(), aChild = Container()
        #expect(root.add(a) == 0)
        #expect(root.add(b) == 0)
        #expect(a.add(aChild) == 0)
        root.put(1, 10)
        a.put(1, 11)
        a.put(2, 21)
        b.put(2, 22)
        b.put(3, 32)
        aChild.put(3, 43)
        aChild.put(4, 44)
        #expect(root.find(1) == 10, "the container itself first")
        #expect(root.find(2) == 21, "then the first child")
        #expect(root.find(3) == 43, "depth first: the first child's child before the second child")
        #expect(root.find(4) == 44)
        #expect(root.find(5) == nil)
        #expect(b.find(1) == nil, "a child does not see its parent")
    }

    @Test func aContainerCannotBecomeItsOwnDescendant() {
        let a = Container(), b = Container(), c = Container()
        #expect(a.add(a) == ELOOP)
        #expect(a.add(b) == 0)
        #expect(b.add(c) == 0)
        #expect(c.add(a) == ELOOP)
        #expect(b.add(a) == ELOOP)
        a.put(9, 9)
        #expect(c.find(9) == nil, "the refused link was not made")
        // A shared child (a diamond, not a cycle) is fine.
        #expect(a.add(c) == 0)
    }

    /// Children added while readers walk the list: readers see the old list
    /// or the new one, never a torn one.
    @Test func childrenAddedWhileReading() {
        let root = Container()
        let children = (0..<200).map { index -> Container in
            let child = Container()
            child.put(UInt64(1_000 + index), index + 1)
            return child
        }
        let rootRaw = UInt(bitPattern: root.raw)
        let wrong = Counter()
        runOnThreads(3) { thread in
            if thread == 0 {
                for child in children { _ = root.add(child) }
            } else {
                let raw = OpaquePointer(bitPattern: rootRaw)!
                for round in 0..<2_000 {
                    let index = round % 200
                    var key = crg_key_unnamed(UInt64(1_000 + index))
                    var value: UnsafeMutableRawPointer?
                    crg_read_begin()
                    if crg_container_find(raw, &key, &value) == 0 && integer(value) != index + 1 {
                        wrong.value.add(1, ordering: .relaxed)
                    }
                    crg_read_end()
                }
            }
        }
        #expect(wrong.value.load(ordering: .relaxed) == 0)
        for (index, _) in children.enumerated() { #expect(root.find(UInt64(1_000 + index)) == index + 1) }
    }
}
