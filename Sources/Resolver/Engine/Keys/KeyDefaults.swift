// The registrations keys' declarations make (DESIGN.md, "Compile-time-checked
// keys"): one per key, made at the key's first use (a resolve, a property
// wrapper, an override) and kept until `Resolver.reset()`, in a table of
// their own that a key's resolve searches after its container's lookup finds
// nothing.
//
// The table is a container's (`Resolver`), made with the registry's mutex,
// that is nobody's child and never `root`: writes go through the mutex
// (R3), readers search it in their read section (R1), and its registrations
// leave it only retired, so a registration a resolve found stays alive (R2).

/// The keys' own registrations.
@usableFromInline
final class KeyDefaults: @unchecked Sendable {
    /// The one table of keys' registrations.
    @usableFromInline static let shared = KeyDefaults()

    /// Holds the registrations, under their keys; searched by readers.
    @usableFromInline let container: Resolver
    /// The keys in the order first used, for `verify()`. Guarded by the
    /// registry mutex.
    var records: [any KeyRecordDescribing] = []

    private init() {
        container = Resolver(mutex: registry.mutex)
    }

    /// The registration of a key of `Service` declared at `site`, if the
    /// key has been used (read section). Stops when the one found was
    /// declared elsewhere (two keys of one type and name). The registration
    /// lives as long as the process.
    @usableFromInline
    @inline(never)
    static func find<Service>(_ key: RegistryKey, _ site: KeySite, of type: Service.Type,
                              _ section: borrowing ReadSection) -> UnownedReference<AnyObject>? {
        guard let found = shared.container.storage.find(key, section) else {
            return nil
        }
        checkDeclaration(found.unsafeCast(to: ResolverRegistration<Service>.self), site)
        return found
    }

    /// The registration the table holds for `key`, if any (read section).
    static func find(_ key: RegistryKey, _ section: borrowing ReadSection) -> UnownedReference<AnyObject>? {
        shared.container.storage.find(key, section)
    }

    /// Makes the registration `declaration` declares (the key's factory and
    /// options, taken from its getter), unless the key has one: at its
    /// first use (a resolve, a property wrapper, an override). Specialized
    /// where the key is used, so that its factory runs no generic code.
    @inlinable
    @inline(never)
    static func install<Service, each Argument>(_ declaration: KeyDeclaration, _ service: Service.Type,
                                               _ arguments: repeat (each Argument).Type) {
        let site = declaration.site
        let found = KeyName.withBytes(site.name) { bytes in
            RegistryKey.withKey(Service.self, bytes) { registryKey in
                ReadSection.run { section in
                    find(registryKey, site, of: Service.self, section) != nil
                }
            }
        }
        if !found {
            checkReceived(declaration, Service.self)
            install(KeyRegistration.makeDefault(declaration, Service.self, repeat (each Argument).self), site,
                    promised: declaration.isPromised)
        }
    }

    /// Stops unless the key's getter, run again, made its key where it made
    /// it the first time (a getter must make its key the same way each time).
    @usableFromInline
    static func checkReceived<Service>(_ declaration: KeyDeclaration, _ service: Service.Type) {
        guard !declaration.received else { return }
        resolverFailure("RESOLVER: the getter of the key \(declaration.site.keyPath) of '\(Service.self)' (declared at \(declaration.site.place)) did not make its key there when run again. A key's getter must make its ResolverKey the same way every time, and do nothing else.")
    }

    /// Stores `made`, the registration of the key declared at `site`, unless
    /// one is there already (another thread made it first).
    @usableFromInline
    static func install<Service>(_ made: ResolverRegistration<Service>, _ site: KeySite, promised: Bool) {
        let shared = self.shared
        let (stored, rc) = registry.write { () -> (ResolverRegistration<Service>, Int32) in
            let existing = withRegistryKey(Service.self, made.name) { key in
                shared.container.storage.table.findLocked(key)
            }
            if let existing {
                return (existing.unsafeCast(to: ResolverRegistration<Service>.self).object, 0)
            }
            let rc = shared.container.putLocked(made, typeID: made.typeID, name: made.name)
            if rc == 0 {
                shared.records.append(KeyRecord(made, site: site, promised: promised))
            }
            return (made, rc)
        }
        if rc != 0 {
            resolverFailure("RESOLVER: could not register the key \(site.keyPath) of '\(Service.self)': out of memory (error \(rc)).")
        }
        if stored !== made {
            checkDeclaration(UnownedReference(stored), site)
        }
    }

    /// Whether `registration` is a promised key's own registration. The
    /// mutex must be held.
    static func isPromiseLocked(_ registration: AnyObject) -> Bool {
        registry.assertLocked()
        return shared.records.contains { $0.isPromise && $0.describedRegistration === registration }
    }

    /// Stops when `found`, the registration of a key of this type and name,
    /// was made by another declaration than `site`.
    static func checkDeclaration<Service>(_ found: UnownedReference<ResolverRegistration<Service>>,
                                                  _ site: KeySite) {
        let declared = found.read { $0.site }
        guard !site.isSameDeclaration(as: declared) else { return }
        resolverFailure("RESOLVER: two keys \(site.keyPath) of '\(Service.self)' are declared, at \(declared.map(\.description) ?? "an unknown place") and at \(site.place). A key is its service type and the name of the property that declares it: rename one of them.")
    }

    /// The keys' own registrations `verify()` of `container` resolves: when
    /// its lookup reaches `Resolver.main` (the app's graph: `Resolver.verify()`,
    /// or a container of mocks over `main`), each key used so far that no
    /// registration it finds (`reachable`) overrides. A container apart from
    /// the app's verifies its own registrations only. The mutex must be held.
    static func unshadowedLocked(besides reachable: [RegistrationDescribing],
                                 from container: Resolver) -> [RegistrationDescribing] {
        registry.assertLocked()
        guard container.reachesLocked(registry.main) else {
            return []
        }
        let found = Set(reachable.map(\.graphNode))
        return shared.records.filter { !found.contains($0.graphNode) }.map { $0 as RegistrationDescribing }
    }

    /// `Resolver.reset()`: forgets the keys' registrations (each key's next
    /// use makes its registration again from its declaration, with the
    /// `defaultScope` of then). The registrations are retired (R2), and
    /// released after the mutex is let go. The mutex must be held.
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
    /// Whether a lookup from this container reaches `container` (itself or
    /// a child, depth first). The mutex must be held.
    func reachesLocked(_ container: Resolver) -> Bool {
        registry.assertLocked()
        return self === container || children.contains { $0.reachesLocked(container) }
    }
}

/// What `verify()` needs of a key's own registration: a registration
/// resolved as its key (its table is not in any container's lookup), and a
/// promise nobody kept reported as missing.
protocol KeyRecordDescribing: RegistrationDescribing {
    /// Whether the key is promised.
    var isPromise: Bool { get }
    /// The registration recorded.
    var describedRegistration: AnyObject { get }
}

/// The record of one key's registration.
final class KeyRecord<Service>: KeyRecordDescribing {
    let registration: ResolverRegistration<Service>
    let declaration: KeySite
    let isPromise: Bool

    init(_ registration: ResolverRegistration<Service>, site: KeySite, promised: Bool) {
        self.registration = registration
        declaration = site
        isPromise = promised
    }

    var describedRegistration: AnyObject { registration }
    var keyDescription: String { registration.keyDescription }
    var serviceType: Any.Type { registration.serviceType }
    var site: RegistrationSite? { registration.site }
    var isExemptInStrictTestsLocked: Bool { registration.isExemptInStrictTestsLocked }
    var graphNode: Resolver.Graph.Node { registration.graphNode }
    var takesArgumentsLocked: Bool { registration.takesArgumentsLocked }
    var isMainActorFactory: Bool { registration.isMainActorFactory }
    var scope: ResolverScope { registration.scope }

    /// Resolves the key from `container` (a verification's sandbox); a
    /// promise stops as `resolve` would, which the verification records.
    func resolveOnce(from container: Resolver) -> Bool {
        if isPromise {
            resolverFailure(KeyMessages.promiseNotKept(Service.self, declaration), kind: .missing)
        }
        let name = registration.name.unsafelyUnwrapped
        let declaration = self.declaration
        let registration = self.registration
        guard registration.isolation == .async else {
            let lookup = withExtendedLifetime(name) {
                Resolver.resolveKey(name.key, in: container, .none, SynchronousPath<Service>.self, declaration)
            }
            guard case .resolved(let service) = lookup else { return false }
            return service != nil
        }
        return verifyingAsync(from: container) {
            let lookup = withExtendedLifetime(name) {
                Resolver.resolveKey(name.key, in: container, .none, AsyncStartPath<Service>.self, declaration)
            }
            guard case .resolved(let step) = lookup else { return false }
            switch step {
            case .done(let service):
                return service != nil
            case .pending(let pending):
                return await pending.finish(nil) != nil
            }
        }
    }
}
