import CRegistry

/// The bytes the registry compares for a name and their hash
/// (`crg_name_hash`): an ASCII literal's own, or an `OwnedKeyBytes`'. Plain
/// data: whoever holds one keeps their owner alive.
@frozen @usableFromInline
struct KeyBytes: @unchecked Sendable {
    @usableFromInline let hash: UInt64
    @usableFromInline let start: UnsafeRawPointer
    @usableFromInline let count: Int

    @usableFromInline
    init(hash: UInt64, start: UnsafeRawPointer, count: Int) {
        self.hash = hash
        self.start = start
        self.count = count
    }

    /// `count` bytes of a literal from `start`: nothing copied, the hash
    /// remembered per thread by the literal's address.
    @inlinable
    @inline(__always)
    init(literalAt start: UnsafeRawPointer, count: Int) {
        self.init(hash: crg_name_hash_static(start, count), start: start, count: count)
    }

    /// A string literal's bytes, when it is ASCII and has them: its own key.
    @inlinable
    static func literal(_ value: StaticString) -> KeyBytes? {
        guard value.hasPointerRepresentation && value.isASCII else { return nil }
        return KeyBytes(literalAt: UnsafeRawPointer(value.utf8Start), count: value.utf8CodeUnitCount)
    }

    @inlinable
    func matches(_ other: KeyBytes) -> Bool {
        hash == other.hash && count == other.count
            && (start == other.start || memcmp(start, other.start, count) == 0)
    }

    var text: String { String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self) }
}

/// A copy of a name's key bytes (a `NameStorage`'s), freed with it.
final class OwnedKeyBytes: @unchecked Sendable {
    let bytes: KeyBytes
    private let storage: UnsafeMutableRawPointer

    init(_ text: String) {
        let utf8 = Array(text.utf8)
        let storage = UnsafeMutableRawPointer.allocate(byteCount: max(utf8.count, 1), alignment: 1)
        utf8.withUnsafeBytes { storage.copyMemory(from: $0.baseAddress!, byteCount: utf8.count) }
        self.storage = storage
        bytes = KeyBytes(hash: crg_name_hash(storage, utf8.count), start: UnsafeRawPointer(storage), count: utf8.count)
    }

    deinit { storage.deallocate() }
}

/// The registry's key of a service type and optional name, on the caller's
/// stack for one call (`withRegistryKey`).
@frozen @usableFromInline
struct RegistryKey {
    @usableFromInline let pointer: UnsafeMutablePointer<crg_key>

    @inlinable @inline(__always) init(_ pointer: UnsafeMutablePointer<crg_key>) { self.pointer = pointer }
    /// `ObjectIdentifier(type)` as the registry's type identity.
    @inlinable @inline(__always)
    static func typeID(of type: Any.Type) -> UInt64 { UInt64(UInt(bitPattern: ObjectIdentifier(type))) }
    @inlinable @inline(__always) var typeID: UInt64 { pointer.pointee.type }
    /// The name's bytes (nil when unnamed), which the thread's cache compares
    /// by address.
    @inlinable @inline(__always) var nameBytes: UnsafeRawPointer? { pointer.pointee.name }
    @inlinable @inline(__always) var nameHash: UInt64 { pointer.pointee.name_hash }

    /// The name as messages and graphs show it (a key's as `\.name`).
    var nameText: String? {
        guard pointer.pointee.has_name else { return nil }
        let text = String(decoding: UnsafeRawBufferPointer(start: pointer.pointee.name, count: pointer.pointee.name_len),
                          as: UTF8.self)
        return text.utf8.last == 0 ? "\\." + text.dropLast() : text
    }
}

/// Builds the key of `typeID` and the name `bytes` (nil: unnamed) on the
/// stack and passes it to `body`: the one builder of a lookup key, in Swift
/// because C functions returning a struct are called, not inlined. The caller
/// keeps `bytes` alive to the end of `body` (the resolve path: its `Name`
/// parameter, or a key's literal).
@inlinable @inline(__always)
func withRegistryKey<Result>(_ typeID: UInt64, _ bytes: KeyBytes?, _ body: (RegistryKey) -> Result) -> Result {
    guard let bytes else {
        var key = crg_key(type: typeID, name: nil, name_len: 0, name_hash: 0, hash: 0, has_name: false)
        return body(RegistryKey(&key))
    }
    var key = crg_key(type: typeID, name: bytes.start, name_len: bytes.count, name_hash: bytes.hash, hash: 0,
                      has_name: true)
    return body(RegistryKey(&key))
}

/// The key of `type` and `name`, which is kept alive to the end of `body`.
func withRegistryKey<Result>(_ type: Any.Type, _ name: Resolver.Name?, _ body: (RegistryKey) -> Result) -> Result {
    withExtendedLifetime(name) { withRegistryKey(RegistryKey.typeID(of: type), name?.key, body) }
}

/// The key of `typeID` (a type's, or a key space of its own) and `name`,
/// which is kept alive to the end of `body`.
func withRegistryKey<Result>(typeID: UInt64, _ name: Resolver.Name?, _ body: (RegistryKey) -> Result) -> Result {
    withExtendedLifetime(name) { withRegistryKey(typeID, name?.key, body) }
}

/// `withRegistryKey(typeID:_:_:)` of `owner`, whose key is `bytes`: for
/// `ResolverScope.resolveHandMade` until it calls that one.
func withRegistryKey<Result>(_ typeID: UInt64, _ bytes: KeyBytes, owner: Resolver.Name,
                             _ body: (RegistryKey) -> Result) -> Result {
    withExtendedLifetime(owner) { withRegistryKey(typeID, bytes, body) }
}
