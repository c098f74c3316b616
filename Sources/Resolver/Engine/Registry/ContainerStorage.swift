import CRegistry

/// An allocator for a container's C tables (tests inject failing ones).
typealias TableAllocator = UnsafePointer<crg_allocator>

extension Resolver {
    /// The fields the resolve path reads without a lock.
    @frozen @usableFromInline
    struct Fields {
        @usableFromInline let cells = AtomicCells(count: 2)

        /// The scope behind `cache` (`cacheScope` owns it), nil until needed.
        @inlinable var cache: AtomicReference<ResolverScope> { cells.reference(0) }
        /// The children (owned), for readers that walk them (a list's parts).
        var children: AtomicReference<ChildList> { cells.reference(1) }
    }

    /// The children as published: replaced whole by `add(child:)`.
    final class ChildList {
        let containers: [Resolver]
        init(_ containers: [Resolver]) { self.containers = containers }
    }

    /// Publishes `children` for readers, retiring the list it replaces.
    func publishChildrenLocked() {
        registry.assertLocked()
        if let replaced = fields.children.exchange(.retaining(ChildList(children))) { retire(owned: replaced) }
    }

    /// The deinit's work: threads' caches key entries by container address,
    /// which a later container may take.
    func releaseStorage() {
        ThreadCache.invalidate()
        storage.destroy()
        if let cacheScope { retire(cacheScope) }
        if let children = fields.children.load() { retire(owned: children) }
        fields.cells.deallocate()
        collectRetired()
    }

    /// Stores `registration` (of the type `typeID`) in this container's own
    /// table, retiring the one it replaces and recording that for `verify()`
    /// (unless `recordingReplacement` is false: a list grown by an element).
    /// Not generic, so registering instantiates no metadata here (B2).
    @usableFromInline
    func putLocked(_ registration: AnyObject, typeID: UInt64, name: Resolver.Name?,
                   recordingReplacement: Bool = true) -> RegistryError? {
        registry.assertLocked()
        let stored = UncheckedReference<AnyObject>.retaining(registration)
        return withRegistryKey(typeID: typeID, name) { key in
            // Found (and retained) before the put: once retired, another
            // thread's collection may release it before the put returns.
            let replaced = recordingReplacement ? storage.table.findLocked(key)?.object : nil
            let failure = storage.table.putLocked(key, stored)
            if failure != nil {
                stored.release()
            } else if let old = replaced as? RegistrationDescribing, let new = registration as? RegistrationDescribing {
                recordReplacementLocked(of: old, by: new, typeID: typeID, name: name)
            }
            return failure
        }
    }

    /// The scope behind `container`'s `cache`, made (B3).
    @usableFromInline @inline(never)
    static func makeCacheScope(_ container: UncheckedReference<Resolver>) -> UncheckedReference<ResolverScope> {
        let resolver = container.object
        return UncheckedReference(registry.write { resolver.cacheScopeLocked })
    }

    /// This container's own registrations (not its children's) and keys.
    func ownEntriesLocked() -> [(typeID: UInt64, name: String?, registration: AnyObject)] {
        registry.assertLocked()
        return storage.table.entriesLocked().map { ($0.typeID, $0.name, $0.value.object) }
    }
}
