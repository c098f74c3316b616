extension ResolverScope {
    /// Which built-in behaviour a scope has, so the resolve path needs no
    /// dynamic call; each decision on it is an exhaustive `switch` below
    /// (DESIGN.md, "A scope kind's policy").
    @usableFromInline
    enum Kind: UInt8 {
        /// `ResolverScope` itself.
        case unique
        case graph
        case cache
        case shared
        /// Next to the other caching kinds: `keepsInstances` is one range check.
        case timeToLive
        case container
        /// A subclass the app wrote.
        case custom
    }
}

extension ResolverScope.Kind {
    /// How a resolve gets an instance the scope does not hold.
    @usableFromInline
    enum Strategy {
        case newInstance
        /// The instance of this top-level resolution, or a new one.
        case perResolution
        /// Built once and kept in the scope's table for its generation (S1).
        case buildOnceAndKeep
        /// The resolve path replaces the scope with the container's `cache`.
        case containerCache
        /// The scope's own `resolve(registration:resolver:args:)`.
        case delegate
    }

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

    /// Whether the scope has a table of instances, searched without a lock.
    @inlinable
    var keepsInstances: Bool {
        switch self {
        case .cache, .shared, .timeToLive: return true
        case .unique, .graph, .container, .custom: return false
        }
    }

    /// A `WeakBox` per entry (class instances only).
    @inlinable
    var holdsInstancesWeakly: Bool {
        switch self {
        case .shared: return true
        case .cache, .timeToLive, .unique, .graph, .container, .custom: return false
        }
    }

    /// An `ExpiringBox` per entry: an expired one is absent wherever the table is read.
    @inlinable
    var instancesExpire: Bool {
        switch self {
        case .timeToLive: return true
        case .cache, .shared, .unique, .graph, .container, .custom: return false
        }
    }

    /// Not an instance that leaves without a write under the mutex (a
    /// `.shared` object let go, an expired one), which a thread's cache would
    /// not see (T1).
    @inlinable
    var threadCacheMayKeep: Bool {
        switch self {
        case .cache: return true
        case .shared, .timeToLive, .unique, .graph, .container, .custom: return false
        }
    }

    /// Whether a registration may keep a memo of its entry (S3): not where a
    /// memo, read without the clock, could outlive an expired entry replaced
    /// in place (S2).
    @inlinable
    var memoMayKeep: Bool {
        switch self {
        case .cache, .shared: return true
        case .timeToLive, .unique, .graph, .container, .custom: return false
        }
    }
}

extension ResolverScope {
    /// A new scope of this kind with tables of its own (a time-to-live one
    /// with the same life and clock), for a verification's sandbox.
    func makeSandboxCopy() -> ResolverScope? {
        switch kind {
        case .cache: return ResolverScopeCache()
        case .shared: return ResolverScopeShare()
        case .timeToLive:
            // Only a `ResolverScopeTimeToLive`, which exists only where it is available, has this kind.
            if #available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *), let scope = self as? ResolverScopeTimeToLive {
                return scope.makeCopy()
            }
            return nil
        case .unique, .graph, .container, .custom: return nil
        }
    }
}
