// What the program says when a key cannot be resolved: the key as it is
// written (`\.analytics`), its service type, where it was declared, and the
// way out.

/// The messages about keys.
enum KeyMessages {
    /// A promised key that nothing registered.
    static func promiseNotKept<Service>(_ type: Service.Type, _ site: KeySite) -> String {
        "RESOLVER: the key \(site.keyPath) of '\(Service.self)', promised at \(site.place), is not registered. "
            + "Register it with `Resolver.register(\(site.keyPath)) { … }` (in the container resolved from, or one it "
            + "falls back on), or resolve it with `Resolver.optional(\(site.keyPath))`."
    }

    /// A key whose registration gave no instance (a factory installed with
    /// `update(factory:)` or a context that returned nil).
    static func returnedNil<Service>(_ type: Service.Type, _ site: KeySite) -> String {
        "RESOLVER: the key \(site.keyPath) of '\(Service.self)' (declared at \(site.place)) resolved to nil: "
            + "a factory installed on its registration returned nil."
    }
}

extension Resolver {
    /// Stops the program: the key declared at `site` resolved to nil from
    /// `container` (nil: `root`): a promise nobody kept, or a registration
    /// whose installed factory returned nil.
    @usableFromInline
    @inline(never)
    static func keyNotResolved<Service>(_ site: KeySite, _ type: Service.Type, in container: Resolver?) -> Never {
        let promised = KeyName.withBytes(site.name) { bytes in
            RegistryKey.withKey(Service.self, bytes) { key in
                let own = ReadSection.run { section -> AnyObject? in
                    guard (container ?? Resolver.root).storage.find(key, section) == nil else { return nil }
                    return KeyDefaults.find(key, section)?.object
                }
                return own.map { registration in registry.withLock { KeyDefaults.isPromiseLocked(registration) } } ?? false
            }
        }
        let chain = ResolutionContext.current.chainDescription
        let needed = chain.isEmpty ? "" : "\nNeeded while resolving \(chain.joined(separator: " → "))."
        if promised {
            resolverFailure(KeyMessages.promiseNotKept(Service.self, site) + needed + chainPlaces, kind: .missing)
        }
        resolverFailure(KeyMessages.returnedNil(Service.self, site) + needed + chainPlaces, kind: .returnedNil)
    }
}
