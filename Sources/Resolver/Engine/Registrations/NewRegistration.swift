// Where a registration is made.

extension Resolver {
    /// A new registration of `register` (or of a key), made in the
    /// library's own, unspecialized code.
    ///
    /// Why not in the caller's: an app's specialized code names
    /// `ResolverRegistration<LiveAPI>` by its mangled name, and the first
    /// use of each such name demangles it (about 4,500 instructions per
    /// service type, in every process's first container). Here the class's
    /// metadata comes from its generic accessor, given `Service`'s. For the
    /// same reason this is a static of a type that is not generic, and the
    /// resolve path calls no static method of the generic class out of line
    /// (such a call passes the class's metadata): the slow paths it may take
    /// are instance methods, called on the registration it holds.
    @usableFromInline
    @inline(never)
    static func newRegistration<Service>(name: Resolver.Name?, scope: ResolverScope,
                                         factory: ResolverRegistration<Service>.Factory,
                                         registeredOnMainActor: Bool = false, arguments: ArgumentList? = nil,
                                         site: RegistrationSite? = nil) -> ResolverRegistration<Service> {
        allocate(name, scope, factory, registeredOnMainActor, arguments, site)
    }

    /// `newRegistration`'s body, private: a function that calls it cannot
    /// be copied into a client module to be specialized there (which would
    /// bring the mangled name back).
    @inline(never)
    private static func allocate<Service>(_ name: Resolver.Name?, _ scope: ResolverScope,
                                          _ factory: ResolverRegistration<Service>.Factory, _ registeredOnMainActor: Bool,
                                          _ arguments: ArgumentList?, _ site: RegistrationSite?) -> ResolverRegistration<Service> {
        ResolverRegistration(name: name, scope: scope, factory: factory, registeredOnMainActor: registeredOnMainActor,
                             arguments: arguments, site: site)
    }
}
