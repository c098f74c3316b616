import Dispatch

/// What isolation a registration's factory needs (DESIGN.md, "Actors and
/// async factories", A1).
@usableFromInline
enum FactoryIsolation: UInt8, Sendable {
    case none
    case mainActor
    /// `resolveAsync` only.
    case async
    /// A list (`register(into:)`), whose elements each run in their own.
    case collection
}

/// A value carried across an isolation boundary the library has checked is
/// not really crossed: a main-actor factory's result for a caller on the
/// main actor, or a build's result for the tasks that waited for it.
@usableFromInline
struct Carried<Value>: @unchecked Sendable {
    @usableFromInline let value: Value
    @inlinable init(_ value: Value) { self.value = value }
}

@usableFromInline
enum MainActorCheck {
    /// A key the main queue carries. The main actor's jobs run on the main
    /// queue (on Linux too), so its lookup answers "is the caller on the main
    /// actor?" without stopping when it is not, as `assumeIsolated` would.
    static let key: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    static var isOnMainActor: Bool { DispatchQueue.getSpecific(key: key) != nil }

    /// Whether `isolation` (a caller's `#isolation`) is the main actor.
    @inlinable
    static func isMainActor(_ isolation: (any Actor)?) -> Bool {
        guard let isolation else { return false }
        return isolation === MainActor.shared
    }
}

extension ResolverRegistration {
    /// A main-actor factory from a synchronous resolve: run on the main
    /// actor, elsewhere a stop with the fix.
    static func callOnMainActor(_ factory: @escaping MainActorFactory, _ name: Resolver.Name?,
                                _ resolver: Resolver, _ args: Any?) -> Service? {
        guard MainActorCheck.isOnMainActor else {
            fail(offMainActorMessage(name), kind: .other)
        }
        let carried = Carried((factory, resolver, args))
        return MainActor.assumeIsolated {
            Carried(carried.value.0(carried.value.1, carried.value.2))
        }.value
    }

    static func offMainActorMessage(_ name: Resolver.Name?) -> String {
        "RESOLVER: '\(describe(Service.self, name))' is registered with a @MainActor factory, and this synchronous resolve is not on the main actor (MainActor), so its factory cannot run here.\n"
            + "Resolve it on the main actor (from a @MainActor function or type), or from async code with `await \(asyncCallSpelling(name))`, which runs the factory on the main actor."
            + chainSentence
    }

    static func asyncFactoryMessage(_ name: Resolver.Name?) -> String {
        "RESOLVER: '\(describe(Service.self, name))' is registered with an async factory (or one isolated to a global actor other than the main actor), which a synchronous resolve cannot run.\n"
            + "Resolve it from async code with `await \(asyncCallSpelling(name))` (or `resolveAsync()` on its container), which runs the factory on its actor. Once a caching scope holds its instance, synchronous resolves return that instance."
            + chainSentence
    }

    private static func asyncCallSpelling(_ name: Resolver.Name?) -> String {
        if KeyName.isKey(name), let name {
            return "Resolver.resolveAsync(\(name.rawValue))"
        }
        return "Resolver.resolveAsync(\(Service.self).self\(name.map { ", name: \"\($0.rawValue)\"" } ?? ""))"
    }
}

/// Says, once per registration, when a synchronous resolve is about to run
/// a plain factory registered from the main actor off it (A1). It asks (a
/// queue lookup) only when another thread than the last one runs it, and
/// never once said; until then the thread word is the one field a resolve
/// writes.
final class MainActorDeparture<Service>: @unchecked Sendable {
    private let name: Resolver.Name?
    /// The identity of the thread that ran the factory last, or `warned`.
    private let lastThread = AtomicWord.allocate()
    private static var warned: UInt64 { UInt64.max }
    /// Under the registry mutex.
    private var said = false

    init(_ name: Resolver.Name?) { self.name = name }
    deinit { lastThread.deallocate() }

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
