import CRegistry

/// The process-wide state behind the static API (DESIGN.md).
///
/// Writers hold `mutex`, one recursive pthread mutex shared by every
/// container's and scope's table: registering, resets, changing `root`,
/// `main`, `defaultScope` or `decorate`, adding children, storing a cached
/// instance. It is held for table operations only, never while user code runs.
///
/// Readers take no lock. What a resolve needs of this object is published in
/// process-wide fields (`Published`) with release stores (under the mutex) and
/// read with acquire loads, inside a read section: `root` (unretained: the
/// `root` field owns it, and a replaced root is retired, not released),
/// `decorate`, and whether registration is done.
@usableFromInline
final class Registry: @unchecked Sendable {
    @usableFromInline let mutex: Mutex

    // Guarded by `mutex`.
    @usableFromInline @exclusivity(unchecked) private(set) var main: Resolver
    private(set) var root: Resolver
    /// nil means `.graph` (read when registering).
    @usableFromInline @exclusivity(unchecked) var defaultScope: ResolverScope?
    private(set) var decorate: DecorateBox?
    var registerServices: (() -> Void)?
    /// Receives every failure message before the program stops (tests).
    var failureHook: ((String) -> Void)?
    /// Receives every warning instead of standard error (tests).
    var warningHook: ((String) -> Void)?
    /// How many elements `register(into:)` has added to each list (type
    /// identity of `[Element]`, and name), for the elements' names.
    var elementsAdded: [CollectionKey: Int] = [:]

    /// Registration generations: `reset()` bumps `wantedGeneration`; a run of
    /// `registerAllServices` completes only the generation it started for.
    private var wantedGeneration: UInt64 = 1
    private var completedGeneration: UInt64 = 0
    /// The thread running `registerAllServices`, while it runs.
    private var registrationRunner: ResolutionContext?
    /// Signalled when a run of `registerAllServices` ends.
    private let registrationEnded = Condition()

    fileprivate init() {
        mutex = Mutex.make()
        // Its critical sections step the version that validates every
        // thread's cache (`ThreadCache`).
        mutex.stepsThreadCacheVersion()
        // A thread that exits leaves its record's resolution state empty.
        crg_thread_set_exit_callback(ResolutionState.cleanup)
        let main = Resolver(mutex: mutex)
        self.main = main
        self.root = main
        Published.root.store(UncheckedReference(main))
        registerServices = { registry.ensureRegistered() }
    }

    /// Runs `body` holding the mutex.
    @inlinable
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try mutex.withLock(body)
    }

    /// Stops a debug build of the library when the calling thread does not
    /// hold the mutex: every `…Locked` function checks it first (DESIGN.md,
    /// L1). Release builds check nothing.
    @usableFromInline
    func assertLocked(_ function: StaticString = #function) {
        assert(mutex.isHeldByCurrentThread, "RESOLVER: \(function) called without the registry mutex")
    }

    /// Runs `body` under the mutex, then releases whatever it retired (with
    /// the mutex unlocked: releases run deinits). Inlinable, so that what
    /// `body` returns (a registration with its container, say) is not
    /// passed through unspecialized generic code.
    @inlinable
    func write<Result>(_ body: () throws -> Result) rethrows -> Result {
        defer { collectRetired() }
        return try withLock(body)
    }

    // MARK: - Published state

    /// Makes `container` the root. The mutex must be held; the registry's
    /// reference to the old root is retired.
    func setRootLocked(_ container: Resolver) {
        assertLocked()
        guard container !== root else { return }
        retire(root)
        root = container
        Published.root.store(UncheckedReference(container))
    }

    /// Makes `container` the container static registrations go to. The mutex
    /// must be held.
    func setMainLocked(_ container: Resolver) {
        assertLocked()
        guard container !== main else { return }
        retire(main)
        main = container
    }

    /// The decorator a resolve calls: set in DEBUG builds of this library
    /// only, as on the synchronous path. The mutex must be held.
    var decorateWhenResolving: ((_ service: Any) -> Void)? {
        #if DEBUG
        return decorate?.decorate
        #else
        return nil
        #endif
    }

    func setDecorate(_ decorate: ((_ service: Any) -> Void)?) {
        write {
            if let old = self.decorate {
                retire(old)
            }
            let box = decorate.map(DecorateBox.init)
            self.decorate = box
            // Called in DEBUG builds only, as by the original: the check is in
            // the library (built in the app's configuration by SwiftPM), not in
            // inlinable code, so every resolve path agrees.
            #if DEBUG
            Published.decorate.store(box.map(UncheckedReference.init))
            #endif
        }
    }

    // MARK: - registerAllServices

    /// Runs `registerAllServices` for the current generation if it has not
    /// run, or waits for the thread running it. A thread resolving from inside
    /// `registerAllServices` goes ahead: then it returns true. Call with the
    /// mutex not held, outside a read section (it may wait).
    @usableFromInline
    @inline(never)
    @discardableResult
    func ensureRegistered() -> Bool {
        let me = ResolutionContext.current
        defer { collectRetired() }
        // nil: waiting is impossible (failures are raised with the mutex
        // released: a verification's thread ends in one).
        let insideRegistration = withLock { () -> Bool? in
            while completedGeneration != wantedGeneration {
                if let runner = registrationRunner {
                    if runner === me {
                        return true
                    }
                    guard registrationEnded.wait(mutex) else {
                        return nil
                    }
                    continue
                }
                let generation = wantedGeneration
                registrationRunner = me
                mutex.withoutLock {
                    if let registering = Resolver.self as Any.Type as? ResolverRegistering.Type {
                        registering.registerAllServices()
                    }
                }
                registrationRunner = nil
                if wantedGeneration == generation {
                    completedGeneration = generation
                    Published.registered.store(1)
                }
                registrationEnded.broadcast()
            }
            return false
        }
        guard let insideRegistration else {
            resolverFailure("RESOLVER: cannot wait for registerAllServices() on another thread while this thread is inside the registry.")
        }
        return insideRegistration
    }

    /// Whether this thread is running `registerAllServices`.
    var isRegisteringOnThisThread: Bool {
        let me = ResolutionContext.existing
        return me != nil && withLock { registrationRunner === me }
    }

    /// `Resolver.reset()`: a new, empty `main` that is also `root`, the
    /// `.application`, `.cached` and `.shared` caches emptied, and a new
    /// registration generation (the gate closes before the new root is
    /// published, so no resolve sees the new root unregistered).
    func reset() {
        write {
            wantedGeneration += 1
            Published.registered.store(0)
            let main = Resolver(mutex: mutex)
            setMainLocked(main)
            setRootLocked(main)
            ResolverScope.application.resetLocked()
            ResolverScope.cached.resetLocked()
            ResolverScope.shared.resetLocked()
            KeyDefaults.resetLocked()
        }
    }

    // MARK: - Failures

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

    /// Says something the program may go on after: to the warning hook when
    /// one is set (tests), otherwise on standard error. Call with the mutex
    /// not held.
    func warn(_ message: String) {
        if let hook = withLock({ warningHook }) {
            hook(message)
            return
        }
        var standardError = StandardError()
        print(message, to: &standardError)
    }
}

/// The one registry, never released.
@usableFromInline
let registry = Registry()
