/// How the caching scopes keep instances, and build each once
/// (DESIGN.md, S1–S3): the table and generation of `ResolverScope`,
/// read by the resolve path without a lock and changed under the registry
/// mutex.
extension ResolverScope {
    /// A generation word starting at a base no other scope uses (the scope's
    /// serial number in the upper 32 bits), so a (scope, generation) pair a
    /// memo remembers never comes back, even if another scope later takes
    /// this one's address.
    static func makeGenerationWord() -> AtomicWord {
        let word = AtomicWord.allocate()
        word.store(Published.scopesMade.increment() << 32)
        return word
    }

    /// The deinit's work: retires the cached instances; they are released
    /// once no read section can reach them. (No reader can reach this scope
    /// any more: registrations hold their scope, and a registration's old
    /// scope is retired, not released.)
    func releaseStorage() {
        ThreadCache.invalidate()
        table?.destroy()
        generationWord.deallocate()
        collectRetired()
    }

    /// The generation (under the mutex).
    var generation: UInt64 {
        generationWord.load()
    }

    /// Runs `change`, which takes entries out of the table, between two
    /// generation steps: odd during the change, a new even value after it.
    /// The mutex must be held.
    func changeEntriesLocked(_ change: () -> Void) {
        registry.assertLocked()
        generationWord.store(generationWord.load() &+ 1)
        change()
        generationWord.store(generationWord.load() &+ 1)
    }
}

/// A weak reference held by reference, as a `.shared` cache or a
/// `WeakLazyInjected` stores it. Set once, when made, so threads may read it
/// at the same time.
@usableFromInline
final class WeakBox {
    @usableFromInline weak var object: AnyObject?

    init(_ object: AnyObject?) {
        self.object = object
    }
}

extension ResolverScope {
    /// `resolve(registration:resolver:args:)` of the built-in scopes, for
    /// callers outside the resolve path (custom scopes, `implements`).
    func resolveBuiltIn<Service>(_ registration: ResolverRegistration<Service>, _ resolver: Resolver, _ args: Any?) -> Service? {
        if registration.handMadeCacheName != nil, kind.keepsInstances {
            return withCarriedArguments(args) { arguments in
                ReadSection.run { section in
                    resolveHandMade(registration, resolver, arguments, section)
                }
            }
        }
        return withCarriedArguments(args) { arguments in
            withRegistryKey(Service.self, registration.name) { key in
                ReadSection.run { section in
                    ResolverRegistration.resolve(UnownedReference(registration), through: UnownedReference(self),
                                                 ResolveRequest(key, from: UnownedReference(resolver), arguments),
                                                 given: resolver, section)
                }
            }
        }
    }

    /// A caching scope (`.cache`, `.shared`) and a registration made by hand
    /// with a key other than its type's: the instance kept under its
    /// `cacheKey`, or a new one, built once and kept there. Registrations of
    /// several service types can meet under one `cacheKey` (in 1.5.1 too), so
    /// the entry holds the instance as `Any` (a `.shared` entry, weakly, as
    /// `AnyObject`) and a read casts it, as the original's `as? Service`; an
    /// instance of another type is replaced.
    func resolveHandMade<Service>(_ registration: ResolverRegistration<Service>, _ resolver: Resolver,
                                  _ arguments: ArgumentsPointer, _ section: borrowing ReadSection) -> Service? {
        let name = registration.handMadeCacheName.unsafelyUnwrapped
        return withRegistryKey(ResolverRegistration<Service>.handMadeCacheType, name.key, owner: name) { key in
            if let cached = anyInstance(key, as: Service.self) {
                return cached
            }
            return buildOnce(registration, ResolveRequest(key, from: UnownedReference(resolver), arguments),
                             given: resolver, section, handMade: true)
        }
    }

    /// The instance the entry under a hand-made registration's key holds, if
    /// it is a `Service` (see `resolveHandMade`). Call inside a read section
    /// or holding the mutex.
    func anyInstance<Service>(_ key: RegistryKey, as type: Service.Type) -> Service? {
        guard let entry = table?.findValue(key) else {
            return nil
        }
        if kind.holdsInstancesWeakly {
            return entry.unsafeCast(to: WeakBox.self).read { $0.object } as? Service
        }
        return ValueStorage.value(in: entry, as: Any.self) as? Service
    }

    /// Empties a caching scope and starts a new generation. The mutex must be
    /// held; the instances are retired.
    func resetLocked() {
        registry.assertLocked()
        guard let table else { return }
        changeEntriesLocked {
            table.clearLocked()
        }
    }

    /// The service an entry of a caching scope's table holds: the instance
    /// itself (`.cache`), or the live object a weak box points at (`.shared`;
    /// nil once it is gone). Call inside a read section.
    @inlinable
    @inline(__always)
    static func service<Service>(inEntry entry: UnownedReference<AnyObject>, of kind: Kind, as type: Service.Type) -> Service? {
        guard kind.holdsInstancesWeakly else {
            return ValueStorage.value(in: entry, as: Service.self)
        }
        guard let object = entry.unsafeCast(to: WeakBox.self).read({ $0.object }) else {
            return nil
        }
        if ValueStorage.isClassReference(Service.self) {
            return unsafeBitCast(object, to: Service.self)
        }
        return object as? Service
    }

    /// The instance this caching scope holds under `key`, if any. Call inside
    /// a read section or holding the mutex.
    func cachedInstance<Service>(_ key: RegistryKey, as type: Service.Type) -> Service? {
        guard let entry = table?.findValue(key) else {
            return nil
        }
        return ResolverScope.service(inEntry: entry, of: kind, as: Service.self)
    }

    /// Keeps `service` under `key`: strongly in a cache, weakly (class
    /// instances only) in a shared scope. What it replaces is retired. Out of
    /// memory, the instance is simply not cached. The mutex must be held.
    func storeLocked<Service>(_ service: Service, _ key: RegistryKey) {
        registry.assertLocked()
        guard let table else { return }
        let stored: UnownedReference<AnyObject>
        if kind.holdsInstancesWeakly {
            guard let object = ValueStorage.instance(in: service) else {
                return
            }
            stored = .retaining(WeakBox(object))
        } else {
            stored = ValueStorage.retainedReference(to: service)
        }
        var rc: Int32 = 0
        if table.findLocked(key) != nil {
            // Replacing a dead `.shared` entry, or under a hand-made key an
            // instance of another type: the old one leaves the table.
            changeEntriesLocked {
                rc = table.putLocked(key, stored)
            }
        } else {
            rc = table.putLocked(key, stored)
        }
        if rc != 0 {
            // Never published: no reader can see it. The caller holds the
            // instance, so this release runs no deinit.
            stored.release()
        }
    }
}
