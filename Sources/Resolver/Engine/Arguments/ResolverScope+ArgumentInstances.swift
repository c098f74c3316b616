/// A caching scope's instances of one typed service, by argument list, each
/// an owned reference to the value as the scope's kind keeps it: in its
/// table under the type identity with bit 1 set, replaced whole (R2), never
/// in a thread's cache or a memo (DESIGN.md, "Typed arguments and
/// per-argument instances").
final class ArgumentInstances: @unchecked Sendable {
    let instances: [[AnyHashable]: UncheckedReference<AnyObject>]

    init(_ instances: [[AnyHashable]: UncheckedReference<AnyObject>]) { self.instances = instances }

    deinit {
        for stored in instances.values { stored.release() }
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
    static func perArgumentTypeID(_ typeID: UInt64) -> UInt64 { typeID | 2 }

    /// The entry kept for the typed service `typeID`, `name` and the
    /// argument list `key`. Inside a read section or holding the mutex.
    func argumentEntryLocked(typeID: UInt64, _ name: Resolver.Name?, _ key: [AnyHashable]) -> UncheckedReference<AnyObject>? {
        withRegistryKey(typeID: ResolverScope.perArgumentTypeID(typeID), name) { tableKey in
            guard let entry = table?.findValue(tableKey) else { return nil }
            return entry.unsafeCast(to: ArgumentInstances.self).read { $0.instances[key] }
        }
    }

    func argumentInstance<Service>(_ registration: ResolverRegistration<Service>, _ key: [AnyHashable],
                                   as type: Service.Type) -> Service? {
        guard let entry = argumentEntryLocked(typeID: registration.typeID, registration.name, key) else { return nil }
        return ResolverScope.service(inEntry: entry, of: kind, in: UncheckedReference(self), as: Service.self)
    }

    /// Keeps `entry` (owned) for the argument list `key`: publishes a copy
    /// with it and retires the one it replaces (R2). Out of memory, it is
    /// simply not kept. A quiet lock will do (T1).
    func storeArgumentEntryLocked(_ entry: UncheckedReference<AnyObject>, typeID: UInt64, _ name: Resolver.Name?,
                                  _ key: [AnyHashable]) {
        registry.assertLocked()
        guard let table else { return entry.release() }
        withRegistryKey(typeID: ResolverScope.perArgumentTypeID(typeID), name) { tableKey in
            let existing = table.findLocked(tableKey)?.unsafeCast(to: ArgumentInstances.self)
            if existing != nil {
                // No thread's cache holds it (T1), but every entry that leaves a table makes them stale.
                ThreadCache.invalidate()
            }
            let updated = existing.map { $0.read { $0.adding(entry, for: key) } } ?? ArgumentInstances([key: entry])
            let published = UncheckedReference.retaining(updated)
            if table.putLocked(tableKey, published.unsafeCast(to: AnyObject.self)) != nil {
                published.release()
            }
        }
    }
}

extension ResolverRegistration {
    /// A typed registration's instance in a caching scope, for the call's
    /// list. Out of line: other registrations only test `argumentTypes`.
    @usableFromInline
    @inline(never)
    func argumentInstance(_ scope: UncheckedReference<ResolverScope>, _ arguments: ArgumentsPointer) -> Service? {
        guard let key = arguments.typed?.pointee.key() else { return nil }
        return scope.object.argumentInstance(self, key, as: Service.self)
    }

    /// The call's list as the key of its instance in a caching scope; stops
    /// when a value is not `Hashable` (`scope(_:)` rules that out).
    @usableFromInline
    func argumentsKey(_ arguments: ArgumentsPointer) -> [AnyHashable]? {
        guard argumentTypes != nil else { return nil }
        guard let key = arguments.typed?.pointee.key() else {
            fail(ResolverRegistration.notHashableMessage(argumentList?.types, name), kind: .other)
        }
        return key
    }

    static func notHashableMessage(_ types: Any.Type?, _ name: Resolver.Name?) -> String {
        let list = types.map(describeArgumentTypes) ?? "?"
        return "RESOLVER: '\(describe(Service.self, name))' takes arguments \(list), which are not all Hashable: a caching scope keeps one instance per argument list, so its arguments must be Hashable. Make them Hashable, or use a scope that does not cache (.graph, .unique)."
    }

    @usableFromInline func checkArgumentsCanBeCachedInItsScope() { checkArgumentsCanBeCached(in: scope) }

    /// Stops when this registration's typed arguments are not all
    /// `Hashable` and `scope` caches (`.scope()`, or `register`'s default).
    func checkArgumentsCanBeCached(in scope: ResolverScope) {
        guard let argumentList, !argumentList.hashable else { return }
        switch scope.kind.strategy {
        case .buildOnceAndKeep, .containerCache:
            fail(ResolverRegistration.notHashableMessage(argumentList.types, name), kind: .other)
        case .newInstance, .perResolution, .delegate:
            return
        }
    }
}
