import CRegistry

/// A C table (`crg_table.h`) of objects under registry keys, owning one
/// reference to each value (retired when it leaves). Readers search it in a
/// read section; writers change it holding the registry mutex.
@frozen @usableFromInline
struct InstanceTable: @unchecked Sendable {
    typealias Entry = (typeID: UInt64, name: String?, value: UncheckedReference<AnyObject>)
    @usableFromInline let raw: OpaquePointer

    /// An empty table guarded by `mutex` (`what`: for the out-of-memory stop).
    static func make(mutex: Mutex, _ what: String) -> InstanceTable {
        InstanceTable(raw: created(what, mutex: mutex, allocator: nil, crg_create))
    }
    @usableFromInline init(raw: OpaquePointer) { self.raw = raw }

    @inlinable @inline(__always)
    func find(_ key: RegistryKey, _ section: borrowing ReadSection) -> UncheckedReference<AnyObject>? { findValue(key) }
    func findLocked(_ key: RegistryKey) -> UncheckedReference<AnyObject>? { findValue(key) }

    @inlinable @inline(__always)
    func findValue(_ key: RegistryKey) -> UncheckedReference<AnyObject>? {
        var value: UnsafeMutableRawPointer?
        guard crg_find(raw, key.pointer, &value) == 0, let value else { return nil }
        return UncheckedReference(opaque: value)
    }

    /// Puts `value`, owned, retiring what it replaces; if it fails, `value` is
    /// still the caller's.
    func putLocked(_ key: RegistryKey, _ value: UncheckedReference<AnyObject>) -> RegistryError? {
        RegistryError(crg_put_locked(raw, key.pointer, value.opaque, nil))
    }

    /// Takes the value under `key` out (retired); fails out of memory only
    /// (retiring needs a node).
    func removeLocked(_ key: RegistryKey) -> RegistryError? {
        guard findLocked(key) != nil else { return nil }
        return RegistryError(crg_remove_locked(raw, key.pointer, nil))
    }

    /// Takes every value out (retired).
    func clearLocked() { _ = crg_clear_locked(raw, nil, nil) }
    /// How many keys it holds.
    var countLocked: Int { crg_count_locked(raw) }
    /// Makes room for `count` keys in all, for a batch of puts: the array
    /// grows once, here. Out of memory, it is as it was (it grows as puts need).
    func reserveLocked(_ count: Int) { _ = crg_reserve_locked(raw, count) }
    /// Frees the table; its values are retired.
    func destroy() { crg_destroy(raw) }

    /// Every entry's key (type identity, name) and value.
    func entriesLocked() -> [Entry] {
        var entries: [Entry] = []
        withUnsafeMutablePointer(to: &entries) { list in
            _ = crg_iterate_locked(raw, { entry, context in
                let entry = entry.pointee
                let name = entry.has_name
                    ? String(decoding: UnsafeBufferPointer(start: entry.name, count: entry.name_len), as: UTF8.self) : nil
                context!.assumingMemoryBound(to: [Entry].self).pointee
                    .append((entry.type, name, UncheckedReference(opaque: entry.value)))
                return 0
            }, list)
        }
        return entries
    }
}

/// A container's C side (`crg_container.h`): its table of registrations and
/// the children searched after it.
@frozen @usableFromInline
struct ContainerTable: @unchecked Sendable {
    @usableFromInline let raw: OpaquePointer

    /// An empty container guarded by `mutex` (`allocator`: tests).
    static func make(mutex: Mutex, allocator: UnsafePointer<crg_allocator>?) -> ContainerTable {
        ContainerTable(raw: created("a container", mutex: mutex, allocator: allocator, crg_container_create))
    }
    @usableFromInline init(raw: OpaquePointer) { self.raw = raw }

    /// The registration under `key` here or in a child (depth first).
    @inlinable @inline(__always)
    func find(_ key: RegistryKey, _ section: borrowing ReadSection) -> UncheckedReference<AnyObject>? {
        var found: UnsafeMutableRawPointer?
        guard crg_container_find(raw, key.pointer, &found) == 0 else { return nil }
        return UncheckedReference(opaque: found.unsafelyUnwrapped)
    }

    /// This container's own table.
    var table: InstanceTable { InstanceTable(raw: crg_container_table(raw)) }
    /// Frees the container; its registrations are retired.
    func destroy() { crg_container_destroy(raw) }

    /// Adds `child` to search after the earlier ones.
    func addChildLocked(_ child: ContainerTable) -> RegistryError? {
        RegistryError(crg_container_add_child_locked(raw, child.raw))
    }
}

/// Why the C core refused a write (the table or container is as it was); its
/// description ends a message's "could not …: ".
@usableFromInline
enum RegistryError: Error, Equatable, CustomStringConvertible {
    case wouldLoop // the child added would have its parent among its descendants
    case outOfMemory(Int32) // ENOMEM: the only other code these writes return

    /// The error of the C result `rc`; nil for 0.
    init?(_ rc: Int32) {
        guard rc != 0 else { return nil }
        self = rc == ELOOP ? .wouldLoop : .outOfMemory(rc)
    }

    @usableFromInline var description: String {
        guard case .outOfMemory(let rc) = self else { return "it would make a container its own descendant" }
        return "out of memory (error \(rc))"
    }
}

/// A C table of classes under registry keys, for the life of the process:
/// an `InstanceTable` that does not own its values, which are metatypes
/// (carried as the opaque value it stores, never used as an object), none
/// ever removed. Read and written under the registry mutex.
struct ClassTable: @unchecked Sendable {
    private let table: InstanceTable

    /// An empty table with room for `capacity` classes before it grows.
    static func make(mutex: Mutex, capacity: Int, _ what: String) -> ClassTable {
        ClassTable(table: InstanceTable(raw: created(what, mutex: mutex, allocator: nil, capacity: capacity,
                                                     owning: false, crg_create)))
    }

    func findLocked(_ key: RegistryKey) -> AnyClass? {
        table.findLocked(key).map { unsafeBitCast($0.opaque, to: AnyClass.self) }
    }

    /// Puts `type` under `key`; out of memory, the table is as it was.
    func putLocked(_ key: RegistryKey, _ type: AnyClass) -> RegistryError? {
        table.putLocked(key, UncheckedReference(opaque: unsafeBitCast(type, to: UnsafeMutableRawPointer.self)))
    }
}

/// A C table or container made by `create`, guarded by `mutex`, owning a
/// count of each value (unless `owning` is false); out of memory, the
/// program stops, naming `what`.
private func created(_ what: String, mutex: Mutex, allocator: UnsafePointer<crg_allocator>?, capacity: Int = 0,
                     owning: Bool = true,
                     _ create: (UnsafeMutablePointer<OpaquePointer?>, UnsafePointer<crg_options>) -> Int32) -> OpaquePointer {
    var options = crg_options(capacity: capacity, mutex: mutex.raw, allocator: allocator,
                              release: owning ? releaseRetainedObject : nil, release_context: nil)
    var made: OpaquePointer?
    guard create(&made, &options) == 0, let made else { fatalError("RESOLVER: out of memory creating \(what)") }
    return made
}
