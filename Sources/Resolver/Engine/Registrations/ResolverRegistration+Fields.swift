extension ResolverRegistration {
    /// The fields the resolve path reads without a lock (acquire loads of release stores).
    @frozen
    @usableFromInline
    struct Fields {
        /// Carved from a slab that registrations share (`RegistrationCells`).
        @usableFromInline let cells = AtomicCells(carved: RegistrationCells.take())

        /// The scope, unretained (`scopeStorage` owns it).
        @inlinable var scope: AtomicReference<ResolverScope> { cells.reference(0) }
        /// The `FactoryBox` from `update(factory:)` (owned), or nil.
        @inlinable var replacement: AtomicReference<FactoryBox> { cells.reference(1) }
        @inlinable var memo: CacheMemo {
            CacheMemo(entry: cells.reference(2), generation: cells.word(0, after: RegistrationCells.references))
        }

        /// The registration's deinit (no reader can reach it), with no generic code.
        func release() {
            cells.releaseObject(at: 1)
            RegistrationCells.give(cells.base)
        }
    }

    var installedFactoryLocked: ResolverFactoryAnyArguments<Service>? {
        registry.assertLocked()
        return fields.replacement.load()?.read { $0.factory }
    }

    /// Publishes `factory` as the one to call, retiring the one it replaces.
    func installFactoryLocked(_ factory: @escaping ResolverFactoryAnyArguments<Service>) {
        registry.assertLocked()
        if let replaced = fields.replacement.exchange(.retaining(FactoryBox(factory))) {
            retire(owned: replaced)
        }
    }

    /// Publishes `scope` (which `scopeStorage` holds) and forgets the memo.
    func publishScopeLocked(_ scope: ResolverScope) {
        registry.assertLocked()
        fields.scope.store(UncheckedReference(scope))
        fields.memo.forget()
    }
}

/// A registration's memo of its cached instance: the entry its scope's table
/// held and the scope's generation then, two words read without a lock
/// (DESIGN.md, S3, "Caching scopes: the memo and odd generations"). A
/// renewal claims the memo (its generation word odd: `claimed`), stores the
/// entry, then the generation; a reader trusts the entry only between two
/// equal reads of the generation.
@frozen
@usableFromInline
struct CacheMemo {
    @usableFromInline let entry: AtomicReference<AnyObject>
    @usableFromInline let generation: AtomicWord

    @inlinable
    @inline(__always)
    init(entry: AtomicReference<AnyObject>, generation: AtomicWord) {
        self.entry = entry
        self.generation = generation
    }

    @inlinable static var claimed: UInt64 { 1 }

    /// The entry, if the memo was made in `generation` (the scope's, even).
    @inlinable
    @inline(__always)
    func entry(madeIn generation: UInt64) -> UncheckedReference<AnyObject>? {
        guard self.generation.load() == generation, let entry = entry.load(),
              self.generation.load() == generation else {
            return nil
        }
        return entry
    }

    /// Remembers `entry`, found in `generation` (even), unless another
    /// resolve is renewing the memo.
    @usableFromInline
    @inline(never)
    func renew(_ entry: UncheckedReference<AnyObject>, madeIn generation: UInt64) {
        let current = self.generation.load()
        guard current != CacheMemo.claimed,
              self.generation.compareExchange(expected: current, desired: CacheMemo.claimed) else {
            return
        }
        self.entry.store(entry)
        self.generation.store(generation)
    }

    /// Forgets the entry (the registration's scope changed).
    func forget() { generation.store(0) }
}
