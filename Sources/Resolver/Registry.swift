import CRegistry

/// The process-wide state behind the static API.
///
/// One recursive mutex, `mutex`, guards everything shared: the fields below,
/// every container's C table and child list, every scope cache, and every
/// registration's factory and scope. Container tables and scope tables are
/// created on this same mutex, so a resolve does its whole lookup (root,
/// registration, scope, cached instance) under a single lock/unlock pair.
///
/// The mutex is held only for those table operations, never while user code
/// runs (factories, `resolveProperties` blocks, `registerAllServices`,
/// deinits of released instances): a factory may wait for another thread
/// that resolves in turn without deadlocking.
@usableFromInline
final class Registry: @unchecked Sendable {
    /// The registry. Code on the resolve path uses `registryReference`
    /// instead, which reaches it without reference counting.
    @usableFromInline static var shared: Registry {
        registryReference.takeUnretainedValue()
    }

    @usableFromInline let mutex: OpaquePointer

    // Every field below is guarded by `mutex`, so dynamic exclusivity checks
    // would only repeat what the mutex already ensures.

    /// `registerAllServices` has yet to run (again, after `reset()`).
    @exclusivity(unchecked) @usableFromInline var registrationPending = true
    /// The thread running `registerAllServices`, while it runs.
    @exclusivity(unchecked) var registrationRunner: ResolutionContext?

    @exclusivity(unchecked) @usableFromInline var main: Resolver
    @exclusivity(unchecked) var root: Resolver {
        didSet { rootReference = Unmanaged.passUnretained(root) }
    }
    /// `root` without ownership, so the resolve path reads it without
    /// reference counting; valid while the mutex is held.
    @exclusivity(unchecked) @usableFromInline var rootReference: Unmanaged<Resolver>
    /// nil means `.graph`; kept lazy so that creating the registry does not
    /// create the scopes.
    @exclusivity(unchecked) @usableFromInline var defaultScope: ResolverScope?
    @exclusivity(unchecked) @usableFromInline var decorate: ((_ service: Any) -> Void)?
    @exclusivity(unchecked) var registerServices: (() -> Void)?
    /// Receives every failure message before the program stops (tests).
    @exclusivity(unchecked) var failureHook: ((String) -> Void)?

    fileprivate init() {
        guard let mutex = crg_mutex_create() else {
            fatalError("RESOLVER: could not create the registry mutex")
        }
        self.mutex = mutex
        let main = Resolver(mutex: mutex, allocator: nil)
        self.main = main
        self.root = main
        self.rootReference = Unmanaged.passUnretained(main)
        self.registerServices = { Registry.shared.registerServicesIfPending() }
    }

    @inlinable
    func lock() {
        crg_mutex_lock(mutex)
    }

    @inlinable
    func unlock() {
        crg_mutex_unlock(mutex)
    }

    @inlinable
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Sets `field` of `object`, a field the mutex guards. The value it
    /// replaces is released after unlocking: releasing can run deinits (a
    /// scope's cached instances, whatever a closure captured), and user code
    /// must not run inside the registry.
    func set<Root: AnyObject, Value>(_ field: ReferenceWritableKeyPath<Root, Value>, of object: Root, to value: Value) {
        let previous = withLock { () -> Value in
            let previous = object[keyPath: field]
            object[keyPath: field] = value
            return previous
        }
        withExtendedLifetime(previous) {}
    }

    /// Sets one of the registry's own fields (see `set(_:of:to:)`).
    func set<Value>(_ field: ReferenceWritableKeyPath<Registry, Value>, to value: Value) {
        set(field, of: self, to: value)
    }

    /// Waits on the mutex's condition variable. The mutex must be held once.
    func wait(for what: @autoclosure () -> String) {
        if crg_mutex_wait(mutex) != 0 {
            resolverFailure("RESOLVER: cannot wait for \(what()) while this thread is already inside the registry (resolving from a deinit of an instance the registry released?).")
        }
    }

    func broadcast() {
        crg_mutex_broadcast(mutex)
    }

    /// Runs `registerAllServices` if it is pending. Called, and returns, with
    /// the mutex held once. Other threads wait until it has run; resolves made
    /// by the running thread from inside it go ahead.
    @usableFromInline
    @inline(never)
    func runPendingRegistration() {
        let me = ResolutionContext.current
        while registrationPending {
            if let runner = registrationRunner {
                if runner === me {
                    return
                }
                wait(for: "registerAllServices() on another thread")
                continue
            }
            registrationRunner = me
            unlock()
            if let registering = Resolver.self as Any.Type as? ResolverRegistering.Type {
                registering.registerAllServices()
            }
            lock()
            registrationRunner = nil
            registrationPending = false
            broadcast()
        }
    }

    func registerServicesIfPending() {
        withLock {
            if registrationPending {
                runPendingRegistration()
            }
        }
    }

    /// Reports that registering `type` under `name` ran out of memory in the
    /// C table (which is left as it was).
    @usableFromInline
    func reportRecoverable(outOfMemoryRegistering type: Any.Type, _ name: Resolver.Name?, _ rc: Int32) {
        reportRecoverable("RESOLVER: could not register '\(describe(type, name))': out of memory (error \(rc)). The previous registration, if any, is unchanged.")
    }

    /// Reports a failure the caller can survive (an allocation failure while
    /// registering): to the failure hook when one is set (tests), otherwise
    /// the program stops.
    func reportRecoverable(_ message: String) {
        guard let hook = withLock({ failureHook }) else {
            fatalError(message)
        }
        hook(message)
    }
}

/// The one registry, never released, as a reference-count-free handle.
@usableFromInline
let registryReference = Unmanaged.passRetained(Registry())

/// Stops the program with `message`, after passing it to the failure hook.
@usableFromInline
func resolverFailure(_ message: String, file: StaticString = #file, line: UInt = #line) -> Never {
    let registry = Registry.shared
    registry.withLock { registry.failureHook }?(message)
    fatalError(message, file: file, line: line)
}

/// "Type" or "Type:name".
func describe(_ type: Any.Type, _ name: Resolver.Name?) -> String {
    guard let name else { return String(describing: type) }
    return "\(type):\(name.rawValue)"
}
