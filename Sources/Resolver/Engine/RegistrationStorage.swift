// What a registration publishes for the resolve path.

extension ResolverRegistration {
    /// The fields the resolve path reads without a lock, each published with
    /// release stores and read with acquire loads.
    @frozen
    @usableFromInline
    struct Fields {
        @usableFromInline let cells = AtomicCells(count: 3, words: 1)

        /// The scope, unretained (`scopeStorage` owns it).
        @inlinable var scope: AtomicReference<ResolverScope> { cells.reference(0) }
        /// The `FactoryBox` from `update(factory:)` (owned), or nil while the
        /// registered factory is in use.
        @inlinable var replacement: AtomicReference<FactoryBox> { cells.reference(1) }
        /// Where its cached instance is (`CacheMemo`).
        @inlinable var memo: CacheMemo { CacheMemo(entry: cells.reference(2), generation: cells.word(0, after: 3)) }

        /// Gives up what the fields own (the registration's deinit: no reader
        /// can reach it). Written without the service type (no generic
        /// code runs in a deinit of the library's unspecialized code).
        func release() {
            cells.releaseObject(at: 1)
            cells.deallocate()
        }
    }

    /// The factory `update(factory:)` installed, if any. The mutex must be held.
    var installedFactoryLocked: ResolverFactoryAnyArguments<Service>? {
        registry.assertLocked()
        return fields.replacement.load()?.read { $0.factory }
    }

    /// Publishes `factory` as the one to call; the one it replaces is
    /// retired. The mutex must be held.
    func installFactoryLocked(_ factory: @escaping ResolverFactoryAnyArguments<Service>) {
        registry.assertLocked()
        if let replaced = fields.replacement.exchange(.retaining(FactoryBox(factory))) {
            retire(owned: replaced)
        }
    }

    /// Publishes `scope` (which `scopeStorage` holds) and drops the memo of
    /// the old scope's entry. The mutex must be held.
    func publishScopeLocked(_ scope: ResolverScope) {
        registry.assertLocked()
        fields.scope.store(UnownedReference(scope))
        fields.memo.forget()
    }

    /// The isolation of `registration`'s factory.
    @inlinable
    @inline(__always)
    static func isolation(_ registration: UnownedReference<ResolverRegistration>) -> FactoryIsolation {
        registration.read { $0.isolation }
    }

    /// `resolve(resolver:args:)`: through the scope, from `resolver`.
    func resolveThroughScope(_ resolver: Resolver, _ args: Any?) -> Service? {
        withCarriedArguments(args) { arguments in
            withRegistryKey(Service.self, name) { key in
                if Published.detours.load() != 0 {
                    GraphRecorder.recordResolve(of: Service.self, key)
                }
                return ReadSection.run { section in
                    let request = ResolveRequest(key, from: UnownedReference(resolver), arguments)
                    if handMadeCacheName != nil {
                        return resolveHandMade(request, resolver, section)
                    }
                    return ResolverRegistration.resolve(UnownedReference(self), request, section)
                }
            }
        }
    }

    /// `resolve(resolver:args:)` of a registration with a `handMadeCacheName`:
    /// the scope is chosen as for every registration (the container's cache
    /// for `.container`, a sandbox's copy where the container isolates its
    /// scopes); a caching scope keeps the instance under the hand-made key.
    private func resolveHandMade(_ request: ResolveRequest, _ resolver: Resolver, _ section: borrowing ReadSection) -> Service? {
        let scope = ResolverRegistration.effectiveScope(UnownedReference(self), request.container, section)
        guard scope.read({ $0.kind.keepsInstances }) else {
            return ResolverRegistration.resolve(UnownedReference(self), through: scope, request, section)
        }
        return scope.object.resolveHandMade(self, resolver, request.arguments, section)
    }

    /// `instantiate(resolver:args:)`: a new instance from the current factory.
    func produce(_ resolver: Resolver, _ args: Any?) -> Service? {
        withCarriedArguments(args) { arguments in
            withRegistryKey(Service.self, name) { key in
                ReadSection.run { section in
                    ResolverRegistration.produce(UnownedReference(self), ResolutionContext.currentState,
                                                 ResolveRequest(key, from: UnownedReference(resolver), arguments), section)
                }
            }
        }
    }
}

/// What a registration remembers of its cached instance: the entry its
/// scope's table held for its key, and the scope's generation when it was
/// found there (DESIGN.md, S3). While the scope's generation is unchanged the
/// entry is still in the table (entries leave only with a new generation), so
/// a resolve can skip the table. No two scopes ever use the same generation
/// (each starts at a base of its own), so the generation also says which
/// scope the entry is in.
///
/// Two words a resolve reads without a lock, written by any resolve that
/// renews the memo: a renewal first claims the memo (its generation word
/// becomes `claimed`, odd, which no reader accepts), then stores the entry,
/// then the generation. A reader reads the generation, the entry, and the
/// generation again: the same value twice means the entry is the one stored
/// with it. A resolve that finds the memo claimed leaves it to the claimant.
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

    /// The generation word of a memo being renewed.
    @inlinable
    static var claimed: UInt64 { 1 }

    /// The entry, if the memo was made in `generation` (the scope's, read
    /// by the caller, even).
    @inlinable
    @inline(__always)
    func entry(madeIn generation: UInt64) -> UnownedReference<AnyObject>? {
        guard self.generation.load() == generation, let entry = entry.load(),
              self.generation.load() == generation else {
            return nil
        }
        return entry
    }

    /// Remembers `entry`, found in the table in `generation` (even), unless
    /// another resolve is renewing the memo.
    @usableFromInline
    @inline(never)
    func renew(_ entry: UnownedReference<AnyObject>, madeIn generation: UInt64) {
        let current = self.generation.load()
        guard current != CacheMemo.claimed,
              self.generation.compareExchange(expected: current, desired: CacheMemo.claimed) else {
            return
        }
        self.entry.store(entry)
        self.generation.store(generation)
    }

    /// Forgets the entry (the registration's scope changed). The mutex must
    /// be held.
    func forget() {
        generation.store(0)
    }
}
