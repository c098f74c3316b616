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
        fields.scope.store(UncheckedReference(scope))
        fields.memo.forget()
    }

    /// `resolve(resolver:args:)`: through the scope, from `resolver`.
    func resolveThroughScope(_ resolver: Resolver, _ args: Any?) -> Service? {
        withCarriedArguments(args) { arguments in
            withRegistryKey(Service.self, name) { key in
                if Published.detours.load() != 0 {
                    GraphRecorder.recordResolve(of: Service.self, key)
                }
                return ReadSection.run { section in
                    let request = ResolveRequest(key, from: UncheckedReference(resolver), arguments)
                    if handMadeCacheName != nil {
                        return resolveHandMade(request, resolver, section)
                    }
                    let registration = UncheckedReference(self)
                    let scope = ResolverRegistration.scope(registration, from: request.container, section)
                    return ResolverRegistration.keptOrMade(registration, through: scope, request, section)
                }
            }
        }
    }

    /// `resolve(resolver:args:)` of a registration with a `handMadeCacheName`:
    /// the scope is chosen as for every registration (the container's cache
    /// for `.container`, a sandbox's copy where the container isolates its
    /// scopes); a caching scope keeps the instance under the hand-made key.
    private func resolveHandMade(_ request: ResolveRequest, _ resolver: Resolver, _ section: borrowing ReadSection) -> Service? {
        let scope = ResolverRegistration.scope(UncheckedReference(self), from: request.container, section)
        guard scope.read({ $0.kind.keepsInstances }) else {
            return ResolverRegistration.makeOutOfLine(UncheckedReference(self), through: scope, request, section)
        }
        return scope.object.resolveHandMade(self, resolver, request.arguments, section)
    }

    /// `instantiate(resolver:args:)`: a new instance from the current factory.
    func produce(_ resolver: Resolver, _ args: Any?) -> Service? {
        withCarriedArguments(args) { arguments in
            ReadSection.run { section in
                ResolverRegistration.produce(UncheckedReference(self), ResolutionContext.currentState,
                                             UncheckedReference(resolver), arguments, section)
            }
        }
    }
}
