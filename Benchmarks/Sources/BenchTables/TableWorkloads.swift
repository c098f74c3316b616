// Family 1: the C table against Swift's Dictionary, operation by operation.
//
// Every implementation gets the same logical keys, in the same pseudo-random
// order, all computed before any timing:
// - CRegistry: keys stored as compactly as the dictionaries' (8 bytes per
//   unnamed key, like ObjectIdentifier; 24 per named key, like `Key`: type,
//   name hash, and where the name's bytes are), and a `crg_key` built on the
//   stack for each operation, as a resolve does (name hashes computed once, as
//   a `Resolver.Name` does; the key's own hash computed on every lookup, as on
//   every resolve); writes through the `_locked` functions with the table's
//   mutex taken once per batch, lookups through `crg_find` in one read section
//   per batch ("CRegistry"), or through `crg_get`, which enters and leaves a
//   read section per lookup ("CRegistry+section");
// - Dictionary<Key, AnyObject>, Key = (ObjectIdentifier, String?): the same key;
// - Dictionary<ObjectIdentifier, AnyObject>: unnamed keys only.
// (Until the keys were compact, the C side read a 48-byte `crg_key` per
// operation from an array 6 times the size of the dictionaries' key arrays:
// at 100,000 and 1,000,000 keys that stream evicted the table from the caches
// and charged the C table for it alone.)
// Values are one preallocated object (a raw pointer to it for the C table), so
// nothing is allocated in the timed loops except what a table does itself.

import BenchFixtures
import CRegistry
import CRegistry.Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

public enum KeyKind: String, CaseIterable, Sendable {
    case unnamed
    case named
}

public enum TableOp: String, CaseIterable, Sendable {
    case hit = "hit"
    case miss = "miss"
    case insert = "insert"
    case remove = "remove"
}

public enum TableImpl: String, CaseIterable, Sendable {
    case cregistry = "CRegistry"
    case cregistryLocking = "CRegistry+section"
    case dictionaryKey = "Dictionary<Key>"
    case dictionaryObjectIdentifier = "Dictionary<ObjectIdentifier>"

    /// Which implementations run for a key kind and an operation.
    public static func implementations(for kind: KeyKind, op: TableOp) -> [TableImpl] {
        var all: [TableImpl] = [.cregistry]
        if op == .hit { all.append(.cregistryLocking) }
        all.append(.dictionaryKey)
        if kind == .unnamed { all.append(.dictionaryObjectIdentifier) }
        return all
    }
}

public let tableSizes = [16, 1_000, 100_000, 1_000_000]

/// Builds the workload for one (operation, implementation, key kind, size).
public func makeTableWorkload(op: TableOp, impl: TableImpl, kind: KeyKind, size: Int) -> Workload {
    switch impl {
    case .cregistry:
        return TableWorkload<CRegistryAdapter>(op: op, kind: kind, size: size, locking: false)
    case .cregistryLocking:
        return TableWorkload<CRegistryAdapter>(op: op, kind: kind, size: size, locking: true)
    case .dictionaryKey:
        return TableWorkload<DictionaryKeyAdapter>(op: op, kind: kind, size: size, locking: false)
    case .dictionaryObjectIdentifier:
        precondition(kind == .unnamed, "Dictionary<ObjectIdentifier> holds unnamed keys only")
        return TableWorkload<DictionaryObjectIdentifierAdapter>(op: op, kind: kind, size: size, locking: false)
    }
}

// MARK: - Keys

/// The logical key space of one benchmark: indices `0..<present` are the keys the
/// table holds; indices from `present` on are keys it does not hold.
struct KeySpace {
    let kind: KeyKind
    let present: Int

    /// Type identities spaced like metadata records (48 bytes apart).
    @inline(__always)
    static func typeBits(_ index: Int) -> UInt64 {
        0x0000_5555_0000_0000 &+ UInt64(index) &* 48
    }

    func typeBits(_ index: Int) -> UInt64 {
        if kind == .named, index >= present {
            // An absent named key: a type the table holds, under a name it does not.
            return Self.typeBits((index - present) % present)
        }
        return Self.typeBits(index)
    }

    func name(_ index: Int) -> String? {
        guard kind == .named else { return nil }
        return index < present ? "service-\(index)" : "absent-\(index - present)"
    }
}

/// The Dictionary key with the same content as a `crg_key`.
struct Key: Hashable {
    let type: ObjectIdentifier
    let name: String?
}

@inline(__always)
func objectIdentifier(_ bits: UInt64) -> ObjectIdentifier {
    unsafeBitCast(UInt(bits), to: ObjectIdentifier.self)
}

/// The value every table stores.
final class TableValue {}
nonisolated(unsafe) let tableValue = TableValue()
nonisolated(unsafe) let tableValuePointer = UnsafeMutableRawPointer(Unmanaged.passUnretained(tableValue).toOpaque())

/// A named key as the C benchmark keeps it: 24 bytes, the size of `Key`.
struct CNamedKey {
    var type: UInt64
    var nameHash: UInt64
    var nameOffset: UInt32
    var nameLength: UInt32
}

/// Keys for the C table, stored compactly: the types alone for unnamed keys,
/// `CNamedKey`s for named ones, with the names' bytes in one arena in the
/// keys' order (as a front end keeps each name's bytes beside its hash). Each
/// operation builds its `crg_key` on the stack.
final class CKeys {
    let count: Int
    let types: UnsafeMutablePointer<UInt64>?
    let named: UnsafeMutablePointer<CNamedKey>?
    let arena: UnsafeMutablePointer<UInt8>?

    init(_ logical: [Int], _ space: KeySpace) {
        count = logical.count
        guard space.kind == .named else {
            let types = UnsafeMutablePointer<UInt64>.allocate(capacity: max(count, 1))
            for (i, index) in logical.enumerated() { (types + i).initialize(to: space.typeBits(index)) }
            self.types = types
            named = nil
            arena = nil
            return
        }
        var names: [String] = []
        names.reserveCapacity(count)
        var total = 0
        for index in logical {
            let name = space.name(index)!
            total += name.utf8.count
            names.append(name)
        }
        let arena = UnsafeMutablePointer<UInt8>.allocate(capacity: max(total, 1))
        let named = UnsafeMutablePointer<CNamedKey>.allocate(capacity: max(count, 1))
        var offset = 0
        for (i, index) in logical.enumerated() {
            var name = names[i]
            let length = name.withUTF8 { utf8 -> Int in
                (arena + offset).initialize(from: utf8.baseAddress!, count: utf8.count)
                return utf8.count
            }
            let hash = crg_name_hash(UnsafeRawPointer(arena + offset), length)
            (named + i).initialize(to: CNamedKey(type: space.typeBits(index), nameHash: hash,
                                                 nameOffset: UInt32(offset), nameLength: UInt32(length)))
            offset += length
        }
        precondition(offset <= Int(UInt32.max), "names arena too large for 32-bit offsets")
        types = nil
        self.named = named
        self.arena = arena
    }

    /// Calls `body` with the `crg_key` of each key in `range` (hash not yet
    /// computed), built on the stack; one loop per key kind, so the loops
    /// test nothing per key that the dictionaries' loops do not.
    @inline(__always)
    func forEach(_ range: Range<Int>, _ body: (inout crg_key) -> Void) {
        if let types {
            for i in range {
                var key = crg_key_unnamed(types[i])
                body(&key)
            }
        } else if let named, let arena {
            for i in range {
                let stored = named[i]
                var key = crg_key_named(stored.type, UnsafeRawPointer(arena + Int(stored.nameOffset)),
                                        Int(stored.nameLength), stored.nameHash)
                body(&key)
            }
        }
    }

    deinit {
        types?.deallocate()
        named?.deallocate()
        arena?.deallocate()
    }
}

// MARK: - Adapters: one table each, the same operations

protocol TableAdapter: AnyObject {
    associatedtype Keys
    init()
    func makeKeys(_ logical: [Int], _ space: KeySpace) -> Keys
    func insert(_ keys: Keys, _ range: Range<Int>)
    func remove(_ keys: Keys, _ range: Range<Int>)
    /// Looks every key up; returns a checksum that depends on every result.
    func lookup(_ keys: Keys, _ range: Range<Int>) -> UInt
    /// The same, taking the table's lock for each lookup (only the C table has one).
    func lookupLocking(_ keys: Keys, _ range: Range<Int>) -> UInt
    /// Replaces the table with a new, empty one.
    func reset()
}

final class CRegistryAdapter: TableAdapter {
    private var table: OpaquePointer

    init() {
        table = CRegistryAdapter.create()
    }

    private static func create() -> OpaquePointer {
        var created: OpaquePointer?
        let status = crg_create(&created, nil)
        precondition(status == 0, "crg_create failed: \(status)")
        return created!
    }

    deinit {
        crg_destroy(table)
        _ = crg_collect()
    }

    func reset() {
        crg_destroy(table)
        _ = crg_collect()
        table = CRegistryAdapter.create()
    }

    func makeKeys(_ logical: [Int], _ space: KeySpace) -> CKeys { CKeys(logical, space) }

    func insert(_ keys: CKeys, _ range: Range<Int>) {
        let mutex = crg_table_mutex(table)!
        crg_mutex_lock(mutex)
        let table = self.table
        keys.forEach(range) { key in
            let status = crg_put_locked(table, &key, tableValuePointer, nil)
            if status != 0 { fatalError("crg_put_locked failed: \(status)") }
        }
        crg_mutex_unlock(mutex)
    }

    func remove(_ keys: CKeys, _ range: Range<Int>) {
        let mutex = crg_table_mutex(table)!
        crg_mutex_lock(mutex)
        let table = self.table
        keys.forEach(range) { key in
            let status = crg_remove_locked(table, &key, nil)
            if status != 0 { fatalError("crg_remove_locked failed: \(status)") }
        }
        crg_mutex_unlock(mutex)
        _ = crg_collect()
    }

    func lookup(_ keys: CKeys, _ range: Range<Int>) -> UInt {
        crg_read_begin()
        defer { crg_read_end() }
        if let types = keys.types {
            return Self.lookUnnamed(table, types, range)
        }
        return Self.lookNamed(table, keys.named!, keys.arena!, range)
    }

    // One function per key kind, so that each loop is compiled for its kind
    // alone (as each dictionary's loop is for its key type).
    @inline(never)
    private static func lookUnnamed(_ table: OpaquePointer, _ types: UnsafeMutablePointer<UInt64>,
                                    _ range: Range<Int>) -> UInt {
        var checksum: UInt = 0
        var value: UnsafeMutableRawPointer?
        for i in range {
            var key = crg_key_unnamed(types[i])
            checksum &+= crg_find(table, &key, &value) == 0 ? UInt(bitPattern: value) : 1
        }
        return checksum
    }

    @inline(never)
    private static func lookNamed(_ table: OpaquePointer, _ named: UnsafeMutablePointer<CNamedKey>,
                                  _ arena: UnsafeMutablePointer<UInt8>, _ range: Range<Int>) -> UInt {
        var checksum: UInt = 0
        var value: UnsafeMutableRawPointer?
        for i in range {
            let stored = named[i]
            var key = crg_key_named(stored.type, UnsafeRawPointer(arena + Int(stored.nameOffset)),
                                    Int(stored.nameLength), stored.nameHash)
            checksum &+= crg_find(table, &key, &value) == 0 ? UInt(bitPattern: value) : 1
        }
        return checksum
    }

    func lookupLocking(_ keys: CKeys, _ range: Range<Int>) -> UInt {
        var checksum: UInt = 0
        var value: UnsafeMutableRawPointer?
        let table = self.table
        keys.forEach(range) { key in
            if crg_get(table, &key, &value) == 0 {
                checksum &+= UInt(bitPattern: value)
            } else {
                checksum &+= 1
            }
        }
        return checksum
    }
}

/// Swift `Dictionary` from `DictionaryKey` to the shared value; the two
/// adapters below differ only in their key type and how keys are made.
class DictionaryAdapter<DictionaryKey: Hashable> {
    private var table: [DictionaryKey: AnyObject] = [:]

    required init() {}

    func reset() { table = [:] }

    func insert(_ keys: [DictionaryKey], _ range: Range<Int>) {
        keys.withUnsafeBufferPointer { keys in
            for i in range { table[keys[i]] = tableValue }
        }
    }

    func remove(_ keys: [DictionaryKey], _ range: Range<Int>) {
        keys.withUnsafeBufferPointer { keys in
            for i in range {
                if table.removeValue(forKey: keys[i]) == nil { fatalError("remove of an absent key") }
            }
        }
    }

    func lookup(_ keys: [DictionaryKey], _ range: Range<Int>) -> UInt {
        keys.withUnsafeBufferPointer { keys in
            var checksum: UInt = 0
            for i in range {
                if let value = table[keys[i]] {
                    checksum &+= UInt(bitPattern: ObjectIdentifier(value))
                } else {
                    checksum &+= 1
                }
            }
            return checksum
        }
    }

    func lookupLocking(_ keys: [DictionaryKey], _ range: Range<Int>) -> UInt { lookup(keys, range) }
}

/// `Dictionary<Key>`: the same (type identity, name) key as the C table.
final class DictionaryKeyAdapter: DictionaryAdapter<Key>, TableAdapter {
    func makeKeys(_ logical: [Int], _ space: KeySpace) -> [Key] {
        logical.map { Key(type: objectIdentifier(space.typeBits($0)), name: space.name($0)) }
    }
}

/// `Dictionary<ObjectIdentifier>`: unnamed keys only.
final class DictionaryObjectIdentifierAdapter: DictionaryAdapter<ObjectIdentifier>, TableAdapter {
    func makeKeys(_ logical: [Int], _ space: KeySpace) -> [ObjectIdentifier] {
        logical.map { objectIdentifier(space.typeBits($0)) }
    }
}

// MARK: - The workload

/// One table operation at one size.
///
/// - hit:    lookups of present keys, in a pseudo-random order over the whole key set;
/// - miss:   lookups of absent keys, likewise;
/// - insert: 1,000 new keys added to a table holding `size` keys (untimed afterwards:
///           removed again, or for sizes up to 1,000 the table is rebuilt fresh, so
///           every sample starts from the same state and includes the same growth);
/// - remove: 1,000 keys removed from a table holding `size + 1,000` keys (untimed
///           afterwards: put back).
/// Each batch takes the next slice of the precomputed order, so successive samples
/// touch different parts of a large table.
final class TableWorkload<Adapter: TableAdapter>: Workload {
    static var batchSize: Int { 1_000 }

    private let op: TableOp
    private let locking: Bool
    private let adapter = Adapter()
    /// The keys the table holds between batches, in insertion order.
    private let contents: Adapter.Keys
    private let contentsCount: Int
    /// The keys the operation consumes, in order.
    private let stream: Adapter.Keys
    private let streamCount: Int
    private let rebuildEachBatch: Bool
    private var cursor = 0
    private var current: Range<Int> = 0..<0

    init(op: TableOp, kind: KeyKind, size: Int, locking: Bool) {
        self.op = op
        self.locking = locking
        var random = SplitMix64(seed: 0x5EED_0000 &+ UInt64(size))
        let batch = Self.batchSize
        let held = op == .remove ? size + batch : size
        let space = KeySpace(kind: kind, present: held)
        let heldKeys = Array(0..<held)
        var order: [Int]
        switch op {
        case .hit:
            order = []
            while order.count < max(held, 4 * batch) {
                order += heldKeys.shuffled(using: &random)
            }
        case .miss:
            let absent = max(held, 4 * batch)
            order = Array(held..<(held + absent)).shuffled(using: &random)
        case .insert:
            let absent = max(held, batch)
            order = Array(held..<(held + absent)).shuffled(using: &random)
        case .remove:
            order = heldKeys.shuffled(using: &random)
        }
        contents = adapter.makeKeys(heldKeys, space)
        contentsCount = held
        stream = adapter.makeKeys(order, space)
        streamCount = order.count
        rebuildEachBatch = op == .insert && size <= batch
        adapter.insert(contents, 0..<contentsCount)
    }

    private func nextRange(_ n: Int) -> Range<Int> {
        precondition(n <= streamCount, "batch larger than the key stream")
        if cursor + n > streamCount { cursor = 0 }
        defer { cursor += n }
        return cursor..<(cursor + n)
    }

    func prepareBatch() {
        current = nextRange(Self.batchSize)
        if rebuildEachBatch {
            adapter.reset()
            adapter.insert(contents, 0..<contentsCount)
        }
    }

    func runBatch(_ iterations: Int) {
        let range = current.lowerBound..<(current.lowerBound + iterations)
        switch op {
        case .hit, .miss:
            sink(locking ? adapter.lookupLocking(stream, range) : adapter.lookup(stream, range))
        case .insert:
            adapter.insert(stream, range)
        case .remove:
            adapter.remove(stream, range)
        }
        current = range
    }

    func finishBatch() {
        switch op {
        case .hit, .miss:
            break
        case .insert:
            if !rebuildEachBatch { adapter.remove(stream, current) }
        case .remove:
            adapter.insert(stream, current)
        }
    }

    func tearDown() {
        adapter.reset()
    }
}
