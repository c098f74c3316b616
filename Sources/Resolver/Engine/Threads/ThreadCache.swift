import CRegistry

/// This thread's cache of what resolves found (`crg_tcache.h`): for a
/// (container, type, name) key, a cached instance's value (as its scope's
/// table stores it) or the registration, so a transient or graph resolve
/// skips the table probe too. Valid while the version word is (DESIGN.md, T1).
@usableFromInline
enum ThreadCache {
    /// What a probe found: an instance, or a registration (the low bit set;
    /// both are at least 2-byte aligned).
    @frozen @usableFromInline
    struct Hit {
        @usableFromInline let value: UnsafeMutableRawPointer
        @inlinable @inline(__always) init(_ value: UnsafeMutableRawPointer) { self.value = value }

        @inlinable @inline(__always)
        var instance: UncheckedReference<AnyObject>? {
            UInt(bitPattern: value) & 1 == 0 ? UncheckedReference(opaque: value) : nil
        }

        /// The registration, when the hit is not an `instance`.
        @inlinable @inline(__always)
        var registration: UncheckedReference<AnyObject> {
            UncheckedReference(opaque: UnsafeMutableRawPointer(bitPattern: UInt(bitPattern: value) & ~1).unsafelyUnwrapped)
        }
    }

    @inlinable @inline(__always)
    static func find(_ container: UncheckedReference<Resolver>, _ typeID: UInt64, _ name: UnsafeRawPointer?,
                     _ nameHash: UInt64, _ section: borrowing ReadSection) -> Hit? {
        crg_tcache_find(container.opaque, typeID, name, nameHash).map(Hit.init)
    }

    /// Remembers an instance's value (or below, a registration) for `key` from
    /// `container`, if nothing was written since this thread's last probe.
    @inlinable @inline(__always)
    static func fill(_ container: UncheckedReference<Resolver>, _ key: RegistryKey,
                     instance: UncheckedReference<AnyObject>, _ section: borrowing ReadSection) {
        crg_tcache_fill(container.opaque, key.typeID, key.nameBytes, key.nameHash, instance.opaque)
    }

    @inlinable @inline(__always)
    static func fill(_ container: UncheckedReference<Resolver>, _ key: RegistryKey,
                     registration: UncheckedReference<AnyObject>, _ section: borrowing ReadSection) {
        let tagged = UnsafeMutableRawPointer(bitPattern: UInt(bitPattern: registration.opaque) | 1).unsafelyUnwrapped
        crg_tcache_fill(container.opaque, key.typeID, key.nameBytes, key.nameHash, tagged)
    }

    /// Makes every thread's entries stale (an entry leaves a table, or a
    /// container or scope goes and another may take its address).
    static func invalidate() { crg_tcache_invalidate() }

    /// The version word (odd while a write is under way; T1): a walk in a read
    /// section saw one moment if it was even before and is unchanged after.
    static func version() -> UInt64 { crg_tcache_version_load() }

    static func isUnchanged(since version: UInt64) -> Bool { crg_tcache_version_unchanged(version) }
}
