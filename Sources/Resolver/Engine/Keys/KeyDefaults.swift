// The registrations keys' declarations make (DESIGN.md, "Compile-time-checked
// keys"): one per key, made at the key's first use (a resolve, a property
// wrapper, an override) and kept for the life of the process, in a table of
// their own that a key's resolve searches after its container's lookup finds
// nothing. A key is code: `Resolver.reset()` drops what the registrations
// registered and what the scopes hold, not what the declarations say.
//
// The table is a container's (`Resolver`), made with the registry's mutex,
// that is nobody's child and never `root`: writes go through the mutex
// (R3), readers search it in their read section (R1), and its registrations
// are never removed, so a registration a resolve found stays alive (R2).

/// The keys' own registrations.
@usableFromInline
final class KeyDefaults: @unchecked Sendable {
    /// The one table of keys' registrations.
    @usableFromInline static let shared = KeyDefaults()

    /// Holds the registrations, under their keys; searched by readers.
    @usableFromInline let container: Resolver
    /// The keys in the order first used, for `verify()`. Guarded by the
    /// registry mutex.
    private var records: [KeyRecordDescribing] = []

    private init() {
        container = Resolver(mutex: registry.mutex)
    }

    /// The registration of the key `key`'s declaration: found in the table,
    /// else made by `make` (outside the mutex) and stored, unless another
    /// thread stored one first. Stops when the one found was declared
    /// elsewhere (two keys of one type and name). Call inside a read
    /// section; the registration lives as long as the process.
    @usableFromInline
    @inline(never)
    static func registration<Service>(for key: RegistryKey, _ site: KeySite, promised: Bool,
                                      _ make: () -> ResolverRegistration<Service>,
                                      _ section: borrowing ReadSection) -> UnownedReference<AnyObject> {
        if let found = shared.container.storage.find(key, section) {
            checkDeclaration(found.unsafeCast(to: ResolverRegistration<Service>.self), site)
            return found
        }
        return shared.install(make(), key, site, promised: promised)
    }

    /// The registration the table holds for `key`, if any (read section).
    static func find(_ key: RegistryKey, _ section: borrowing ReadSection) -> UnownedReference<AnyObject>? {
        shared.container.storage.find(key, section)
    }

    /// Stores `made` under `key` unless a registration is there already;
    /// returns the one stored.
    private func install<Service>(_ made: ResolverRegistration<Service>, _ key: RegistryKey, _ site: KeySite,
                                  promised: Bool) -> UnownedReference<AnyObject> {
        let (stored, rc) = registry.write { () -> (ResolverRegistration<Service>, Int32) in
            if let existing = container.storage.table.findLocked(key) {
                return (existing.unsafeCast(to: ResolverRegistration<Service>.self).object, 0)
            }
            let rc = container.putLocked(made)
            if rc == 0 {
                records.append(KeyRecord(made, site: site, promised: promised))
            }
            return (made, rc)
        }
        if rc != 0 {
            resolverFailure("RESOLVER: could not register the key \(site.keyPath) of '\(Service.self)': out of memory (error \(rc)).")
        }
        if stored !== made {
            KeyDefaults.checkDeclaration(UnownedReference(stored), site)
        }
        return UnownedReference(stored)
    }

    /// Stops when `found`, the registration of a key of this type and name,
    /// was made by another declaration than `site`.
    private static func checkDeclaration<Service>(_ found: UnownedReference<ResolverRegistration<Service>>,
                                                  _ site: KeySite) {
        let declared = found.read { $0.site }
        guard !site.isSameDeclaration(as: declared) else { return }
        resolverFailure("RESOLVER: two keys \(site.keyPath) of '\(Service.self)' are declared, at \(declared.map(\.description) ?? "an unknown place") and at \(site.place). A key is its service type and the name of the property that declares it: rename one of them.")
    }

    /// Makes the key's registration if it has none yet: a property wrapper
    /// or an override mentions the key (a promise `verify()` can then list).
    @usableFromInline
    static func mention<Service, each Argument>(_ key: ResolverKey<Service, repeat each Argument>) {
        KeyName.withBytes(key.site.name) { bytes in
            RegistryKey.withKey(Service.self, bytes) { registryKey in
                ReadSection.run { section in
                    _ = registration(for: registryKey, key.site, promised: key.isPromised, {
                        KeyRegistration.makeDefault(key)
                    }, section)
                }
            }
        }
    }

    /// The keys' registrations a lookup from `container` does not find
    /// (`reachable`: the registrations it finds), for `verify()`: each key
    /// used so far that has no registration of the app's there. The mutex
    /// must be held.
    static func unshadowedLocked(besides reachable: [RegistrationDescribing]) -> [RegistrationDescribing] {
        registry.assertLocked()
        let found = Set(reachable.map(\.graphNode))
        return shared.records.filter { !found.contains($0.graphNode) }
    }
}

/// What `verify()` needs of a key's own registration: a registration
/// resolved as its key (its table is not in any container's lookup), and a
/// promise nobody kept reported as missing.
protocol KeyRecordDescribing: RegistrationDescribing {}

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

    var keyDescription: String { registration.keyDescription }
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
            return withExtendedLifetime(name) {
                Resolver.resolveKey(name.key, in: container, .none, SynchronousPath<Service>.self, declaration,
                                    promised: false, { registration }) != nil
            }
        }
        return verifyingAsync(from: container) {
            let step = withExtendedLifetime(name) {
                Resolver.resolveKey(name.key, in: container, .none, AsyncStartPath<Service>.self, declaration,
                                    promised: false, { registration })
            }
            switch step {
            case .done(let service):
                return service != nil
            case .pending(let pending):
                return await pending.finish(nil) != nil
            }
        }
    }
}
