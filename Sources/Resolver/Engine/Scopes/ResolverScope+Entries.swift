extension ResolverScope {
    /// The service an entry holds: the instance (`.cache`), the live object
    /// of a weak box (`.shared`), or a live instance of an expiring box
    /// (`.timeToLive`, on `scope`'s clock). Inside a read section.
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

    /// Keeps `entry` (owned, as `built(_:for:in:)` made it) under `key`,
    /// retiring what it replaces; out of memory, keeps nothing. A quiet lock
    /// will do (T1).
    func storeEntryLocked(_ entry: UncheckedReference<AnyObject>, _ key: RegistryKey) {
        registry.assertLocked()
        guard let table else { return entry.release() }
        let replacing = table.findLocked(key) != nil
        if replacing {
            ThreadCache.invalidate()
        }
        var failure: RegistryError?
        if replacing && kind.memoMayKeep {
            // A dead `.shared` entry, or a hand-made key's instance of another type: the memos go stale
            // (S2, S3); builds under way go on (only resets drop builds: S1).
            changeEntriesLocked { failure = table.putLocked(key, entry) }
        } else {
            // A new key, or an entry no memo points at (an expired one): replaced in place.
            failure = table.putLocked(key, entry)
        }
        if failure != nil {
            entry.release() // never published; the builder holds the instance, so no deinit runs
        }
    }

    /// Empties a caching scope in a new generation, retiring the instances;
    /// the builds under way keep nothing (S1).
    func resetLocked() {
        registry.assertLocked()
        guard let table else { return }
        dropBuildsLocked { _ in true }
        changeEntriesLocked { table.clearLocked() }
    }

    /// `reset(_:name:)`: drops one service's entries, per argument list too.
    func resetEntry(_ type: Any.Type, name: Resolver.Name?) {
        registry.write { resetEntryLocked(type, name: name) }
    }
    func resetEntryLocked(_ type: Any.Type, name: Resolver.Name?) {
        registry.assertLocked()
        guard table != nil else { return }
        let typeID = RegistryKey.typeID(of: type)
        withRegistryKey(type, name) { key in
            withRegistryKey(typeID: ResolverScope.perArgumentTypeID(typeID), name) { argumentsKey in
                resetLocked(key, typeID: typeID, name: name)
                resetLocked(argumentsKey, typeID: typeID, name: name)
            }
        }
    }

    /// Takes the entry under `key` out in a new generation (S2) and drops the
    /// service's builds under way (S1; "Resetting one service"). Out of
    /// memory (removing allocates a retire node), the whole table is emptied:
    /// more is built again than was asked, never less.
    func resetLocked(_ key: RegistryKey, typeID: UInt64, name: Resolver.Name?) {
        registry.assertLocked()
        guard let table else { return }
        dropBuildsLocked { $0.builds(typeID, name) }
        guard table.findLocked(key) != nil else { return }
        changeEntriesLocked {
            if table.removeLocked(key) != nil {
                dropBuildsLocked { _ in true }
                table.clearLocked()
            }
        }
    }

    private func dropBuildsLocked(_ which: (Build) -> Bool) {
        for index in building.indices where which(building[index]) { building[index].dropped = true }
    }

    /// A generation word from a base no other scope uses (its serial number
    /// in the upper 32 bits), so no memo's (scope, generation) comes back.
    static func makeGenerationWord() -> AtomicWord {
        let word = AtomicWord.allocate()
        word.store(Published.scopesMade.increment() << 32)
        return word
    }

    /// The generation (under the mutex).
    var generation: UInt64 { generationWord.load() }

    /// Runs `change`, which takes entries out of the table, with the
    /// generation odd, then a new even one (S2).
    func changeEntriesLocked(_ change: () -> Void) {
        registry.assertLocked()
        generationWord.store(generationWord.load() &+ 1)
        change()
        generationWord.store(generationWord.load() &+ 1)
    }

    /// The deinit's work: retires the instances (no reader can reach this
    /// scope: registrations hold theirs, and a replaced one is retired).
    func releaseStorage() {
        ThreadCache.invalidate()
        table?.destroy()
        generationWord.deallocate()
        collectRetired()
    }
}
