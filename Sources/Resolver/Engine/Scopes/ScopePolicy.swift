// What each kind of scope does, stated once. Every decision the engine makes
// about a scope (does it keep instances, how, may the per-thread cache or a
// registration's memo remember them, how does a resolve get an instance the
// scope does not hold) reads one of the properties below, and each property
// is an exhaustive `switch`: a new kind is one change, and the compiler lists
// every place that must decide what the new kind does.

extension ResolverScope {
    /// Which built-in behaviour a scope has, so the resolve path handles the
    /// built-in scopes without a dynamic call.
    @usableFromInline
    enum Kind: UInt8 {
        /// `.unique` (`ResolverScope` itself): a new instance every time.
        case unique
        /// `ResolverScopeGraph`: one instance per top-level resolution.
        case graph
        /// `ResolverScopeCache`: kept until a reset.
        case cache
        /// `ResolverScopeShare`: kept while someone else holds it.
        case shared
        /// `ResolverScopeTimeToLive`: kept until a reset, or until its life
        /// has passed, then built again. (Beside the other two caching
        /// kinds: `keepsInstances` is then one range check on the hot path.)
        case timeToLive
        /// `ResolverScopeContainer`: the resolving container's `cache`.
        case container
        /// A subclass the app wrote: its `resolve(registration:resolver:args:)`.
        case custom
    }
}

extension ResolverScope.Kind {
    /// How a resolve gets an instance that the scope does not already hold.
    @usableFromInline
    enum Strategy {
        /// Make a new instance (`.unique`).
        case newInstance
        /// The instance made earlier in this top-level resolution, or a new
        /// one remembered for the rest of it (`.graph`).
        case perResolution
        /// Build it once (the first asker builds, the others wait for its
        /// instance) and keep it in the scope's table, for this generation of
        /// the scope (DESIGN.md, S1).
        case buildOnceAndKeep
        /// Resolve through the container's `cache` (`.container`; the resolve
        /// path substitutes it before it gets here).
        case containerCache
        /// Call the scope's own `resolve(registration:resolver:args:)`.
        case delegate
    }

    /// How a resolve gets an instance this scope does not hold.
    @inlinable
    var strategy: Strategy {
        switch self {
        case .unique: return .newInstance
        case .graph: return .perResolution
        case .cache, .shared, .timeToLive: return .buildOnceAndKeep
        case .container: return .containerCache
        case .custom: return .delegate
        }
    }

    /// Whether the scope has a table of instances (under the registration's
    /// key), searched by resolves without a lock.
    @inlinable
    var keepsInstances: Bool {
        switch self {
        case .cache, .shared, .timeToLive: return true
        case .unique, .graph, .container, .custom: return false
        }
    }

    /// Whether its table holds an instance weakly (in a `WeakBox`, class
    /// instances only): the entry outlives the object, and reads check it.
    @inlinable
    var holdsInstancesWeakly: Bool {
        switch self {
        case .shared: return true
        case .cache, .timeToLive, .unique, .graph, .container, .custom: return false
        }
    }

    /// Whether its table holds each instance with the time it expires (in an
    /// `ExpiringBox`): an expired entry counts as absent wherever the table
    /// is read, and the next asker builds again (DESIGN.md, "Caching scopes:
    /// time to live"). Reading a live one reads the scope's clock once.
    @inlinable
    var instancesExpire: Bool {
        switch self {
        case .timeToLive: return true
        case .cache, .shared, .unique, .graph, .container, .custom: return false
        }
    }

    /// Whether a thread's cache may remember an instance found in the
    /// scope's table. The thread cache is emptied by every write under the
    /// registry mutex (a reset, a store, a replaced registration: DESIGN.md,
    /// T1); an instance that can go without such a write (a `.shared` object
    /// whose last owner lets go) must not be remembered there, nor one that
    /// expires (a time-to-live instance: its entry is read without the
    /// clock there).
    @inlinable
    var threadCacheMayKeep: Bool {
        switch self {
        case .cache: return true
        case .shared, .timeToLive, .unique, .graph, .container, .custom: return false
        }
    }

    /// Whether a registration may remember where its instance sits in the
    /// scope's table (`CacheMemo`). A memo is valid while the scope's
    /// generation is the one it recorded: every reset and every entry that
    /// leaves the table moves the generation on (DESIGN.md, S2, S3).
    ///
    /// Not a time-to-live scope's: a memo is read without the clock, and
    /// its scope replaces an expired entry in place, without a new
    /// generation. A generation that stays put while an entry leaves would
    /// leave a memo of it pointing at a released object.
    @inlinable
    var memoMayKeep: Bool {
        switch self {
        case .cache, .shared: return true
        case .timeToLive, .unique, .graph, .container, .custom: return false
        }
    }

    /// Whether an entry that a store finds in the table leaves it through a
    /// change of entries (a new generation: `changeEntriesLocked`), for the
    /// memos that may point at it; false where no memo can (S2).
    @inlinable
    var replacingAnEntryStartsAGeneration: Bool {
        memoMayKeep
    }
}

extension ResolverScope {
    /// A new scope of this one's kind with tables of its own (a time-to-live
    /// scope with the same life and clock), for a verification's sandbox,
    /// which must neither make nor replace the app's instances; nil for the
    /// kinds that keep nothing.
    func makeSandboxCopy() -> ResolverScope? {
        switch kind {
        case .cache: return ResolverScopeCache()
        case .shared: return ResolverScopeShare()
        case .timeToLive:
            // Only a `ResolverScopeTimeToLive` is of this kind, and one exists
            // only where its class is available: the check always passes.
            if #available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *),
               let scope = self as? ResolverScopeTimeToLive {
                return scope.makeCopy()
            }
            return nil
        case .unique, .graph, .container, .custom: return nil
        }
    }
}
