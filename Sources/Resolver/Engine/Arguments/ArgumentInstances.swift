// A caching scope's instances of a registration with typed arguments: one
// per distinct argument list (`[AnyHashable]`, each value as `AnyHashable`).
//
// They live in the scope's table as one `ArgumentInstances` per service
// (type and name), under a key space of their own: the service type's
// identity with bit 1 set (`perArgumentTypeID`), which no type has (a type's
// identity is the address of its metadata, aligned) and which the hand-made
// registrations' space (identity 1) does not use. So an ordinary registration
// of the same type and name, through the same scope, never meets them.
//
// An `ArgumentInstances` is immutable: storing an instance for a new list
// publishes a copy with it added and retires the old one (R2), under the
// registry mutex; readers find it in a read section. The thread cache and
// the registrations' memos never hold one (T1, S3): a typed registration's
// cached read goes through `instance(for:)` every time.

/// A caching scope's instances of one typed service, by argument list.
final class ArgumentInstances: @unchecked Sendable {
    /// Each an owned reference to the value as the scope's kind keeps it
    /// (`ValueStorage`, or a `WeakBox` in a `.shared` scope).
    private let instances: [[AnyHashable]: UncheckedReference<AnyObject>]

    init(_ instances: [[AnyHashable]: UncheckedReference<AnyObject>]) {
        self.instances = instances
    }

    deinit {
        // Retired, so no reader can be looking at it.
        for stored in instances.values {
            stored.release()
        }
    }

    /// The entry kept for `key`, if any.
    func entry(for key: [AnyHashable]) -> UncheckedReference<AnyObject>? {
        instances[key]
    }

    /// A copy that also keeps `stored` (owned) for `key`, replacing what it
    /// kept there; every other value is retained again for the copy.
    func adding(_ stored: UncheckedReference<AnyObject>, for key: [AnyHashable]) -> ArgumentInstances {
        for (existingKey, value) in instances where existingKey != key {
            _ = UncheckedReference<AnyObject>.retaining(value.object)
        }
        var copy = instances
        copy[key] = stored
        return ArgumentInstances(copy)
    }
}

extension ResolverScope {
    /// The key space of the per-argument instances of the type `typeID`.
    static func perArgumentTypeID(_ typeID: UInt64) -> UInt64 {
        typeID | 2
    }

    /// The entry this caching scope keeps for the typed service `typeID`
    /// and `name`, for the argument list `key` (the value as the scope's
    /// kind keeps it). Call inside a read section or holding the mutex.
    func argumentEntryLocked(typeID: UInt64, _ name: Resolver.Name?, _ key: [AnyHashable]) -> UncheckedReference<AnyObject>? {
        withRegistryKey(typeID: ResolverScope.perArgumentTypeID(typeID), name) { tableKey in
            guard let entry = table?.findValue(tableKey) else { return nil }
            return entry.unsafeCast(to: ArgumentInstances.self).read { $0.entry(for: key) }
        }
    }

    /// The instance this caching scope keeps for `registration` (typed) and
    /// the argument list `key`. Call inside a read section.
    func argumentInstance<Service>(_ registration: ResolverRegistration<Service>, _ key: [AnyHashable],
                                   as type: Service.Type) -> Service? {
        guard let entry = argumentEntryLocked(typeID: registration.typeID, registration.name, key) else {
            return nil
        }
        return ResolverScope.service(inEntry: entry, of: kind, in: UncheckedReference(self), as: Service.self)
    }

    /// Keeps `entry` (owned, the value as the scope's kind keeps it) for the
    /// typed service `typeID` and `name` and the argument list `key`. Out of
    /// memory, it is simply not kept. The mutex must be held (quietly will
    /// do: T1).
    func storeArgumentEntryLocked(_ entry: UncheckedReference<AnyObject>, typeID: UInt64, _ name: Resolver.Name?,
                                  _ key: [AnyHashable]) {
        registry.assertLocked()
        guard let table else {
            entry.release()
            return
        }
        withRegistryKey(typeID: ResolverScope.perArgumentTypeID(typeID), name) { tableKey in
            let existing = table.findLocked(tableKey)?.unsafeCast(to: ArgumentInstances.self)
            if existing != nil {
                // Retired below: the threads' caches must not hold it (they
                // never do: T1), and are made stale all the same, as for
                // every entry that leaves a table.
                ThreadCache.invalidate()
            }
            let updated = existing.map { $0.read { $0.adding(entry, for: key) } }
                ?? ArgumentInstances([key: entry])
            let published = UncheckedReference.retaining(updated)
            // The one it replaces is retired (R2): readers that found it keep
            // reading it until their sections end.
            if table.putLocked(tableKey, published.unsafeCast(to: AnyObject.self)) != 0 {
                published.release()
            }
        }
    }
}

extension ResolverRegistration {
    /// A typed registration's instance in a caching scope, for the call's
    /// argument list (`arguments`). Out of line: the resolve path of other
    /// registrations only tests `argumentTypes`.
    @usableFromInline
    @inline(never)
    func argumentInstance(_ scope: UncheckedReference<ResolverScope>, _ arguments: ArgumentsPointer) -> Service? {
        guard let key = arguments.typed?.pointee.key() else { return nil }
        return scope.object.argumentInstance(self, key, as: Service.self)
    }

    /// The argument list of a typed call to this registration as the key of
    /// its instance in a caching scope; stops when a value is not `Hashable`
    /// (which `scope(_:)` rules out for the registration's types).
    @usableFromInline
    func argumentsKey(_ arguments: ArgumentsPointer) -> [AnyHashable]? {
        guard argumentTypes != nil else { return nil }
        guard let key = arguments.typed?.pointee.key() else {
            resolverFailure(ResolverRegistration.notHashableMessage(argumentList?.types, name), kind: .other)
        }
        return key
    }

    /// The argument list of an async call (boxed) as a key; see `argumentsKey(_:)`.
    func argumentsKey(boxed args: Any?) -> [AnyHashable]? {
        guard argumentTypes != nil else { return nil }
        guard let key = (args as? TypedArgumentsBoxing)?.hashableKey else {
            resolverFailure(ResolverRegistration.notHashableMessage(argumentList?.types, name), kind: .other)
        }
        return key
    }

    /// Why a typed registration with arguments that are not all `Hashable`
    /// cannot have a caching scope.
    static func notHashableMessage(_ types: Any.Type?, _ name: Resolver.Name?) -> String {
        let list = types.map(describeArgumentTypes) ?? "?"
        return "RESOLVER: '\(describe(Service.self, name))' takes arguments \(list), which are not all Hashable: a caching scope keeps one instance per argument list, so its arguments must be Hashable. Make them Hashable, or use a scope that does not cache (.graph, .unique)."
    }

    /// `checkArgumentsCanBeCached(in:)` for the scope `register` gave it.
    @usableFromInline
    func checkArgumentsCanBeCachedInItsScope() {
        checkArgumentsCanBeCached(in: scope)
    }

    /// Stops when this registration takes typed arguments that are not all
    /// `Hashable` and `scope` caches: where `.scope()` is set (and where
    /// `register` applies a caching default scope).
    func checkArgumentsCanBeCached(in scope: ResolverScope) {
        guard let argumentList, !argumentList.hashable else { return }
        switch scope.kind.strategy {
        case .buildOnceAndKeep, .containerCache:
            resolverFailure(ResolverRegistration.notHashableMessage(argumentList.types, name), kind: .other)
        case .newInstance, .perResolution, .delegate:
            return
        }
    }
}
