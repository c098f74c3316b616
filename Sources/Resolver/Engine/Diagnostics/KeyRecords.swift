// What keys show of themselves in messages and to `verify()`: a promise
// nobody kept, a key that resolved to nil, and a key's own registration,
// which `verify()` resolves through its key (no container's lookup reaches it).

extension Resolver {
    /// Stops: the key resolved to nil from `container` (nil: `root`), a
    /// promise nobody kept or an installed factory that returned nil.
    @usableFromInline
    @inline(never)
    static func keyNotResolved<Service>(_ site: KeySite, _ type: Service.Type, in container: Resolver?) -> Never {
        let promised = KeyName.withBytes(site.name) { bytes in
            withRegistryKey(RegistryKey.typeID(of: Service.self), bytes) { key in
                let own = ReadSection.run { section -> AnyObject? in
                    guard (container ?? Resolver.root).storage.find(key, section) == nil else { return nil }
                    return KeyDefaults.shared.container.storage.find(key, section)?.object
                }
                return own.map { registration in registry.withLock { KeyDefaults.isPromiseLocked(registration) } } ?? false
            }
        }
        let needed = chainSentence
        if promised {
            fail(KeyMessages.promiseNotKept(Service.self, site) + needed + chainPlaces, kind: .missing)
        }
        fail("RESOLVER: the key \(site.keyPath) of '\(Service.self)' (declared at \(site.place)) resolved to nil: "
             + "a factory installed on its registration returned nil." + needed + chainPlaces, kind: .returnedNil)
    }
}


enum KeyMessages {
    /// A promised key nothing registered, and the way out.
    static func promiseNotKept<Service>(_ type: Service.Type, _ site: KeySite) -> String {
        "RESOLVER: the key \(site.keyPath) of '\(Service.self)', promised at \(site.place), is not registered. "
            + "Register it with `Resolver.register(\(site.keyPath)) { … }` (in the container resolved from, or one it "
            + "falls back on), or resolve it with `Resolver.optional(\(site.keyPath))`."
    }
}

/// What `verify()` needs of a key's own registration: resolved through its
/// key (no container's lookup reaches it), and a promise nobody kept reported
/// as missing.
protocol KeyRecordDescribing: RegistrationDescribing {
    var isPromise: Bool { get }
    var describedRegistration: AnyObject { get }
}

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
    /// promise stops as `resolve` would.
    func checkOnce(from container: Resolver) -> Bool {
        if isPromise {
            fail(KeyMessages.promiseNotKept(Service.self, declaration), kind: .missing)
        }
        let declaration = self.declaration
        guard registration.isolation == .async else {
            return Resolver.resolveKey(declaration, in: container, .none, SynchronousPath<Service>.self, declare: {}) != nil
        }
        return verifyingAsync(from: container) {
            switch Resolver.resolveKey(declaration, in: container, .none, AsyncStartPath<Service>.self, declare: {}) {
            case .done(let service):
                return service != nil
            case .pending(let pending):
                return await pending.finish(nil) != nil
            }
        }
    }
}
