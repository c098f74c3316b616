import Dispatch

// Which actor a factory belongs to, and how the resolve paths respect it
// (the article Concurrency; DESIGN.md, "Actors and async factories").
//
// - A factory registered as `{ @MainActor in … }` runs only on the main
//   actor: a synchronous resolve there calls it; anywhere else it stops the
//   program with a message (`resolveAsync` hops to the main actor instead).
// - An async factory runs only through `resolveAsync`; a synchronous resolve
//   stops with a message.
// - A plain factory registered from the main actor (`#isolation` told
//   `register`) may have inherited the main actor's isolation (a closure
//   written in a `MainActor`-isolated context, such as every function of a
//   module with default `MainActor` isolation, is isolated to it). When a
//   synchronous resolve is about to run it off the main actor, the library
//   says so once per registration and runs it, as it always did.

/// What isolation a registration's factory needs.
@usableFromInline
enum FactoryIsolation: UInt8, Sendable {
    /// A synchronous factory that may run on any thread.
    case none
    /// A synchronous factory isolated to the main actor.
    case mainActor
    /// An async factory: `resolveAsync` only.
    case async
    /// A collection's list (`register(into:)`): each element's factory runs
    /// in its own isolation; `resolveAsync` awaits those that need it.
    case collection
}

/// A value carried across an isolation boundary that the library has
/// checked is not really crossed: a main-actor factory's result handed to a
/// caller that is itself on the main actor, or a build's result handed from
/// the task that built it to the tasks that waited for it (the same value
/// each would have got from a cached instance).
@usableFromInline
struct Carried<Value>: @unchecked Sendable {
    @usableFromInline let value: Value

    @inlinable
    init(_ value: Value) {
        self.value = value
    }
}

@usableFromInline
enum MainActorCheck {
    /// A key the main queue carries: the main actor's jobs run on the main
    /// queue (on Linux too, where after the first `await` of top-level code
    /// they need not run on the process's first thread), and the main thread
    /// is bound to it before any job runs. So a lookup of this key answers
    /// "is the caller on the main actor?" without stopping when it is not,
    /// as `MainActor.assumeIsolated` would.
    static let key: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    /// Whether the calling code runs on the main actor.
    static var isOnMainActor: Bool {
        DispatchQueue.getSpecific(key: key) != nil
    }

    /// Whether `isolation` (a caller's `#isolation`) is the main actor.
    @inlinable
    static func isMainActor(_ isolation: (any Actor)?) -> Bool {
        guard let isolation else { return false }
        return isolation === MainActor.shared
    }
}

extension ResolverRegistration {
    /// Calls a main-actor factory from a synchronous resolve: on the main
    /// actor it runs; elsewhere the program stops with the fix.
    static func callOnMainActor(_ factory: @escaping MainActorFactory, _ name: Resolver.Name?,
                                _ resolver: Resolver, _ args: Any?) -> Service? {
        guard MainActorCheck.isOnMainActor else {
            resolverFailure(offMainActorMessage(name), kind: .other)
        }
        let carried = Carried((factory, resolver, args))
        return MainActor.assumeIsolated {
            Carried(carried.value.0(carried.value.1, carried.value.2))
        }.value
    }

    /// The message for a main-actor factory asked for off the main actor.
    static func offMainActorMessage(_ name: Resolver.Name?) -> String {
        message([
            "RESOLVER: '\(describe(Service.self, name))' is registered with a @MainActor factory, and this synchronous resolve is not on the main actor (MainActor), so its factory cannot run here.",
            "Resolve it on the main actor (from a @MainActor function or type), or from async code with `await \(resolveAsyncCall(name))`, which runs the factory on the main actor.",
        ])
    }

    /// The message for an async factory asked for by a synchronous resolve
    /// (a factory isolated to a global actor other than the main actor is
    /// one: `{ @PlayActor () async in … }`).
    static func asyncFactoryMessage(_ name: Resolver.Name?) -> String {
        message([
            "RESOLVER: '\(describe(Service.self, name))' is registered with an async factory (or one isolated to a global actor other than the main actor), which a synchronous resolve cannot run.",
            "Resolve it from async code with `await \(resolveAsyncCall(name))` (or `resolveAsync()` on its container), which runs the factory on its actor. Once a caching scope holds its instance, synchronous resolves return that instance.",
        ])
    }

    /// `Resolver.resolveAsync(Service.self, name: "…")`, as the fix spells
    /// it (`Resolver.resolveAsync(\.key)` for a key's registration).
    private static func resolveAsyncCall(_ name: Resolver.Name?) -> String {
        if KeyName.isKey(name), let name {
            return "Resolver.resolveAsync(\(name.rawValue))"
        }
        return "Resolver.resolveAsync(\(Service.self).self\(name.map { ", name: \"\($0.rawValue)\"" } ?? ""))"
    }

    /// `lines`, then the chain of services this thread is resolving, if any.
    private static func message(_ lines: [String]) -> String {
        let chain = ResolutionContext.current.chainDescription
        let needed = chain.isEmpty ? [] : ["Needed while resolving \(chain.joined(separator: " → "))."]
        return (lines + needed).joined(separator: "\n")
    }
}
