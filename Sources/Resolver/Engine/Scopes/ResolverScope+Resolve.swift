extension ResolverRegistration {
    /// Steps 3 and 4 for the public API: through `given` (a built-in scope's
    /// `resolve(registration:resolver:args:)`), or through its own scope as
    /// seen from `resolver` (`resolve(resolver:args:)`, an edge of a recorded
    /// graph). A caching scope keeps a hand-made registration's instance
    /// under its hand-made key.
    func resolveThroughScope(_ resolver: Resolver, _ args: Any?, _ given: ResolverScope? = nil) -> Service? {
        withCarriedArguments(args) { arguments in
            withRegistryKey(Service.self, name) { key in
                if given == nil && Published.detours.load() != 0 {
                    GraphRecorder.recordResolve(of: Service.self, key)
                }
                return ReadSection.run { section in
                    let request = ResolveRequest(key, from: UncheckedReference(resolver), arguments)
                    let registration = UncheckedReference(self)
                    let scope = given.map(UncheckedReference.init)
                        ?? ResolverRegistration.scope(registration, from: request.container, section)
                    if handMadeCacheName != nil && scope.read({ $0.kind.keepsInstances }) {
                        return scope.object.resolveHandMade(self, resolver, arguments, section)
                    }
                    return ResolverRegistration.keptOrMade(registration, through: scope, request, section)
                }
            }
        }
    }

    /// `instantiate(resolver:args:)`: a new instance from the current factory,
    /// the arguments checked as the resolve path checks them.
    func produce(_ resolver: Resolver, _ args: Any?) -> Service? {
        withCarriedArguments(args) { arguments in
            ResolverRegistration.checkArguments(UncheckedReference(self), arguments)
            return ReadSection.run { section in
                ResolverRegistration.produce(UncheckedReference(self), ResolutionContext.currentState,
                                             UncheckedReference(resolver), arguments, section)
            }
        }
    }
}

extension ResolverScope {
    /// `resolve(registration:resolver:args:)` of the built-in scopes.
    func resolveBuiltIn<Service>(_ registration: ResolverRegistration<Service>, _ resolver: Resolver, _ args: Any?) -> Service? {
        registration.resolveThroughScope(resolver, args, self)
    }

    /// The instance of a registration made by hand with a key other than its
    /// type's, under its `cacheKey`, where several service types meet: it is
    /// kept as `Any` and cast (DESIGN.md, "Caching scopes: the memo and odd
    /// generations").
    func resolveHandMade<Service>(_ registration: ResolverRegistration<Service>, _ resolver: Resolver,
                                  _ arguments: ArgumentsPointer, _ section: borrowing ReadSection) -> Service? {
        let name = registration.handMadeCacheName.unsafelyUnwrapped
        let kind = self.kind
        let scope = UncheckedReference(self)
        return withRegistryKey(ResolverRegistration<Service>.handMadeCacheType, name.key, owner: name) { key in
            if let entry = table?.findValue(key),
               let cached = ResolverScope.service(inEntry: entry, of: kind, in: scope, as: Any.self) as? Service {
                return cached
            }
            if registration.isolation == .async {
                registration.asyncFactoryStop()
            }
            let request = ResolveRequest(key, from: UncheckedReference(resolver), arguments)
            var service: Service?
            buildOnce(BuildKey(key, typeID: ResolverRegistration<Service>.handMadeCacheType, name: name, argumentsKey: nil,
                               registration: registration), found: { entry in
                service = ResolverScope.service(inEntry: entry, of: kind, in: scope, as: Any.self) as? Service
                return service != nil
            }, built: { instance in
                service = instance.flatMap { ValueStorage.value(in: $0, as: Any.self) as? Service }
                return instance == nil || service != nil
            }, make: {
                service = ResolverRegistration.produce(UncheckedReference(registration), ResolutionContext.currentState,
                                                       request.container, request.arguments, section)
                return ResolverScope.built(service.map { $0 as Any }, for: kind, in: scope)
            })
            return service
        }
    }
}
