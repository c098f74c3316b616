// Contexts whose factories run on the main actor, as a `@MainActor` registration's do
// (`Contexts.swift` has the rest): `.onTest { @MainActor in FakePlayer() }`. A synchronous
// resolve on the main actor runs the factory; one elsewhere stops with the fix.

extension ResolverOptions {
    /// Under a test runner, resolves with `factory`, on the main actor:
    /// `.onTest { @MainActor in FakePlayer() }`.
    @discardableResult
    public func onTest(_ factory: @escaping @MainActor () -> Service?) -> ResolverOptions<Service> {
        registration.addContext(.test) { resolver, args in Resolver.onMainActor({ _, _ in factory() }, resolver, args) }
        return self
    }

    /// Under a test runner, resolves with `factory`, given the container, on the main actor.
    @discardableResult
    public func onTest(_ factory: @escaping @MainActor (Resolver) -> Service?) -> ResolverOptions<Service> {
        registration.addContext(.test) { resolver, args in Resolver.onMainActor({ r, _ in factory(r) }, resolver, args) }
        return self
    }

    /// For Xcode's previews, resolves with `factory`, on the main actor.
    @discardableResult
    public func onPreview(_ factory: @escaping @MainActor () -> Service?) -> ResolverOptions<Service> {
        registration.addContext(.preview) { resolver, args in Resolver.onMainActor({ _, _ in factory() }, resolver, args) }
        return self
    }

    /// For Xcode's previews, resolves with `factory`, given the container, on the main actor.
    @discardableResult
    public func onPreview(_ factory: @escaping @MainActor (Resolver) -> Service?) -> ResolverOptions<Service> {
        registration.addContext(.preview) { resolver, args in Resolver.onMainActor({ r, _ in factory(r) }, resolver, args) }
        return self
    }

    /// When the app was launched with `argument`, resolves with `factory`, on the main actor.
    @discardableResult
    public func onArg(_ argument: String, _ factory: @escaping @MainActor () -> Service?) -> ResolverOptions<Service> {
        registration.addContext(.argument(argument)) { resolver, args in
            Resolver.onMainActor({ _, _ in factory() }, resolver, args)
        }
        return self
    }

    /// When the app was launched with `argument`, resolves with `factory`,
    /// given the container, on the main actor.
    @discardableResult
    public func onArg(_ argument: String, _ factory: @escaping @MainActor (Resolver) -> Service?) -> ResolverOptions<Service> {
        registration.addContext(.argument(argument)) { resolver, args in
            Resolver.onMainActor({ r, _ in factory(r) }, resolver, args)
        }
        return self
    }

    /// In a debug build of the app, resolves with `factory`, on the main actor.
    @discardableResult
    public func onDebug(_ factory: @escaping @MainActor () -> Service?) -> ResolverOptions<Service> {
        registration.addContext(.debug) { resolver, args in Resolver.onMainActor({ _, _ in factory() }, resolver, args) }
        return self
    }

    /// In a debug build of the app, resolves with `factory`, given the container, on the main actor.
    @discardableResult
    public func onDebug(_ factory: @escaping @MainActor (Resolver) -> Service?) -> ResolverOptions<Service> {
        registration.addContext(.debug) { resolver, args in Resolver.onMainActor({ r, _ in factory(r) }, resolver, args) }
        return self
    }
}
