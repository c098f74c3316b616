import CRegistry

/// An allocator for a container's C tables (tests inject failing ones).
typealias TableAllocator = UnsafePointer<crg_allocator>

extension Resolver {
    /// The fields the resolve path reads without a lock.
    @frozen
    @usableFromInline
    struct Fields {
        @usableFromInline let cells = AtomicCells(count: 1)

        /// The scope behind `cache`, unretained (`cacheScope` owns it), or
        /// nil until first needed.
        @inlinable var cache: AtomicReference<ResolverScope> { cells.reference(0) }
    }

    /// The deinit's work. Threads' caches key entries by container address:
    /// one made later at this address must not find this one's. Readers
    /// reach a container only through a reference of their own or a retired
    /// one, so none can be inside it now; its table and cache scope are
    /// retired all the same, and released after unlocking.
    func releaseStorage() {
        ThreadCache.invalidate()
        storage.destroy()
        if let cacheScope {
            retire(cacheScope)
        }
        fields.cells.deallocate()
        collectRetired()
    }

    /// Stores `registration` under its key in this container's own table;
    /// the one it replaces is retired. 0, or an error code (out of memory:
    /// the table is unchanged). The mutex must be held.
    @usableFromInline
    func putLocked<Service>(_ registration: ResolverRegistration<Service>) -> Int32 {
        registry.assertLocked()
        let stored = UnownedReference<AnyObject>.retaining(registration)
        let rc = withRegistryKey(Service.self, registration.name) { storage.table.putLocked($0, stored) }
        if rc != 0 {
            // Never published; the caller holds the registration.
            stored.release()
        }
        return rc
    }

    /// The scope behind `cache` of `container`, made if needed: for the
    /// resolve path, which reads the published field first.
    @usableFromInline
    @inline(never)
    static func makeCacheScope(_ container: UnownedReference<Resolver>) -> UnownedReference<ResolverScope> {
        let resolver = container.object
        return UnownedReference(registry.write { resolver.cacheScopeLocked })
    }

    /// This container's own registrations (not its children's), in no
    /// particular order, with their keys. The mutex must be held.
    func ownEntriesLocked() -> [(typeID: UInt64, name: String?, registration: AnyObject)] {
        registry.assertLocked()
        return storage.table.entriesLocked().map { ($0.typeID, $0.name, $0.value.object) }
    }
}
