import CRegistry

// The resolve path. It is @inlinable so that an app's `resolve()` calls are
// specialized for their service type in the app's own module: no generic
// metadata lookups at run time, and no dynamic casts (the registry key is the
// exact type, so what is found under it is known to be a
// `ResolverRegistration<Service>`).
//
// It takes no lock (DESIGN.md). Everything runs inside one read section: the
// registration gate, `root`, the registration (here or in a child), its scope,
// a cached instance, and the factory. Shared objects reached through published
// pointers (containers, registrations, scopes) are handled as raw pointers and
// read one field at a time through `unowned(unsafe)` references, which take no
// reference count: the read section keeps them alive. (A method call on such a
// reference would retain it, writing a cache line every resolving thread
// shares, so the path makes none.) The thread's own objects (its resolution
// context, its snapshot of `root`) are ordinary references, passed down.

/// What this thread's cache (`crg_tcache.h`) holds for a key: a cached
/// instance's value (as its scope's table stores it), or the registration
/// found for it, tagged in the low bit (both are at least 2-byte aligned), so
/// that a transient or graph resolve skips the table probe too.
@usableFromInline
enum ThreadCacheValue {
    @inlinable
    @inline(__always)
    static func isInstance(_ value: UnsafeMutableRawPointer) -> Bool {
        UInt(bitPattern: value) & 1 == 0
    }

    @inlinable
    @inline(__always)
    static func registration(_ value: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(bitPattern: UInt(bitPattern: value) & ~1).unsafelyUnwrapped
    }

    @inlinable
    @inline(__always)
    static func tagging(registration raw: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(bitPattern: UInt(bitPattern: raw) | 1).unsafelyUnwrapped
    }
}

/// The arguments of a resolve call on their way to a factory: a pointer to
/// the caller's `args:` value, or nil when the call passed none (or passed
/// nil, which factories read the same way). A call without arguments (the
/// common case) then carries nothing that needs destroying; the `Any?` is
/// read only by factories that take arguments.
@usableFromInline
typealias ArgumentsPointer = UnsafePointer<Any?>?

/// Calls `body` with `args` as an `ArgumentsPointer`.
@inlinable
func withArguments<Result>(_ args: Any?, _ body: (ArgumentsPointer) -> Result) -> Result {
    withUnsafePointer(to: args) { pointer in
        body(args == nil ? nil : pointer)
    }
}

extension Optional where Wrapped == UnsafePointer<Any?> {
    /// The `args:` value (nil when none was passed).
    @inlinable
    var value: Any? {
        guard let self else { return nil }
        return self.pointee
    }
}

extension Resolver {
    /// Resolves `Service` in `container` (nil: `root`): nil when nothing is
    /// registered or the factory returned nil.
    ///
    /// The fast path: in a read section, the registration gate and `root`,
    /// then this thread's cache of cached instances (`crg_tcache.h`): a hit
    /// costs one probe and no key. A miss goes on with what it loaded, by
    /// the full lookup, which fills the cache when it finds a cached
    /// instance.
    @inlinable
    static func resolveService<Service>(in container: Resolver?, name: Resolver.Name?, arguments: ArgumentsPointer) -> Service? {
        if crg_word_load(Published.detours) != 0 {
            return withRegistryKey(Service.self, name) { key in
                resolveWithDetour(key, in: container, arguments)
            }
        }
        crg_read_begin()
        guard let resolverRaw = registeredTarget(container) else {
            crg_read_end()
            return withRegistryKey(Service.self, name) { key in
                resolveAfterRegistering(key, in: container, arguments)
            }
        }
        let typeID = UInt64(UInt(bitPattern: ObjectIdentifier(Service.self)))
        let cached = crg_tcache_find(resolverRaw, typeID, name?.bytes, name?.hash ?? 0)
        if let cached, ThreadCacheValue.isInstance(cached) {
            let service = ValueStorage.value(at: cached, as: Service.self)
            crg_read_end()
            return service
        }
        let service: Service? = withRegistryKey(Service.self, name) { key in
            if let cached {
                // The registration, remembered: no table probe.
                return resolveFound(ThreadCacheValue.registration(cached), key, in: resolverRaw, given: container, arguments)
            }
            return resolveInReadSection(key, in: resolverRaw, given: container, arguments)
        }
        crg_read_end()
        return service
    }

    /// `resolveService` once the key is built.
    @inlinable
    static func resolveService<Service>(_ key: UnsafeMutablePointer<crg_key>, in container: Resolver?,
                                        _ arguments: ArgumentsPointer) -> Service? {
        if crg_word_load(Published.detours) != 0 {
            return resolveWithDetour(key, in: container, arguments)
        }
        return resolveDirectly(key, in: container, arguments)
    }

    /// Resolves from `container`, or from the app-wide root when it is nil.
    @inlinable
    @inline(__always)
    static func resolveDirectly<Service>(_ key: UnsafeMutablePointer<crg_key>, in container: Resolver?,
                                         _ arguments: ArgumentsPointer) -> Service? {
        crg_read_begin()
        guard let resolverRaw = registeredTarget(container) else {
            crg_read_end()
            return resolveAfterRegistering(key, in: container, arguments)
        }
        let service: Service? = resolveInReadSection(key, in: resolverRaw, given: container, arguments)
        crg_read_end()
        return service
    }

    /// The container to search: `container`, or the root when it is nil;
    /// nil while `registerAllServices` has yet to run (the caller takes the
    /// slow way, `withRegisteredTarget`). Call inside a read section.
    @inlinable
    @inline(__always)
    static func registeredTarget(_ container: Resolver?) -> UnsafeMutableRawPointer? {
        // Not `if let`: binding the container copies it, a retain and release
        // of an object every thread resolving from it writes.
        if container != nil {
            guard crg_word_load(Published.registered) != 0 else {
                return nil
            }
            return Unmanaged.passUnretained(container.unsafelyUnwrapped).toOpaque()
        }
        return loadRegisteredRoot()
    }

    /// Finds the registration for `key` from the container at `resolverRaw`
    /// and resolves it (then the decorator, in DEBUG builds). Call inside a
    /// read section; `given` is the container the caller holds, if any.
    @inlinable
    @inline(__always)
    static func resolveInReadSection<Service>(_ key: UnsafeMutablePointer<crg_key>, in resolverRaw: UnsafeMutableRawPointer,
                                              given container: Resolver?, _ arguments: ArgumentsPointer) -> Service? {
        var found: UnsafeMutableRawPointer?
        guard crg_container_find(Resolver.storage(resolverRaw), key, &found) == 0 else {
            return nil
        }
        let raw = found.unsafelyUnwrapped
        crg_tcache_fill(resolverRaw, key.pointee.type, key.pointee.name, key.pointee.name_hash,
                        ThreadCacheValue.tagging(registration: raw))
        return resolveFound(raw, key, in: resolverRaw, given: container, arguments)
    }

    /// Resolves the registration at `raw`, found for `key` from the container
    /// at `resolverRaw` (in its table, or in this thread's cache). A cached
    /// instance found in a `.cache` scope is remembered in this thread's
    /// cache. Call inside a read section.
    @inlinable
    @inline(__always)
    static func resolveFound<Service>(_ raw: UnsafeMutableRawPointer, _ key: UnsafeMutablePointer<crg_key>,
                                      in resolverRaw: UnsafeMutableRawPointer, given container: Resolver?,
                                      _ arguments: ArgumentsPointer) -> Service? {
        let scopeRaw = ResolverRegistration<Service>.effectiveScope(raw, resolverRaw)
        let kind = ResolverScope.kind(scopeRaw)
        if kind == .cache || kind == .shared, let entry = ResolverRegistration<Service>.cachedEntry(raw, scopeRaw, key),
           let service = ResolverScope.service(inEntry: entry, of: kind, as: Service.self) {
            let decorate = crg_cell_load(Published.decorate)
            if kind == .cache && decorate == nil {
                // `.shared` holds weak boxes, whose objects may go: not cached.
                crg_tcache_fill(resolverRaw, key.pointee.type, key.pointee.name, key.pointee.name_hash, entry)
            }
            if let decorate {
                DecorateBox.call(decorate, with: service)
            }
            return service
        }
        let service: Service? = ResolverRegistration<Service>.resolveUncached(raw, through: scopeRaw, key, resolverRaw,
                                                                              given: container, arguments)
        // The decorator cell first: binding `service` copies it (a retain).
        if let decorate = crg_cell_load(Published.decorate), let service {
            DecorateBox.call(decorate, with: service)
        }
        return service
    }

    /// A resolve while something, in this thread or another, asks resolves
    /// to take a detour (`Published.detours`): a `withRoot` call (a static
    /// resolve uses this task's root, if it has one), a verification (its
    /// threads resolve from its sandbox) or graph recording (the resolve is
    /// recorded as an edge from the factory asking for it).
    @inlinable
    @inline(never)
    static func resolveWithDetour<Service>(_ key: UnsafeMutablePointer<crg_key>, in container: Resolver?,
                                           _ arguments: ArgumentsPointer) -> Service? {
        let target = container ?? currentOverride()
        GraphRecorder.recordResolve(of: Service.self, key)
        return resolveDirectly(key, in: target, arguments)
    }

    /// The root, if `registerAllServices` has run for it; nil while it has
    /// yet to (or before the registry exists). Call inside a read section.
    ///
    /// `reset()` clears the registration flag before it publishes the new
    /// root, and `registerAllServices` sets it after it registered into that
    /// root. Loading the root, the flag, then the root again (acquire loads
    /// all) rules out pairing a root with a flag set for a later root: the
    /// flag of a later generation is stored after that generation's root, so
    /// the second load would see the later root.
    @inlinable
    @inline(__always)
    static func loadRegisteredRoot() -> UnsafeMutableRawPointer? {
        let root = crg_cell_load(Published.root)
        guard crg_word_load(Published.registered) != 0, crg_cell_load(Published.root) == root else {
            return nil
        }
        return root
    }

    /// The slow path while `registerAllServices` has yet to run (or before
    /// the registry exists): run it (or wait for the thread running it), then
    /// resolve. Resolves made from inside `registerAllServices` come here too,
    /// and resolve from the container being registered. A `reset()` landing
    /// meanwhile sends a resolve from `root` round again, so it never looks
    /// in a root whose registration has yet to finish.
    @usableFromInline
    @inline(never)
    static func resolveAfterRegistering<Service>(_ key: UnsafeMutablePointer<crg_key>, in container: Resolver?,
                                                 _ arguments: ArgumentsPointer) -> Service? {
        withRegisteredTarget(container) { resolverRaw in
            resolveInReadSection(key, in: resolverRaw, given: container, arguments)
        }
    }

    /// Runs `registerAllServices` (or waits for the thread running it), then
    /// `body` in a read section with the container to search: `container`,
    /// or the root; from inside `registerAllServices`, the root being
    /// registered. A `reset()` landing meanwhile sends it round again.
    @usableFromInline
    static func withRegisteredTarget<Result>(_ container: Resolver?,
                                             _ body: (UnsafeMutableRawPointer) -> Result) -> Result {
        while true {
            let insideRegistration = registry.ensureRegistered()
            crg_read_begin()
            let resolverRaw: UnsafeMutableRawPointer
            if let container {
                resolverRaw = Unmanaged.passUnretained(container).toOpaque()
            } else if insideRegistration, let root = crg_cell_load(Published.root) {
                resolverRaw = root
            } else if let root = loadRegisteredRoot() {
                resolverRaw = root
            } else {
                crg_read_end()
                continue
            }
            let result = body(resolverRaw)
            crg_read_end()
            return result
        }
    }

    /// The C container of the container at `raw` (read section).
    @inlinable
    @inline(__always)
    static func storage(_ raw: UnsafeMutableRawPointer) -> OpaquePointer {
        unowned(unsafe) let resolver = Unmanaged<Resolver>.fromOpaque(raw).takeUnretainedValue()
        return resolver.storage
    }

    /// The cells of the container at `raw` (read section).
    @inlinable
    @inline(__always)
    static func cells(_ raw: UnsafeMutableRawPointer) -> UnsafeMutablePointer<crg_cell> {
        unowned(unsafe) let resolver = Unmanaged<Resolver>.fromOpaque(raw).takeUnretainedValue()
        return resolver.cells
    }

    /// The isolated scopes of the container at `raw`, if it has them (read section).
    @inlinable
    @inline(__always)
    static func isolatedScopes(_ raw: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        unowned(unsafe) let resolver = Unmanaged<Resolver>.fromOpaque(raw).takeUnretainedValue()
        // The pointer, not the optional reference: reading that would retain
        // and release an object every thread resolving through it shares.
        return resolver.isolatedScopesRaw
    }
}

extension ResolverRegistration {
    /// Resolves the registration at `raw` through its scope. Call inside a
    /// read section; `key` is the registration's key, `resolverRaw` the
    /// container resolve was called on (`given`, when the caller holds it;
    /// else `root`).
    @inlinable
    @inline(__always)
    static func resolve(_ raw: UnsafeMutableRawPointer, _ key: UnsafeMutablePointer<crg_key>,
                        _ resolverRaw: UnsafeMutableRawPointer, given: Resolver?, _ arguments: ArgumentsPointer) -> Service? {
        let scopeRaw = effectiveScope(raw, resolverRaw)
        return resolve(raw, through: scopeRaw, key, resolverRaw, given: given, arguments)
    }

    /// The scope the registration at `raw` resolves through from the
    /// container at `resolverRaw`: its own, with `.container` replaced by
    /// that container's cache and the app-wide caches by the container's
    /// isolated ones. Call inside a read section.
    @inlinable
    @inline(__always)
    static func effectiveScope(_ raw: UnsafeMutableRawPointer, _ resolverRaw: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        var scopeRaw = crg_cell_load(cells(raw) + scopeCell).unsafelyUnwrapped
        if ResolverScope.kind(scopeRaw) == .container {
            scopeRaw = crg_cell_load(Resolver.cells(resolverRaw) + Resolver.cacheCell)
                ?? Resolver.makeCacheScope(resolverRaw)
        }
        if let isolated = Resolver.isolatedScopes(resolverRaw) {
            scopeRaw = IsolatedScopes.substitute(isolated, scopeRaw)
        }
        return scopeRaw
    }

    /// Resolves the registration at `raw` through the scope at `scopeRaw`
    /// (not `.container`, which the caller has replaced by the container's
    /// cache). Call inside a read section. Only a cached instance is found
    /// here; everything else is in `resolveUncached`, kept out of line so the
    /// cached path stays small.
    @inlinable
    @inline(__always)
    static func resolve(_ raw: UnsafeMutableRawPointer, through scopeRaw: UnsafeMutableRawPointer,
                        _ key: UnsafeMutablePointer<crg_key>, _ resolverRaw: UnsafeMutableRawPointer,
                        given: Resolver?, _ arguments: ArgumentsPointer) -> Service? {
        let kind = ResolverScope.kind(scopeRaw)
        if kind == .cache || kind == .shared, let entry = cachedEntry(raw, scopeRaw, key),
           let service = ResolverScope.service(inEntry: entry, of: kind, as: Service.self) {
            return service
        }
        return resolveUncached(raw, through: scopeRaw, key, resolverRaw, given: given, arguments)
    }

    /// The entry a caching scope holds for the registration at `raw`: the one
    /// its memo remembers, while the memo is for this scope and the scope's
    /// generation is the one it was made in; else from the scope's table (and
    /// the memo is renewed). Call inside a read section.
    ///
    /// A memo is made only with an even generation read before the probe
    /// (acquire): the entry was in the table then, and stays there while the
    /// generation keeps that value (a change makes it odd first). A memo made
    /// just as a change began is stale at once, and its entry, retired by
    /// the change, stays valid for this read section only.
    @inlinable
    @inline(__always)
    static func cachedEntry(_ raw: UnsafeMutableRawPointer, _ scopeRaw: UnsafeMutableRawPointer,
                            _ key: UnsafeMutablePointer<crg_key>) -> UnsafeMutableRawPointer? {
        let generation = crg_word_load(ResolverScope.generationWord(scopeRaw))
        if let memo = crg_cell_load(cells(raw) + memoCell), CacheMemo.isValid(memo, scopeRaw, generation) {
            return CacheMemo.entry(memo)
        }
        var entry: UnsafeMutableRawPointer?
        guard crg_find(ResolverScope.table(scopeRaw), key, &entry) == 0, let entry else {
            return nil
        }
        if generation & 1 == 0 {
            renewMemo(raw, scopeRaw, generation, entry)
        }
        return entry
    }

    /// Remembers `entry`, found in the scope at `scopeRaw` during
    /// `generation`, in the registration at `raw` (out of line: once per
    /// scope generation).
    @usableFromInline
    @inline(never)
    static func renewMemo(_ raw: UnsafeMutableRawPointer, _ scopeRaw: UnsafeMutableRawPointer, _ generation: UInt64,
                          _ entry: UnsafeMutableRawPointer) {
        let memo = Unmanaged.passRetained(CacheMemo(scope: scopeRaw, generation: generation, entry: entry)).toOpaque()
        let cell = cells(raw) + memoCell
        let old = crg_cell_load(cell)
        if crg_cell_compare_exchange(cell, old, memo) {
            if let old {
                retire(retained: old)
            }
        } else {
            // Another thread renewed it first; ours was never published.
            Unmanaged<CacheMemo>.fromOpaque(memo).release()
        }
    }

    /// Everything but a cached instance: build it once, make a new one, the
    /// graph scope, custom scopes. Out of line, specialized.
    @inlinable
    @inline(never)
    static func resolveUncached(_ raw: UnsafeMutableRawPointer, through scopeRaw: UnsafeMutableRawPointer,
                                _ key: UnsafeMutablePointer<crg_key>, _ resolverRaw: UnsafeMutableRawPointer,
                                given: Resolver?, _ arguments: ArgumentsPointer) -> Service? {
        switch ResolverScope.kind(scopeRaw) {
        case .cache, .shared:
            return buildOnce(raw, scopeRaw, key, resolverRaw, given: given, arguments)
        case .unique:
            return produce(raw, ResolutionContext.current, resolverRaw, given: given, arguments)
        case .graph:
            return produceInGraph(raw, ResolutionContext.current, resolverRaw, given: given, arguments)
        case .container, .custom:
            return resolveThroughCustomScope(raw, scopeRaw, resolverRaw, given: given, arguments)
        }
    }

    /// The graph scope: the instance made earlier in this thread's resolution,
    /// or a new one, remembered for the rest of it.
    @inlinable
    @inline(__always)
    static func produceInGraph(_ raw: UnsafeMutableRawPointer, _ context: ResolutionContext,
                               _ resolverRaw: UnsafeMutableRawPointer, given: Resolver?,
                               _ arguments: ArgumentsPointer) -> Service? {
        if context.isResolving, let found = context.graphInstance(of: raw, typeID: typeID(raw), as: Service.self) {
            return found
        }
        let service = produce(raw, context, resolverRaw, given: given, arguments)
        if context.isResolving, let service {
            context.rememberGraphInstance(service, of: raw, typeID: typeID(raw))
        }
        return service
    }

    /// Makes a new instance with the current factory, the registration on the
    /// thread's resolution stack: the thread's copy of the registered factory
    /// (`Producer`), or the one `update(factory:)` installed. A factory that
    /// takes the container gets the one the caller holds or the thread's
    /// snapshot of `root`. Call inside a read section.
    @inlinable
    @inline(__always)
    static func produce(_ raw: UnsafeMutableRawPointer, _ context: ResolutionContext,
                        _ resolverRaw: UnsafeMutableRawPointer, given: Resolver?, _ arguments: ArgumentsPointer) -> Service? {
        context.enter(raw, withArguments: arguments != nil)
        defer { context.leave() }
        if let replacement = crg_cell_load(cells(raw) + replacementCell) {
            let resolver = given ?? RootSnapshot.current(for: resolverRaw).root
            return FactoryBox.factory(replacement)(resolver, arguments.value)
        }
        return Producer.forCallingThread(raw).produce(given: given, root: resolverRaw, arguments)
    }

    /// A caching scope without the instance: build it once (slow path, with
    /// real references).
    @usableFromInline
    @inline(never)
    static func buildOnce(_ raw: UnsafeMutableRawPointer, _ scopeRaw: UnsafeMutableRawPointer,
                          _ key: UnsafeMutablePointer<crg_key>, _ resolverRaw: UnsafeMutableRawPointer,
                          given: Resolver?, _ arguments: ArgumentsPointer) -> Service? {
        let registration = Unmanaged<ResolverRegistration>.fromOpaque(raw).takeUnretainedValue()
        let scope = Unmanaged<ResolverScope>.fromOpaque(scopeRaw).takeUnretainedValue()
        let resolver = given ?? Unmanaged<Resolver>.fromOpaque(resolverRaw).takeUnretainedValue()
        return scope.buildOnce(registration, resolver, key, arguments)
    }

    /// A custom scope: call its `resolve(registration:resolver:args:)` with
    /// real references (slow path).
    @usableFromInline
    @inline(never)
    static func resolveThroughCustomScope(_ raw: UnsafeMutableRawPointer, _ scopeRaw: UnsafeMutableRawPointer,
                                          _ resolverRaw: UnsafeMutableRawPointer, given: Resolver?,
                                          _ arguments: ArgumentsPointer) -> Service? {
        let registration = Unmanaged<ResolverRegistration>.fromOpaque(raw).takeUnretainedValue()
        let scope = Unmanaged<ResolverScope>.fromOpaque(scopeRaw).takeUnretainedValue()
        let resolver = given ?? Unmanaged<Resolver>.fromOpaque(resolverRaw).takeUnretainedValue()
        return scope.resolve(registration: registration, resolver: resolver, args: arguments.value)
    }

    // Fields of the registration at `raw`, read without a reference count
    // (read section).

    @inlinable
    @inline(__always)
    static func cells(_ raw: UnsafeMutableRawPointer) -> UnsafeMutablePointer<crg_cell> {
        unowned(unsafe) let registration = Unmanaged<ResolverRegistration>.fromOpaque(raw).takeUnretainedValue()
        return registration.cells
    }

    @inlinable
    @inline(__always)
    static func typeID(_ raw: UnsafeMutableRawPointer) -> UInt64 {
        unowned(unsafe) let registration = Unmanaged<ResolverRegistration>.fromOpaque(raw).takeUnretainedValue()
        return registration.typeID
    }

    @inlinable
    @inline(__always)
    static func name(_ raw: UnsafeMutableRawPointer) -> Resolver.Name? {
        unowned(unsafe) let registration = Unmanaged<ResolverRegistration>.fromOpaque(raw).takeUnretainedValue()
        return registration.name
    }
}

extension ResolverScope {
    // Fields of the scope at `raw`, read without a reference count (read section).

    @inlinable
    @inline(__always)
    static func kind(_ raw: UnsafeMutableRawPointer) -> Kind {
        unowned(unsafe) let scope = Unmanaged<ResolverScope>.fromOpaque(raw).takeUnretainedValue()
        return scope.kind
    }

    @inlinable
    @inline(__always)
    static func table(_ raw: UnsafeMutableRawPointer) -> OpaquePointer {
        unowned(unsafe) let scope = Unmanaged<ResolverScope>.fromOpaque(raw).takeUnretainedValue()
        return scope.table.unsafelyUnwrapped
    }

    @inlinable
    @inline(__always)
    static func generationWord(_ raw: UnsafeMutableRawPointer) -> UnsafeMutablePointer<crg_word> {
        unowned(unsafe) let scope = Unmanaged<ResolverScope>.fromOpaque(raw).takeUnretainedValue()
        return scope.generationWord
    }
}

/// What a registration remembers of its cached instance: the entry the
/// scope's table held for its key, in which scope, during which generation.
/// While the scope's generation is unchanged the entry is still in the table
/// (entries leave only with a new generation), so a resolve can skip the
/// table. Immutable; a registration's memo is replaced (and the old one
/// retired) when it goes stale.
@usableFromInline
final class CacheMemo {
    @usableFromInline let scope: UnsafeMutableRawPointer
    @usableFromInline let generation: UInt64
    @usableFromInline let entry: UnsafeMutableRawPointer

    @usableFromInline
    init(scope: UnsafeMutableRawPointer, generation: UInt64, entry: UnsafeMutableRawPointer) {
        self.scope = scope
        self.generation = generation
        self.entry = entry
    }

    /// Whether the memo at `raw` is for the scope at `scopeRaw` in
    /// `generation` (read section).
    @inlinable
    @inline(__always)
    static func isValid(_ raw: UnsafeMutableRawPointer, _ scopeRaw: UnsafeMutableRawPointer, _ generation: UInt64) -> Bool {
        unowned(unsafe) let memo = Unmanaged<CacheMemo>.fromOpaque(raw).takeUnretainedValue()
        return memo.scope == scopeRaw && memo.generation == generation
    }

    @inlinable
    @inline(__always)
    static func entry(_ raw: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        unowned(unsafe) let memo = Unmanaged<CacheMemo>.fromOpaque(raw).takeUnretainedValue()
        return memo.entry
    }
}
