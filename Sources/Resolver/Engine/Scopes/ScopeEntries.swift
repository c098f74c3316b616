// A caching scope's entries: finding, reading, storing and resetting the
// instances its table keeps, for the built-in scopes' own `resolve` and for
// the build-once (`BuildOnce.swift`).

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
                    ResolverRegistration.keptOrMade(UncheckedReference(registration), through: UncheckedReference(self),
                                                    ResolveRequest(key, from: UncheckedReference(resolver), arguments),
                                                    section)
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
            if registration.isolation == .async {
                registration.asyncFactoryStop()
            }
            let request = ResolveRequest(key, from: UncheckedReference(resolver), arguments)
            let build = BuildKey(key, typeID: ResolverRegistration<Service>.handMadeCacheType, name: name,
                                 argumentsKey: nil, registration: registration)
            let kind = self.kind
            let scope = UncheckedReference(self)
            var service: Service?
            buildOnce(build, found: { entry in
                service = ResolverScope.service(inEntry: entry, of: kind, in: scope, as: Any.self) as? Service
                return service != nil
            }, built: { instance in
                guard let instance else {
                    service = nil
                    return true
                }
                service = ValueStorage.value(in: instance, as: Any.self) as? Service
                return service != nil
            }, make: {
                service = ResolverRegistration.produce(UncheckedReference(registration), ResolutionContext.currentState,
                                                       request.container, request.arguments, section)
                return ResolverScope.built(service.map { $0 as Any }, for: kind, in: scope)
            })
            return service
        }
    }

    /// The instance the entry under a hand-made registration's key holds, if
    /// it is a `Service` (see `resolveHandMade`) and has not expired. Call
    /// inside a read section or holding the mutex.
    func anyInstance<Service>(_ key: RegistryKey, as type: Service.Type) -> Service? {
        guard let entry = table?.findValue(key) else {
            return nil
        }
        if kind.holdsInstancesWeakly {
            return entry.unsafeCast(to: WeakBox.self).read { $0.object } as? Service
        }
        if kind.instancesExpire {
            return ResolverScope.liveService(inEntry: entry, of: UncheckedReference(self), as: Any.self) as? Service
        }
        return ValueStorage.value(in: entry, as: Any.self) as? Service
    }

    /// Empties a caching scope and starts a new generation; the builds
    /// under way keep nothing (S1). The mutex must be held; the instances
    /// are retired.
    func resetLocked() {
        registry.assertLocked()
        guard let table else { return }
        for index in building.indices {
            building[index].dropped = true
        }
        changeEntriesLocked {
            table.clearLocked()
        }
    }

    /// `reset(_:name:)`: drops the entry of one service (type and name) from
    /// a caching scope's table, under the registry mutex; nothing for the
    /// other scopes.
    func resetEntry(_ type: Any.Type, name: Resolver.Name?) {
        registry.write {
            resetEntryLocked(type, name: name)
        }
    }

    /// `resetEntry`, holding the mutex.
    func resetEntryLocked(_ type: Any.Type, name: Resolver.Name?) {
        registry.assertLocked()
        guard table != nil else { return }
        let typeID = RegistryKey.typeID(of: type)
        withRegistryKey(type, name) { key in
            withRegistryKey(typeID: ResolverScope.perArgumentTypeID(typeID), name) { argumentsKey in
                resetLocked(key, typeID: typeID, name: name)
                // The instances kept per argument list (ArgumentInstances).
                resetLocked(argumentsKey, typeID: typeID, name: name)
            }
        }
    }

    /// Takes the entry under `key` out of a caching scope's table, with a new
    /// generation (S2), and drops the builds of that service under way, so
    /// that they keep nothing (S1); the builds of other services go on.
    /// Out of memory (removing one entry allocates the node that retires
    /// it), the whole table is emptied instead, as `resetLocked()` does:
    /// more is built again than was asked, never less. The mutex must be
    /// held; the instance is retired.
    func resetLocked(_ key: RegistryKey, typeID: UInt64, name: Resolver.Name?) {
        registry.assertLocked()
        guard let table else { return }
        for index in building.indices where building[index].builds(typeID, name) {
            building[index].dropped = true
        }
        guard table.findLocked(key) != nil else {
            return
        }
        changeEntriesLocked {
            if !table.removeLocked(key) {
                for index in building.indices {
                    building[index].dropped = true
                }
                table.clearLocked()
            }
        }
    }

    /// The service an entry of a caching scope's table holds: the instance
    /// itself (`.cache`), the live object a weak box points at (`.shared`;
    /// nil once it is gone), or the instance an expiring box holds while it
    /// lives (`.timeToLive`; nil once expired). `scope` is the scope whose
    /// table holds it (a time-to-live one's clock is read). Call inside a
    /// read section.
    @inlinable
    @inline(__always)
    static func service<Service>(inEntry entry: UncheckedReference<AnyObject>, of kind: Kind,
                                 in scope: UncheckedReference<ResolverScope>, as type: Service.Type) -> Service? {
        guard kind.holdsInstancesWeakly else {
            if kind.instancesExpire {
                return liveService(inEntry: entry, of: scope, as: Service.self)
            }
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

    /// The instance a time-to-live scope's entry (an `ExpiringBox`) holds,
    /// if it has not expired: one reading of the scope's clock. Out of line,
    /// so that the other scopes' reads stay as they were.
    @inlinable
    @inline(never)
    static func liveService<Service>(inEntry entry: UncheckedReference<AnyObject>,
                                     of scope: UncheckedReference<ResolverScope>, as type: Service.Type) -> Service? {
        let now = scope.read { $0.life.unsafelyUnwrapped.elapsed() }
        return entry.unsafeCast(to: ExpiringBox<Service>.self).read { box in
            now < box.expiry ? box.value : nil
        }
    }

    /// The instance a time-to-live scope gives an instance whose build ends
    /// now.
    @usableFromInline
    func expiryOfInstanceBuiltNow() -> Int64 {
        life.unsafelyUnwrapped.expiryOfInstanceBuiltNow()
    }

    /// Keeps `entry` (an owned reference to the instance as this scope's
    /// kind keeps it: `built(_:for:in:)`) under `key`. What it replaces is
    /// retired, after the threads' caches are made stale. Out of memory, the
    /// instance is simply not cached. The mutex must be held (quietly will
    /// do: T1).
    func storeEntryLocked(_ entry: UncheckedReference<AnyObject>, _ key: RegistryKey) {
        registry.assertLocked()
        guard let table else {
            entry.release()
            return
        }
        var rc: Int32 = 0
        let replacing = table.findLocked(key) != nil
        if replacing {
            // What the threads' caches may hold is about to leave (the
            // caller may hold the mutex quietly: `withQuietLock`).
            ThreadCache.invalidate()
        }
        if replacing && kind.replacingAnEntryStartsAGeneration {
            // Replacing a dead `.shared` entry, or under a hand-made key an
            // instance of another type: the old one leaves the table, and the
            // memos that may point at it go stale (S2, S3). Builds under way
            // are not dropped: only resets drop builds (S1).
            changeEntriesLocked {
                rc = table.putLocked(key, entry)
            }
        } else {
            // A new key; or an expired time-to-live entry (or, under a
            // hand-made key, an instance of another type), which no memo
            // points at: replaced in place.
            rc = table.putLocked(key, entry)
        }
        if rc != 0 {
            // Never published: no reader can see it. The build's caller
            // holds the instance, so this release runs no deinit.
            entry.release()
        }
    }
}
