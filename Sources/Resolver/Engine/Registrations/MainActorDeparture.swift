// The one warning for a plain factory registered from the main actor that a
// synchronous resolve is about to run off it (DESIGN.md, A1).

/// A plain factory registered from the main actor, which may be isolated to
/// it: says, once per registration, when a synchronous resolve is about to
/// run it off the main actor. Asking whether a thread is on the main actor
/// costs a queue lookup, so it is asked only when a thread other than the
/// one that ran the factory last runs it, and never again once said. (The
/// thread word is the only field a resolve may write, and only until the
/// warning is given.)
final class MainActorDeparture<Service>: @unchecked Sendable {
    private let name: Resolver.Name?
    /// The identity of the thread that ran the factory last
    /// (`EngineThread.identity`), or `warned` once the warning is given.
    private let lastThread = AtomicWord.allocate()
    private static var warned: UInt64 { UInt64.max }

    init(_ name: Resolver.Name?) {
        self.name = name
    }

    deinit {
        lastThread.deallocate()
    }

    /// Whether the warning was given (under the registry mutex).
    private var said = false

    /// Called before every run of the factory.
    func check() {
        let thread = EngineThread.identity
        let last = lastThread.load()
        guard last != thread && last != MainActorDeparture.warned else {
            return
        }
        guard !MainActorCheck.isOnMainActor else {
            lastThread.store(thread)
            return
        }
        lastThread.store(MainActorDeparture.warned)
        let first = registry.withLock { () -> Bool in
            defer { said = true }
            return !said
        }
        if first {
            registry.warn(MainActorDeparture.message(describe(Service.self, name)))
        }
    }

    static func message(_ service: String) -> String {
        """
        RESOLVER: warning: '\(service)' was registered from the main actor (MainActor), and a synchronous resolve is about to run its factory off the main actor. \
        A closure written in MainActor-isolated code (a @MainActor function, or any function of a module with default MainActor isolation) is isolated to the main actor, and the compiler assumes it runs there.
        If the factory uses main-actor state, register it as `{ @MainActor in … }`: synchronous resolves then run it only on the main actor (elsewhere they stop with a message) and `await Resolver.resolveAsync()` hops there.
        If the service is not isolated, register it from nonisolated code (a `nonisolated` function, such as a `nonisolated static func registerAllServices()`), which also silences this warning.
        This is said once per registration.
        """
    }
}
