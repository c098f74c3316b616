import CRegistry

// Resolver.withRoot: a root for one task and the tasks it starts, so that
// tests running in parallel each resolve from a container of their own.

extension Resolver {
    /// The root set by `withRoot(_:operation:)` for the current task (and
    /// its child tasks), or for the calling thread where no task runs.
    @TaskLocal
    @usableFromInline
    static var rootOverride: Resolver?

    /// Runs `operation` with `container` as the root for the current task and
    /// every child task it starts (task-local semantics), and for the calling
    /// thread where no task is running.
    ///
    /// Inside it, the static `resolve`/`optional`, `Resolver.root` and every
    /// property wrapper without an explicit container use `container`; other
    /// tasks and threads keep the app-wide root. Combine it with a container
    /// that keeps its singletons to itself:
    ///
    /// ```swift
    /// let mocks = Resolver(child: .main, isolatedScopes: true)
    /// mocks.register { MockAPI() as API }
    /// Resolver.withRoot(mocks) {
    ///     let model = ProfileViewModel()   // @Injected var api: API gets MockAPI
    /// }
    /// ```
    ///
    /// While no `withRoot` call is running anywhere, a resolve pays one load
    /// for this feature.
    public static func withRoot<Result>(_ container: Resolver, operation: () throws -> Result) rethrows -> Result {
        crg_word_add(Published.detours, 1)
        defer { crg_word_add(Published.detours, UInt64.max) }
        return try $rootOverride.withValue(container, operation: operation)
    }

    /// Runs the async `operation` with `container` as the root for the current
    /// task and every child task it starts (see the synchronous overload).
    public static func withRoot<Result>(_ container: Resolver, isolation: isolated (any Actor)? = #isolation,
                                        operation: () async throws -> Result) async rethrows -> Result {
        crg_word_add(Published.detours, 1)
        defer { crg_word_add(Published.detours, UInt64.max) }
        return try await $rootOverride.withValue(container, operation: operation, isolation: isolation)
    }

    /// The root a static resolve uses now: the task's override, a
    /// verification's sandbox on the threads that verify, or nil for the
    /// app-wide root.
    @usableFromInline
    @inline(never)
    static func currentOverride() -> Resolver? {
        if let root = rootOverride {
            return root
        }
        return ResolutionContext.existing?.verification?.sandbox
    }
}

/// A container's own caches for the three app-wide caching scopes (see
/// `Resolver(child:isolatedScopes:)`): the resolve path substitutes them for
/// the app-wide ones when it resolves through that container. A
/// verification's sandbox also substitutes copies of every other caching
/// scope (custom `ResolverScopeCache`s and `ResolverScopeShare`s), made on
/// first use.
@usableFromInline
final class IsolatedScopes: @unchecked Sendable {
    @usableFromInline let applicationRaw: UnsafeMutableRawPointer
    @usableFromInline let cachedRaw: UnsafeMutableRawPointer
    @usableFromInline let sharedRaw: UnsafeMutableRawPointer
    @usableFromInline let application: UnsafeMutableRawPointer
    @usableFromInline let cached: UnsafeMutableRawPointer
    @usableFromInline let shared: UnsafeMutableRawPointer
    @usableFromInline let isolatesEveryCache: Bool
    private let scopes: [ResolverScope]
    /// The copies of other caching scopes, by the original's address
    /// (guarded by the registry mutex; the originals are held, so no address
    /// is reused while its copy is here).
    private var copies: [UnsafeMutableRawPointer: (original: ResolverScope, copy: ResolverScope)] = [:]

    init(everyCache: Bool = false) {
        let scopes: [ResolverScope] = [ResolverScopeCache(), ResolverScopeCache(), ResolverScopeShare()]
        self.scopes = scopes
        isolatesEveryCache = everyCache
        applicationRaw = Unmanaged.passUnretained(ResolverScope.application).toOpaque()
        cachedRaw = Unmanaged.passUnretained(ResolverScope.cached).toOpaque()
        sharedRaw = Unmanaged.passUnretained(ResolverScope.shared).toOpaque()
        application = Unmanaged.passUnretained(scopes[0]).toOpaque()
        cached = Unmanaged.passUnretained(scopes[1]).toOpaque()
        shared = Unmanaged.passUnretained(scopes[2]).toOpaque()
    }

    /// The scope to use instead of the one at `scopeRaw` for the isolated
    /// scopes at `raw` (read section).
    @inlinable
    @inline(__always)
    static func substitute(_ raw: UnsafeMutableRawPointer, _ scopeRaw: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        unowned(unsafe) let isolated = Unmanaged<IsolatedScopes>.fromOpaque(raw).takeUnretainedValue()
        if scopeRaw == isolated.applicationRaw { return isolated.application }
        if scopeRaw == isolated.cachedRaw { return isolated.cached }
        if scopeRaw == isolated.sharedRaw { return isolated.shared }
        if isolated.isolatesEveryCache {
            return isolated.copy(of: scopeRaw)
        }
        return scopeRaw
    }

    /// This sandbox's copy of the caching scope at `scopeRaw` (made on first
    /// use), or `scopeRaw` itself for a scope that does not cache.
    @usableFromInline
    func copy(of scopeRaw: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        let kind = ResolverScope.kind(scopeRaw)
        guard kind == .cache || kind == .shared else {
            return scopeRaw
        }
        if scopes.contains(where: { Unmanaged.passUnretained($0).toOpaque() == scopeRaw }) {
            return scopeRaw
        }
        return registry.withLock {
            if let found = copies[scopeRaw] {
                return Unmanaged.passUnretained(found.copy).toOpaque()
            }
            if copies.values.contains(where: { Unmanaged.passUnretained($0.copy).toOpaque() == scopeRaw }) {
                return scopeRaw
            }
            let original = Unmanaged<ResolverScope>.fromOpaque(scopeRaw).takeUnretainedValue()
            let copy: ResolverScope = kind == .shared ? ResolverScopeShare() : ResolverScopeCache()
            copies[scopeRaw] = (original, copy)
            return Unmanaged.passUnretained(copy).toOpaque()
        }
    }
}
