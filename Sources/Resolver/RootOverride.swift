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
        crg_word_add(Published.overrides, 1)
        defer { crg_word_add(Published.overrides, UInt64.max) }
        return try $rootOverride.withValue(container, operation: operation)
    }

    /// Runs the async `operation` with `container` as the root for the current
    /// task and every child task it starts (see the synchronous overload).
    public static func withRoot<Result>(_ container: Resolver, isolation: isolated (any Actor)? = #isolation,
                                        operation: () async throws -> Result) async rethrows -> Result {
        crg_word_add(Published.overrides, 1)
        defer { crg_word_add(Published.overrides, UInt64.max) }
        return try await $rootOverride.withValue(container, operation: operation, isolation: isolation)
    }

    /// The root a static resolve uses now: the task's override, or nil for
    /// the app-wide root.
    @usableFromInline
    @inline(never)
    static func currentOverride() -> Resolver? {
        rootOverride
    }
}

/// A container's own caches for the three app-wide caching scopes (see
/// `Resolver(child:isolatedScopes:)`): the resolve path substitutes them for
/// the app-wide ones when it resolves through that container.
@usableFromInline
final class IsolatedScopes: @unchecked Sendable {
    @usableFromInline let applicationRaw: UnsafeMutableRawPointer
    @usableFromInline let cachedRaw: UnsafeMutableRawPointer
    @usableFromInline let sharedRaw: UnsafeMutableRawPointer
    @usableFromInline let application: UnsafeMutableRawPointer
    @usableFromInline let cached: UnsafeMutableRawPointer
    @usableFromInline let shared: UnsafeMutableRawPointer
    private let scopes: [ResolverScope]

    init() {
        let scopes: [ResolverScope] = [ResolverScopeCache(), ResolverScopeCache(), ResolverScopeShare()]
        self.scopes = scopes
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
        return scopeRaw
    }
}
