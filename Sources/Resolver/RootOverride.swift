// Resolver.withRoot: a root for one task and the tasks it starts, so that
// tests running in parallel each resolve from a container of their own.

extension Resolver {
    /// The root set by `withRoot(_:operation:)` for the current task (and
    /// its child tasks), or for the calling thread where no task runs.
    @TaskLocal
    @usableFromInline
    static var rootOverride: Resolver?

    /// Runs `operation` with `container` as the root for the current task and every child task it
    /// starts (task-local), and for the calling thread where no task is running.
    ///
    /// Inside it, the static `resolve`/`optional`, `Resolver.root` and every property wrapper
    /// without an explicit container use `container`; other tasks and threads keep the app-wide
    /// root. Combine it with a container that keeps its singletons to itself:
    ///
    /// ```swift
    /// let mocks = Resolver(child: .main, isolatedScopes: true)
    /// mocks.register { MockAPI() as API }
    /// Resolver.withRoot(mocks) {
    ///     let model = ProfileViewModel()   // @Injected var api: API gets MockAPI
    /// }
    /// ```
    ///
    /// While no `withRoot` call is running anywhere, a resolve pays one load for this feature.
    public static func withRoot<Result>(_ container: Resolver, operation: () throws -> Result) rethrows -> Result {
        try Published.withDetour {
            try $rootOverride.withValue(container, operation: operation)
        }
    }

    /// Runs the async `operation` with `container` as the root for the current
    /// task and every child task it starts (see the synchronous overload).
    public static func withRoot<Result>(_ container: Resolver, isolation: isolated (any Actor)? = #isolation,
                                        operation: () async throws -> Result) async rethrows -> Result {
        Published.detours.increment()
        defer { Published.detours.decrement() }
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
