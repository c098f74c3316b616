import CRegistry
import CRegistry.Testing
import ResolverTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A key as the tests think of it: a type identity and an optional name.
/// `forcedHash`, when set, replaces the real name hash so that tests can make
/// any number of distinct keys collide completely.
struct Key: Hashable, CustomStringConvertible {
    var type: UInt64
    var name: [UInt8]?
    var forcedHash: UInt64? = nil

    init(_ type: UInt64, _ name: [UInt8]? = nil, forcedHash: UInt64? = nil) {
        self.type = type
        self.name = name
        self.forcedHash = forcedHash
    }

    init(_ type: UInt64, _ name: String) {
        self.init(type, Array(name.utf8))
    }

    var description: String {
        guard let name else { return "(\(type), no name)" }
        return "(\(type), \(name.count) bytes)"
    }

    /// Calls `body` with the C key for `self`.
    func withCKey<R>(_ body: (UnsafeMutablePointer<crg_key>) -> R) -> R {
        guard let name else {
            var key = crg_key_unnamed(type)
            return body(&key)
        }
        return name.withUnsafeBytes { bytes in
            let hash = forcedHash ?? crg_name_hash(bytes.baseAddress, bytes.count)
            var key = crg_key_named(type, bytes.baseAddress, bytes.count, hash)
            return body(&key)
        }
    }
}

/// Values are opaque non-NULL pointers to the table; the tests use small
/// integers as their bit patterns.
func pointer(_ value: Int) -> UnsafeMutableRawPointer {
    UnsafeMutableRawPointer(bitPattern: value)!
}

func integer(_ pointer: UnsafeMutableRawPointer?) -> Int? {
    pointer.map { Int(bitPattern: $0) }
}

/// Owns one crg_table for a test. Its values are small integers owned by the
/// test (no release function), so they come back from put, remove and clear.
final class Table: @unchecked Sendable {
    let raw: OpaquePointer

    init(capacity: Int = 0, mutex: OpaquePointer? = nil, allocator: UnsafePointer<crg_allocator>? = nil) {
        var options = crg_options(capacity: capacity, mutex: mutex, allocator: allocator, release: nil, release_context: nil)
        var table: OpaquePointer?
        let rc = crg_create(&table, &options)
        precondition(rc == 0 && table != nil, "crg_create failed: \(rc)")
        raw = table!
    }

    deinit {
        crg_destroy(raw)
        _ = crg_collect()
    }

    /// Returns the error code and the value that was replaced.
    @discardableResult
    func put(_ key: Key, _ value: Int) -> (rc: Int32, previous: Int?) {
        var previous: UnsafeMutableRawPointer? = pointer(-1)
        let rc = key.withCKey { crg_put(raw, $0, pointer(value), &previous) }
        return (rc, integer(previous))
    }

    func get(_ key: Key) -> Int? {
        var value: UnsafeMutableRawPointer?
        let rc = key.withCKey { crg_get(raw, $0, &value) }
        precondition(rc == 0 || rc == ENOENT, "crg_get: \(rc)")
        return rc == 0 ? integer(value) : nil
    }

    @discardableResult
    func remove(_ key: Key) -> Int? {
        var value: UnsafeMutableRawPointer?
        let rc = key.withCKey { crg_remove(raw, $0, &value) }
        precondition(rc == 0 || rc == ENOENT, "crg_remove: \(rc)")
        return rc == 0 ? integer(value) : nil
    }

    /// `crg_reserve_locked`, holding the table's mutex.
    func reserve(_ count: Int) -> Int32 {
        let mutex = crg_table_mutex(raw)!
        crg_mutex_lock(mutex)
        defer { crg_mutex_unlock(mutex) }
        return crg_reserve_locked(raw, count)
    }

    /// `crg_count`, checked against `crg_count_locked` under the mutex.
    var count: Int {
        var count = 0
        precondition(crg_count(raw, &count) == 0)
        let mutex = crg_table_mutex(raw)!
        crg_mutex_lock(mutex)
        defer { crg_mutex_unlock(mutex) }
        precondition(crg_count_locked(raw) == count, "crg_count_locked disagrees with crg_count")
        return count
    }

    var stats: crg_stats {
        var stats = crg_stats()
        precondition(crg_get_stats(raw, &stats) == 0)
        return stats
    }

    /// `crg_check_invariants`: 0 when every layout invariant holds, else the
    /// broken `crg_invariant` and the slot where it was found.
    var invariants: (broken: Int32, slot: Int) {
        var slot = 0
        let broken = crg_check_invariants(raw, &slot)
        return (broken, slot)
    }

    /// Clears the table and returns the values it handed back.
    func clear() -> [Int] {
        var dropped: [Int] = []
        let rc = withUnsafeMutablePointer(to: &dropped) { list in
            crg_clear(raw, { value, context in
                context!.assumingMemoryBound(to: [Int].self).pointee.append(Int(bitPattern: value))
            }, list)
        }
        precondition(rc == 0)
        return dropped
    }

    /// Every entry, as (key, value) pairs.
    func entries() -> [Key: Int] {
        var result: [Key: Int] = [:]
        let rc = withUnsafeMutablePointer(to: &result) { result in
            crg_iterate(raw, { entry, context in
                let entry = entry.pointee
                let name = entry.has_name ? Array(UnsafeBufferPointer(start: entry.name, count: entry.name_len)) : nil
                context!.assumingMemoryBound(to: [Key: Int].self).pointee[Key(entry.type, name)] = Int(bitPattern: entry.value)
                return 0
            }, result)
        }
        precondition(rc == 0)
        return result
    }
}

/// Runs `crg_collect()` until `condition` holds, for at most ten seconds.
/// Retired memory is released once no read section open at retirement is
/// still open, and tests in other suites may be inside read sections at any
/// moment: a release can be delayed, never skipped.
func collect(until condition: () -> Bool) -> Bool {
    for _ in 0..<10_000 {
        _ = crg_collect()
        if condition() { return true }
        usleep(1_000)
    }
    return condition()
}

/// SplitMix64: a small deterministic generator, so a failing random test
/// fails the same way every time.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
