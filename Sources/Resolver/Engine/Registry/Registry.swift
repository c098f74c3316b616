import CRegistry

/// The process-wide state behind the static API. Writers hold `mutex`, one
/// recursive mutex shared by every container's and scope's table, for table
/// operations only; readers take no lock and read what they need in
/// `Published` (DESIGN.md, "Who touches what"; R3).
@usableFromInline
final class Registry: @unchecked Sendable {
    @usableFromInline let mutex: Mutex

    // Guarded by `mutex`.
    @usableFromInline @exclusivity(unchecked) private(set) var main: Resolver
    private(set) var root: Resolver
    /// nil: `.graph` (read when registering).
    @usableFromInline @exclusivity(unchecked) var defaultScope: ResolverScope?
    private(set) var decorate: DecorateBox?
    var registerServices: (() -> Void)?
    /// For tests: failures before the program stops, warnings instead of
    /// standard error.
    var failureHook: ((String) -> Void)?
    var warningHook: ((String) -> Void)?
    /// How many elements `register(into:)` has added to each list (to name them).
    var elementsAdded: [CollectionKey: Int] = [:]
    /// `reset()` bumps `wantedGeneration`; a run of `registerAllServices`
    /// (on `registrationRunner`) completes only the one it started for (G1).
    private var wantedGeneration: UInt64 = 1
    private var completedGeneration: UInt64 = 0
    private var registrationRunner: ResolutionContext?
    private let registrationEnded = Condition()

    fileprivate init() {
        mutex = Mutex.make()
        mutex.stepsThreadCacheVersion()
        // A thread that exits leaves its record's resolution state empty.
        crg_thread_set_exit_callback(ResolutionState.cleanup)
        let main = Resolver(mutex: mutex)
        self.main = main
        self.root = main
        Published.root.store(UncheckedReference(main))
        registerServices = { registry.ensureRegistered() }
    }

    @inlinable func withLock<Result>(_ body: () throws -> Result) rethrows -> Result { try mutex.withLock(body) }

    /// Stops a debug build when the calling thread does not hold the mutex:
    /// every `…Locked` function checks it first (L1).
    @usableFromInline
    func assertLocked(_ function: StaticString = #function) {
        assert(mutex.isHeldByCurrentThread, "RESOLVER: \(function) called without the registry mutex")
    }

    /// Runs `body` under the mutex, then releases what it retired (unlocked:
    /// deinits run). Inlinable, so what `body` returns skips generic code.
    @inlinable
    func write<Result>(_ body: () throws -> Result) rethrows -> Result {
        defer { collectRetired() }
        return try withLock(body)
    }

    func setRootLocked(_ container: Resolver) {
        assertLocked()
        guard container !== root else { return }
        retire(root)
        root = container
        Published.root.store(UncheckedReference(container))
    }

    /// Makes `container` the one static registrations go to.
    func setMainLocked(_ container: Resolver) {
        assertLocked()
        guard container !== main else { return }
        retire(main)
        main = container
    }

    /// The decorator a resolve calls (DEBUG builds of this library only).
    var decorateWhenResolving: ((_ service: Any) -> Void)? {
        #if DEBUG
        return decorate?.decorate
        #else
        return nil
        #endif
    }

    func setDecorate(_ decorate: ((_ service: Any) -> Void)?) {
        write {
            if let old = self.decorate { retire(old) }
            let box = decorate.map(DecorateBox.init)
            self.decorate = box
            // DEBUG builds only, as the original: checked in the library (built
            // in the app's configuration), not in inlinable code, so every
            // resolve path agrees.
            #if DEBUG
            Published.decorate.store(box.map(UncheckedReference.init))
            #endif
        }
    }

    /// Runs `registerAllServices` for the current generation, or waits for
    /// the thread running it (G1); true on that thread. Call unlocked, outside
    /// a read section.
    @usableFromInline @inline(never) @discardableResult
    func ensureRegistered() -> Bool {
        let me = ResolutionContext.current
        defer { collectRetired() }
        // nil: waiting is impossible (failures are raised with the mutex
        // released: a verification's thread ends in one).
        let insideRegistration = withLock { () -> Bool? in
            while completedGeneration != wantedGeneration {
                if let runner = registrationRunner {
                    if runner === me { return true }
                    guard registrationEnded.wait(mutex) else { return nil }
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
            fail("RESOLVER: cannot wait for registerAllServices() on another thread while this thread is inside the registry.")
        }
        return insideRegistration
    }

    var isRegisteringOnThisThread: Bool {
        let me = ResolutionContext.existing
        return me != nil && withLock { registrationRunner === me }
    }

    /// `Resolver.reset()`: a new, empty `main` that is also `root`, the
    /// built-in caches emptied, a new registration generation (the gate closes
    /// before the new root is published: G1). The new `main` has room for
    /// as many registrations as the one it replaces held: the next
    /// `registerAllServices` registers that batch again (a test suite runs it
    /// for every test), and its table grows once, here.
    func reset() {
        write {
            wantedGeneration += 1
            Published.registered.store(0)
            let batch = self.main.storage.table.countLocked
            let main = Resolver(mutex: mutex)
            main.storage.table.reserveLocked(batch)
            setMainLocked(main)
            setRootLocked(main)
            ResolverScope.application.resetLocked()
            ResolverScope.cached.resetLocked()
            ResolverScope.shared.resetLocked()
            KeyDefaults.resetLocked()
        }
    }

    @usableFromInline
    func reportRecoverable(outOfMemoryRegistering type: Any.Type, _ name: Resolver.Name?, _ failure: RegistryError) {
        reportRecoverable("RESOLVER: could not register '\(describe(type, name))': \(failure). The previous registration, if any, is unchanged.")
    }

    /// A failure the caller survives (out of memory): to the failure hook,
    /// else the program stops.
    func reportRecoverable(_ message: String) {
        guard let hook = withLock({ failureHook }) else { fatalError(message) }
        hook(message)
    }

    /// A warning: to the warning hook, else on standard error. Call unlocked.
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
