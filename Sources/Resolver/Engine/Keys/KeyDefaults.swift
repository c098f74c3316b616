// Keys' own registrations (DESIGN.md, K1–K3): one per key, made from its
// declaration at its first use through the register funnel and kept until
// `Resolver.reset()`, in a container nobody's lookup reaches, which the
// resolve path searches where a key's lookup finds nothing (step 1).

/// The keys' own registrations.
@usableFromInline
final class KeyDefaults: @unchecked Sendable {
    /// The one table of keys' registrations.
    @usableFromInline static let shared = KeyDefaults()

    /// The registrations, under their keys.
    @usableFromInline let container: Resolver
    /// The keys in the order first used, for `verify()` (registry mutex).
    var records: [any KeyRecordDescribing] = []

    private init() {
        container = Resolver(mutex: registry.mutex)
    }

    /// The registration of the key `key` names, if the key has been used.
    /// Stops when the one found was declared elsewhere (two keys of one type
    /// and name).
    @usableFromInline
    @inline(never)
    static func find(_ key: RegistryKey, declaredAt site: RegistrationSite,
                     _ section: borrowing ReadSection) -> UncheckedReference<AnyObject>? {
        guard let found = shared.container.storage.find(key, section) else {
            return nil
        }
        checkDeclaration(found.object, site, key.nameText ?? "")
        return found
    }

    /// The identity of the key's registration, if it has one.
    @usableFromInline
    @inline(never)
    static func registration<Service>(named name: KeyBytes, of type: Service.Type) -> ObjectIdentifier? {
        withRegistryKey(RegistryKey.typeID(of: Service.self), name) { key in
            ReadSection.run { section in shared.container.storage.find(key, section).map { ObjectIdentifier($0.object) } }
        }
    }


    /// The key's own registration: the one the table holds, else the one
    /// `declaration` declares, made through the register funnel (unless
    /// another thread stores one first).
    @usableFromInline
    @discardableResult
    static func install<Service>(_ declaration: KeyDeclaration, _ service: Service.Type) -> ResolverRegistration<Service> {
        let site = declaration.site
        let found = KeyName.withBytes(site.name) { name in
            withRegistryKey(RegistryKey.typeID(of: Service.self), name) { key in
                ReadSection.run { section in shared.container.storage.find(key, section)?.object }
            }
        }
        if let found {
            checkDeclaration(found, site.place, site.keyPath)
            return UncheckedReference(found).unsafeCast(to: ResolverRegistration<Service>.self).object
        }
        guard declaration.received else {
            fail("RESOLVER: the getter of the key \(site.keyPath) of '\(Service.self)' (declared at \(site.place)) did not make its key there when run again. A key's getter must make its ResolverKey the same way every time, and do nothing else.")
        }
        return Resolver.register(nil, KeyName.registrationName(site), site.place,
                                 declaration.registrationFactory(of: Service.self), false, declaration.arguments,
                                 .keyDeclaration(declaration)).registration
    }

    /// Records a key's registration the funnel stored. The mutex must be held.
    static func recordLocked<Service>(_ registration: ResolverRegistration<Service>, _ declaration: KeyDeclaration) {
        registry.assertLocked()
        shared.records.append(KeyRecord(registration, site: declaration.site, promised: declaration.isPromised))
    }

    /// Whether `registration` is a promised key's own. The mutex must be held.
    static func isPromiseLocked(_ registration: AnyObject) -> Bool {
        registry.assertLocked()
        return shared.records.contains { $0.isPromise && $0.describedRegistration === registration }
    }

    /// Stops when `found`, a key's registration, was made by another
    /// declaration of its type and name.
    static func checkDeclaration(_ found: AnyObject, _ site: RegistrationSite, _ keyPath: String) {
        let describing = found as? RegistrationDescribing
        guard !site.isSameDeclaration(as: describing?.site) else { return }
        let declared = describing?.site
        fail("RESOLVER: two keys \(keyPath) of '\(describing.map { "\($0.serviceType)" } ?? "?")' are declared, at \(declared.map(\.description) ?? "an unknown place") and at \(site). A key is its service type and the name of the property that declares it: rename one of them.")
    }

    /// The keys' registrations `verify()` of `container` resolves when its
    /// lookup reaches `main` (the app's graph): each used key that nothing
    /// `reachable` overrides. The mutex must be held.
    static func unshadowedLocked(besides reachable: [RegistrationDescribing],
                                 from container: Resolver) -> [RegistrationDescribing] {
        registry.assertLocked()
        guard container.reachesLocked(registry.main) else {
            return []
        }
        let found = Set(reachable.map(\.graphNode))
        return shared.records.filter { !found.contains($0.graphNode) }.map { $0 as RegistrationDescribing }
    }

    /// `Resolver.reset()` forgets the keys' registrations (K3). The mutex
    /// must be held.
    static func resetLocked() {
        registry.assertLocked()
        shared.container.storage.table.clearLocked()
        for record in shared.records {
            retire(record)
        }
        shared.records = []
    }
}

extension Resolver {
    /// The key's own registration, made from the declaration its getter
    /// gives if it has none yet (the key path applied where the caller wrote
    /// it, so the compiler calls the getter directly).
    @inlinable
    @discardableResult
    static func declareKey<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                  declaredAt site: KeySite) -> ResolverRegistration<Service> {
        let declaration = KeyDeclaring.declaration(of: site) {
            _ = ResolverKeys()[keyPath: key]
        }
        return KeyDefaults.install(declaration, Service.self)
    }

    /// `register(\.key) { … }` in `container` (nil: the task's root), with the
    /// key's scope: the funnel drops the instances that scope keeps there.
    @inlinable
    static func overrideKey<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                   _ factory: ResolverRegistration<Service>.Factory,
                                                   in container: Resolver?, _ site: RegistrationSite)
        -> ResolverOptions<Service> {
        let own = declareKey(key, declaredAt: ResolverKeys()[keyPath: key].site)
        return register(container, own.name, site, factory, false, ArgumentList.of(repeat (each Argument).self),
                        .keyOverride(own.scope))
    }

    /// Makes the key's registration if it has none yet (a property wrapper
    /// mentions it, so `verify()` can list a promise).
    @inlinable
    static func mentionKey<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>) {
        let site = ResolverKeys()[keyPath: key].site
        if KeyName.withBytes(site.name, { KeyDefaults.registration(named: $0, of: Service.self) == nil }) {
            declareKey(key, declaredAt: site)
        }
    }


    /// `reset(\.key)` from `container`: removes the override in its own table
    /// (if `removingOverride`) and drops the key's instances that the
    /// override's scope, the scope of what the key resolves to from there
    /// now, and `scope` keep as seen from the container.
    static func resetKey<Service>(_ name: Resolver.Name, _ type: Service.Type, in container: Resolver,
                                  removingOverride: Bool, also scope: ResolverScope? = nil) {
        registry.write {
            withRegistryKey(Service.self, name) { key in
                // The scope named is the one reset, as it is; the key's own
                // scopes as they stand for resolves from `container`.
                scope?.resetEntryLocked(Service.self, name: name)
                var scopes: [ResolverScope] = []
                let table = container.storage.table
                if removingOverride, let override = table.findLocked(key) {
                    scopes.append(override.unsafeCast(to: ResolverRegistration<Service>.self).read { $0.scopeStorage })
                    if table.removeLocked(key) != nil {
                        registry.reportRecoverable("RESOLVER: could not remove the override of the key \(name.rawValue) of '\(Service.self)': out of memory.")
                    }
                }
                let found = ReadSection.run { section in
                    (container.storage.find(key, section) ?? KeyDefaults.shared.container.storage.find(key, section))?.object
                }
                if let found {
                    scopes.append(UncheckedReference(found).unsafeCast(to: ResolverRegistration<Service>.self).read { $0.scopeStorage })
                }
                for scope in scopes {
                    scope.dropInstancesLocked(of: Service.self, name, from: container)
                }
            }
        }
    }

    /// Whether a lookup from this container reaches `container` (itself or
    /// a child, depth first). The mutex must be held.
    func reachesLocked(_ container: Resolver) -> Bool {
        registry.assertLocked()
        return self === container || children.contains { $0.reachesLocked(container) }
    }
}
