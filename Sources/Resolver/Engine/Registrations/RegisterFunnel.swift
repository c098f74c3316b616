// The one register funnel: every way of making a registration ends here
// (`register`, `register(into:)`, a key's override, a key's own registration
// at its first use). One function makes the registration, stores it where
// its placement says, notes it for strict tests, reports a memory failure,
// checks that a caching scope can keep its instances per argument list,
// and records what it replaced for `verify()`.

extension Resolver {
    /// Where the funnel stores a registration, and what storing it does.
    @usableFromInline
    enum Placement {
        /// `register`: under its type and name in the container (nil:
        /// `main`), replacing the one there.
        case service
        /// `register(into:)`: an element added to the container's list of
        /// `[Service]` under the name (nil: `main`).
        case element
        /// `register(\.key) { … }`: under the key's name in the container
        /// (nil: the task's root, `main` outside a test), with the key's
        /// scope, replacing the one there, and every instance the key's
        /// scope keeps there is dropped.
        case keyOverride(ResolverScope)
        /// A key's own registration, made from its declaration at its first
        /// use: into the keys' table, unless another thread stored one first.
        case keyDeclaration(KeyDeclaration)
    }

    /// Makes a registration of `factory` (of the typed argument list
    /// `arguments`, if any) made at `site`, with the default scope (a key's:
    /// its declared one), and stores it as `placement` says in `container`,
    /// under one lock pair. What it replaces is retired, and released after
    /// unlocking. Returns the options of the registration stored (for a
    /// key's declaration, the one another thread stored first, if any).
    @inlinable
    static func register<Service>(_ container: Resolver?, _ name: Resolver.Name?, _ site: RegistrationSite?,
                                  _ factory: ResolverRegistration<Service>.Factory, _ registeredOnMainActor: Bool,
                                  _ arguments: ArgumentList? = nil, _ placement: Placement = .service)
        -> ResolverOptions<Service> {
        // A key's scope is the app's code (its `.scope(…)`): evaluated with no lock held.
        let declaredScope = placement.declaredScope()
        let (made, stored, target, rc) = registry.write {
            () -> (ResolverRegistration<Service>, ResolverRegistration<Service>, Resolver, Int32) in
            let target = container ?? placement.defaultContainerLocked
            let made = newRegistration(name: placement.nameLocked(name, of: Service.self),
                                       scope: declaredScope ?? registry.defaultScope ?? .graph, factory: factory,
                                       registeredOnMainActor: registeredOnMainActor, arguments: arguments, site: site)
            if case .keyDeclaration(let declaration) = placement {
                declaration.declareLocked(made)
            }
            let (stored, rc) = placement.storeLocked(made, in: target, list: name)
            return (made, stored.unsafeCast(to: ResolverRegistration<Service>.self).object, target, rc)
        }
        placement.finish(made, stored: stored, rc, Service.self, name)
        if arguments != nil {
            stored.checkArgumentsCanBeCachedInItsScope()
        }
        return ResolverOptions(registration: stored, container: target)
    }
}

extension Resolver.Placement {
    /// A key's scope: its declared `.scope(…)` (the app's code, run with no
    /// lock held) or, for an override, its registration's.
    @usableFromInline
    func declaredScope() -> ResolverScope? {
        switch self {
        case .service, .element: return nil
        case .keyOverride(let scope): return scope
        case .keyDeclaration(let declaration): return declaration.scope?()
        }
    }

    /// The container a registration goes to when the caller names none.
    /// The mutex must be held.
    @usableFromInline
    var defaultContainerLocked: Resolver {
        registry.assertLocked()
        switch self {
        case .service, .element: return registry.main
        case .keyOverride: return Resolver.rootOverride ?? registry.main
        case .keyDeclaration: return KeyDefaults.shared.container
        }
    }

    /// The name the registration gets: the one given, or for an element a
    /// name of its own in the list named `name`. The mutex must be held.
    @usableFromInline
    func nameLocked<Service>(_ name: Resolver.Name?, of type: Service.Type) -> Resolver.Name? {
        guard case .element = self else { return name }
        return registry.elementNameLocked(Service.self, list: name)
    }

    /// Stores `registration` in `container` as the placement says: what is
    /// stored (the registration, or a key's that was there first) and 0, or
    /// an error code (out of memory: the table unchanged). The mutex must be
    /// held.
    @usableFromInline
    func storeLocked<Service>(_ registration: ResolverRegistration<Service>, in container: Resolver,
                              list name: Resolver.Name?) -> (UncheckedReference<AnyObject>, Int32) {
        registry.assertLocked()
        let made = UncheckedReference<AnyObject>(registration)
        switch self {
        case .service:
            return (made, container.putLocked(registration, typeID: registration.typeID, name: registration.name))
        case .element:
            return (made, container.addElementLocked(registration, toList: name))
        case .keyOverride:
            let rc = container.putLocked(registration, typeID: registration.typeID, name: registration.name)
            if rc == 0 {
                registration.dropInstancesLocked(from: container)
            }
            return (made, rc)
        case .keyDeclaration(let declaration):
            if let existing = withRegistryKey(Service.self, registration.name, { container.storage.table.findLocked($0) }) {
                return (existing, 0)
            }
            let rc = container.putLocked(registration, typeID: registration.typeID, name: registration.name)
            if rc == 0 {
                KeyDefaults.recordLocked(registration, declaration)
            }
            return (made, rc)
        }
    }

    /// After the lock: notes a registration the app's code made for strict
    /// tests (not a key's own: it is the app's), and reports a memory
    /// failure; a key's declaration that found another's stops if that one
    /// was declared elsewhere.
    @usableFromInline
    func finish<Service>(_ made: ResolverRegistration<Service>, stored: ResolverRegistration<Service>, _ rc: Int32,
                         _ type: Service.Type, _ name: Resolver.Name?) {
        guard case .keyDeclaration(let declaration) = self else {
            if StrictTest.isActiveAnywhere {
                StrictTest.noteRegistered(made)
            }
            if rc != 0 {
                let what: Any.Type = if case .element = self { [Service].self } else { Service.self }
                registry.reportRecoverable(outOfMemoryRegistering: what, name, rc)
            }
            return
        }
        if rc != 0 {
            resolverFailure("RESOLVER: could not register the key \(declaration.site.keyPath) of '\(Service.self)': out of memory (error \(rc)).")
        }
        if stored !== made {
            KeyDefaults.checkDeclaration(stored, declaration.site.origin, declaration.site.keyPath)
        }
    }
}

extension ResolverRegistration {
    /// Drops every instance this registration's scope keeps for its key as
    /// seen from `container` (its own caches where it isolates them, its
    /// `cache` for `.container`), per argument list too: a key's override
    /// replaces the instance as Factory's `register` does. The mutex must be
    /// held.
    @usableFromInline
    func dropInstancesLocked(from container: Resolver) {
        scopeStorage.dropInstancesLocked(of: Service.self, name, from: container)
    }
}

extension ResolverScope {
    /// Drops the instances this scope, as it stands in a resolve from
    /// `container`, keeps for `type` and `name`. The mutex must be held.
    func dropInstancesLocked(of type: Any.Type, _ name: Resolver.Name?, from container: Resolver) {
        registry.assertLocked()
        let scope = ReadSection.run { section in
            ResolverScope.seen(UncheckedReference(self), from: UncheckedReference(container), section).object
        }
        scope.resetEntryLocked(type, name: name)
    }
}
