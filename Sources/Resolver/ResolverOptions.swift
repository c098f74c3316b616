/// Returned by `register`, to refine a registration by chaining:
///
/// ```swift
/// register { XYZService() }
///     .implements(XYZFetching.self)
///     .resolveProperties { r, service in service.logger = r.optional() }
///     .scope(.application)
/// ```
///
/// The options can be applied in any order: a scope set after `implements`
/// still applies to the protocol, which resolves through this registration.
public struct ResolverOptions<Service> {
    /// The registration being refined.
    public var registration: ResolverRegistration<Service>
    /// The container `register` was called on, where `implements` registers.
    @usableFromInline let container: Resolver?

    /// Options for `registration`. Their `implements` registers in the
    /// container given to `ResolverRegistration(resolver:key:name:factory:)`,
    /// or else (for a registration made by `register`, which does not know
    /// its container) in `Resolver.main`.
    public init(registration: ResolverRegistration<Service>) {
        self.init(registration: registration, container: registration.container)
    }

    @usableFromInline
    init(registration: ResolverRegistration<Service>, container: Resolver?) {
        self.registration = registration
        self.container = container
    }

    /// Also registers `Protocol` (optionally under `name`) in the same
    /// container, resolving through this registration, so an `.application`
    /// service and its protocol give the same instance. Arguments pass
    /// through to this registration's factory.
    @discardableResult
    public func implements<Protocol>(_ type: Protocol.Type, name: Resolver.Name? = .none) -> ResolverOptions<Service> {
        let registration = self.registration
        let forwarding = Resolver.register(container, name, registration.site, .anyArguments { (resolver: Resolver, args: Any?) -> Protocol? in
            guard let service = registration.resolve(resolver: resolver, args: args) else {
                return nil
            }
            if let same = exactly(service, as: Protocol.self) {
                return same
            }
            guard let conforming = service as? Protocol else {
                fail("RESOLVER: '\(describeType(of: service))', registered as '\(Service.self)', does not conform to '\(Protocol.self)' named in implements().")
            }
            return conforming
        }, false)
        registry.withLock { forwarding.registration.forwardsTo = registration }
        return self
    }

    /// Runs `block` on each new instance right after the factory, inside the
    /// same resolution, so a graph-scoped dependency it resolves is the one
    /// just built. This is how dependency cycles are broken:
    /// `register { A(resolve()) }.resolveProperties { r, a in r.resolve(C.self).a = a }`.
    /// Skipped when the factory returns nil. Blocks run in the order written.
    @discardableResult
    public func resolveProperties(_ block: @escaping ResolverFactoryMutator<Service>) -> ResolverOptions<Service> {
        registration.update { factory in
            { resolver, args in
                guard let service = factory(resolver, args) else {
                    return nil
                }
                block(resolver, service)
                return service
            }
        }
        return self
    }

    /// As `resolveProperties(_:)`, with the resolve call's arguments.
    @discardableResult
    public func resolveProperties(_ block: @escaping ResolverFactoryMutatorArgumentsN<Service>) -> ResolverOptions<Service> {
        registration.update { factory in
            { resolver, args in
                guard let service = factory(resolver, args) else {
                    return nil
                }
                block(resolver, service, Resolver.Args(args))
                return service
            }
        }
        return self
    }

    /// Sets the registration's scope (the default is `Resolver.defaultScope`
    /// at registration time).
    @discardableResult
    public func scope(_ scope: ResolverScope) -> ResolverOptions<Service> {
        registration.setScope(scope, registeredIn: container)
        return self
    }
}
