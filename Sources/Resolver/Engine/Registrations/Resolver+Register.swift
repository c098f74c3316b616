extension Resolver {
    /// Where the register funnel stores a registration (nil container:
    /// `main`; for an override, the task's root).
    @usableFromInline
    enum Placement {
        /// `register`: under its type and name.
        case service
        /// `register(into:)`: an element of the list `[Service]` of the name.
        case element
        /// `register(\.key) { … }`, with the key's scope, dropping the instances it keeps there.
        case keyOverride(ResolverScope)
        /// A key's own, at its first use: into the keys' table, unless another thread stored one first.
        case keyDeclaration(KeyDeclaration)
    }

    /// The one register funnel, which every way of registering takes: makes
    /// a registration with the default scope (a key's: its declared one) and
    /// stores it as `placement` says, under one lock pair. Returns the
    /// options of the one stored (a key's: maybe another thread's).
    @inlinable
    static func register<Service>(_ container: Resolver?, _ name: Resolver.Name?, _ site: RegistrationSite?,
                                  _ factory: ResolverRegistration<Service>.Factory, _ registeredOnMainActor: Bool,
                                  _ arguments: ArgumentList? = nil, _ placement: Placement = .service)
        -> ResolverOptions<Service> {
        let declaredScope = placement.declaredScope()
        let (made, stored, target, rc) = registry.write {
            () -> (ResolverRegistration<Service>, ResolverRegistration<Service>, Resolver, RegistryError?) in
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

    /// A new registration, made in the library's unspecialized code (B2).
    @usableFromInline
    @inline(never)
    static func newRegistration<Service>(name: Resolver.Name?, scope: ResolverScope,
                                         factory: ResolverRegistration<Service>.Factory,
                                         registeredOnMainActor: Bool = false, arguments: ArgumentList? = nil,
                                         site: RegistrationSite? = nil) -> ResolverRegistration<Service> {
        allocate(name, scope, factory, registeredOnMainActor, arguments, site)
    }

    /// Private, so no client module gets `newRegistration`'s body to specialize (B2).
    @inline(never)
    private static func allocate<Service>(_ name: Resolver.Name?, _ scope: ResolverScope,
                                          _ factory: ResolverRegistration<Service>.Factory, _ registeredOnMainActor: Bool,
                                          _ arguments: ArgumentList?, _ site: RegistrationSite?) -> ResolverRegistration<Service> {
        RegistrationClasses.of(Service.self).init(name: name, scope: scope, factory: factory,
                                                  registeredOnMainActor: registeredOnMainActor, arguments: arguments,
                                                  site: site)
    }
}

/// The class `ResolverRegistration<Service>` of every service type
/// registered so far, under the type's identity (B2): a registration of a
/// type met before costs one probe of this table instead of the runtime's
/// lookup of generic metadata. Process-wide, never emptied (one entry per
/// service type, room for 256 before it grows); read and written under the
/// registry mutex, as `register` runs.
enum RegistrationClasses {
    private static let table = ClassTable.make(mutex: registry.mutex, capacity: 256, "the table of registration classes")

    /// `ResolverRegistration<Service>.self`, from the table after the type's first registration.
    static func of<Service>(_: Service.Type) -> ResolverRegistration<Service>.Type {
        registry.assertLocked()
        return withRegistryKey(RegistryKey.typeID(of: Service.self), nil) { key in
            if let type = table.findLocked(key) {
                // The class stored under this type's identity is this type's registration class.
                return unsafeBitCast(type, to: ResolverRegistration<Service>.Type.self)
            }
            let type = ResolverRegistration<Service>.self
            _ = table.putLocked(key, type) // out of memory: the next registration of the type asks the runtime again
            return type
        }
    }
}

extension Resolver.Placement {
    /// A key's `.scope(…)` (the app's code, run with no lock held), or an override's.
    @usableFromInline
    func declaredScope() -> ResolverScope? {
        switch self {
        case .service, .element: return nil
        case .keyOverride(let scope): return scope
        case .keyDeclaration(let declaration): return declaration.scope?()
        }
    }

    /// The container a registration goes to when the caller names none.
    @usableFromInline
    var defaultContainerLocked: Resolver {
        registry.assertLocked()
        switch self {
        case .service, .element: return registry.main
        case .keyOverride: return Resolver.rootOverride ?? registry.main
        case .keyDeclaration: return KeyDefaults.shared.container
        }
    }

    /// The name given, or for an element a name of its own in the list `name`.
    @usableFromInline
    func nameLocked<Service>(_ name: Resolver.Name?, of type: Service.Type) -> Resolver.Name? {
        guard case .element = self else { return name }
        return registry.elementNameLocked(Service.self, list: name)
    }

    /// What is stored (it, or a key's there first) and 0, or an error code
    /// (out of memory: the table unchanged).
    @usableFromInline
    func storeLocked<Service>(_ registration: ResolverRegistration<Service>, in container: Resolver,
                              list name: Resolver.Name?) -> (UncheckedReference<AnyObject>, RegistryError?) {
        registry.assertLocked()
        let made = UncheckedReference<AnyObject>(registration)
        switch self {
        case .service:
            return (made, container.putLocked(registration, typeID: registration.typeID, name: registration.name))
        case .element:
            return (made, container.addElementLocked(registration, toList: name))
        case .keyOverride:
            let rc = container.putLocked(registration, typeID: registration.typeID, name: registration.name)
            if rc == nil {
                registration.dropInstancesLocked(from: container)
            }
            return (made, rc)
        case .keyDeclaration(let declaration):
            if let existing = withRegistryKey(Service.self, registration.name, { container.storage.table.findLocked($0) }) {
                return (existing, nil)
            }
            let rc = container.putLocked(registration, typeID: registration.typeID, name: registration.name)
            if rc == nil {
                KeyDefaults.recordLocked(registration, declaration)
            }
            return (made, rc)
        }
    }

    /// After the lock: notes the app's registration for strict tests and
    /// reports a memory failure; a key's declaration that found another's
    /// stops if that one is declared elsewhere.
    @usableFromInline
    func finish<Service>(_ made: ResolverRegistration<Service>, stored: ResolverRegistration<Service>, _ rc: RegistryError?,
                         _ type: Service.Type, _ name: Resolver.Name?) {
        guard case .keyDeclaration(let declaration) = self else {
            if StrictTest.isActiveAnywhere {
                StrictTest.noteRegistered(made)
            }
            if let rc {
                let what: Any.Type = if case .element = self { [Service].self } else { Service.self }
                registry.reportRecoverable(outOfMemoryRegistering: what, name, rc)
            }
            return
        }
        if let rc {
            fail("RESOLVER: could not register the key \(declaration.site.keyPath) of '\(Service.self)': \(rc).")
        }
        if stored !== made {
            KeyDefaults.checkDeclaration(stored, declaration.site.place, declaration.site.keyPath)
        }
    }
}

extension ResolverRegistration {
    /// Drops what its scope, seen from `container`, keeps for it: a key's
    /// override replaces the instance, as Factory's `register` does.
    @usableFromInline
    func dropInstancesLocked(from container: Resolver) {
        scopeStorage.dropInstancesLocked(of: Service.self, name, from: container)
    }
}

extension ResolverScope {
    func dropInstancesLocked(of type: Any.Type, _ name: Resolver.Name?, from container: Resolver) {
        registry.assertLocked()
        ReadSection.run { ResolverScope.seen(UncheckedReference(self), from: UncheckedReference(container), $0).object }
            .resetEntryLocked(type, name: name)
    }
}
