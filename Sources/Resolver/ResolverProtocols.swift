/// Adopted by `Resolver` in an app to register every service in one place:
///
/// ```swift
/// extension Resolver: ResolverRegistering {
///     public static func registerAllServices() {
///         register { NetworkService() as NetworkServicing }
///     }
/// }
/// ```
///
/// `registerAllServices()` runs automatically, once, before the first
/// `resolve` or `optional` on any container (static or instance), and again
/// after `Resolver.reset()`. `register` does not trigger it. Other threads
/// that resolve while it runs wait until it has finished; resolves made from
/// inside it proceed.
public protocol ResolverRegistering {
    /// Registers the app's services, normally into `Resolver.main`.
    static func registerAllServices()
}

/// Gives a type a `resolver` property, by default `Resolver.root`.
public protocol Resolving {
    /// The container this value resolves from.
    var resolver: Resolver { get }
}

extension Resolving {
    /// `Resolver.root`, read on every access, so that replacing the root (to
    /// mock, say) takes effect immediately.
    public var resolver: Resolver {
        Resolver.root
    }
}

/// A factory with no parameters: `register { Service() }`.
public typealias ResolverFactory<Service> = () -> Service?
/// A factory given the resolving container: `register { r in Service(r.resolve()) }`.
public typealias ResolverFactoryResolver<Service> = (_ resolver: Resolver) -> Service?
/// A factory given the container and the resolve call's arguments.
public typealias ResolverFactoryArgumentsN<Service> = (_ resolver: Resolver, _ args: Resolver.Args) -> Service?
/// A factory given the container and the raw `args:` value; the form `ResolverRegistration.update(factory:)` works with.
public typealias ResolverFactoryAnyArguments<Service> = (_ resolver: Resolver, _ args: Any?) -> Service?
/// A factory isolated to the main actor: `register { @MainActor in ViewModel() }`.
/// Synchronous resolves run it on the main actor only; `resolveAsync` hops there.
public typealias ResolverFactoryMainActor<Service> = @MainActor () -> Service?
/// A main-actor factory given the resolving container.
public typealias ResolverFactoryMainActorResolver<Service> = @MainActor (_ resolver: Resolver) -> Service?
/// A main-actor factory given the container and the resolve call's arguments.
public typealias ResolverFactoryMainActorArgumentsN<Service> = @MainActor (_ resolver: Resolver, _ args: Resolver.Args) -> Service?
/// An async factory: `register { await Store() }`. Resolved with `resolveAsync`.
public typealias ResolverFactoryAsync<Service> = () async -> Service?
/// An async factory given the resolving container: `register { r in await Store(api: r.resolve()) }`.
public typealias ResolverFactoryAsyncResolver<Service> = (_ resolver: Resolver) async -> Service?
/// An async factory given the container and the resolve call's arguments.
public typealias ResolverFactoryAsyncArgumentsN<Service> = (_ resolver: Resolver, _ args: Resolver.Args) async -> Service?
/// A block run on a freshly made service (see `ResolverOptions.resolveProperties`).
public typealias ResolverFactoryMutator<Service> = (_ resolver: Resolver, _ service: Service) -> Void
/// A block run on a freshly made service, with the resolve call's arguments.
public typealias ResolverFactoryMutatorArgumentsN<Service> = (_ resolver: Resolver, _ service: Service, _ args: Resolver.Args) -> Void
/// The scope that makes a new instance on every resolve.
public typealias ResolverScopeUnique = ResolverScope
